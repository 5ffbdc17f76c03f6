// The default network, embedded in the binary at build time from weights/ (see
// CMakeLists.txt), so that `avocet` works from any directory without a weights file.
#pragma once

#include <memory>
#include <string>

#include "avocet/nn/network.h"

namespace avocet::nn {

// Loaded once per precision, then shared; throws WeightsError if the build embedded no net.
std::shared_ptr<const Network> default_network(Precision precision = Precision::Auto);

// `path` if given, else the default network.
std::shared_ptr<const Network> load_network(const std::string& path,
                                            Precision precision = Precision::Auto);

}  // namespace avocet::nn
