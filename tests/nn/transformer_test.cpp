// The trunk (nn/transformer.h): run_blocks with read_rows, which finishes the last block on
// the rows the caller reads alone, gives those rows the values of a full run.
#include "avocet/nn/transformer.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "../test_data.h"
#include "avocet/nn/helper_thread.h"
#include "avocet/nn/network.h"

namespace avocet::nn {
namespace {

// Token ids for one sequence, spread over the vocabulary.
std::vector<int> some_tokens(const TrunkWeights& w, int seed) {
  std::vector<int> tokens(size_t(w.sequence_length));
  for (size_t i = 0; i < tokens.size(); ++i)
    tokens[i] = int((i * 7 + size_t(seed) * 13) % size_t(w.embedding.rows()));
  return tokens;
}

// ws.x's rows after a full run and after a run that reads only `read`, with and without a
// helper thread. Integer products compute each row exactly alike, so int8 must match bit for
// bit; Eigen's fp32 product may sum a row in another order when it falls in another register
// block (nn/transformer.h), so fp32 is held to rounding.
void expect_read_rows_match(const std::string& model, Precision precision) {
  const auto network = Network::load_file(testing::data_path(model + ".safetensors"), precision);
  const TrunkWeights& w = network->trunk();
  for (const std::vector<int>& read :
       {std::vector<int>{0}, std::vector<int>{5}, std::vector<int>{1, 2, 3, 40, 64},
        std::vector<int>{3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                         16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27}}) {
    for (const bool two_threads : {false, true}) {
      const std::vector<int> tokens = some_tokens(w, int(read.size()));
      std::unique_ptr<HelperThread> helper;
      if (two_threads) helper = std::make_unique<HelperThread>();
      TrunkWorkspace full, partial;
      run_trunk(w, tokens.data(), 1, full, helper.get());
      embed_tokens(w, tokens.data(), 1, partial);
      run_blocks(w, 1, partial, helper.get(), read);
      for (const int row : read) {
        const std::string what = model + " row " + std::to_string(row) +
                                 (two_threads ? " two threads" : "") + " of " +
                                 std::to_string(read.size());
        if (precision == Precision::Int8) {
          EXPECT_EQ(Vector(partial.x.row(row)), Vector(full.x.row(row))) << what;
        } else {
          EXPECT_LE((partial.x.row(row) - full.x.row(row)).cwiseAbs().maxCoeff(), 1e-5f) << what;
        }
      }
    }
  }
}

TEST(Trunk, ReadRowsGetTheValuesOfAFullRun) {
  for (const std::string model : {"tiny_house", "tiny_house_relative"}) {
    expect_read_rows_match(model, Precision::Fp32);
    if (precision_supported(Precision::Int8)) expect_read_rows_match(model, Precision::Int8);
  }
}

}  // namespace
}  // namespace avocet::nn
