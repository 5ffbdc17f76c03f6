// The network's dense matrices and row vectors: fp32, row-major, as the weights file stores its
// tensors ([out, in] for a Linear) and as the kernels read their rows.
#pragma once

#include "avocet/nn/eigen.h"

namespace avocet::nn {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::Matrix<float, 1, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace avocet::nn
