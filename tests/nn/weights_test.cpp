// Malformed weights files: each fault is one WeightsError naming the file and the tensor.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "../test_data.h"
#include "avocet/nn/network.h"

namespace avocet::nn {
namespace {

std::vector<std::byte> read_bytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(file)), {});
  std::vector<std::byte> bytes(chars.size());
  std::memcpy(bytes.data(), chars.data(), chars.size());
  return bytes;
}

// A tensor to write: shape and float32 values.
struct Tensor {
  std::vector<int64_t> shape;
  std::vector<float> values;
  std::string dtype = "F32";
};

std::vector<std::byte> write_safetensors(const std::map<std::string, Tensor>& tensors,
                                         const std::map<std::string, std::string>& metadata) {
  nlohmann::json header;
  header["__metadata__"] = metadata;
  std::vector<std::byte> data;
  for (const auto& [name, t] : tensors) {
    const size_t begin = data.size();
    data.resize(begin + t.values.size() * 4);
    std::memcpy(data.data() + begin, t.values.data(), t.values.size() * 4);
    header[name] = {{"dtype", t.dtype}, {"shape", t.shape}, {"data_offsets", {begin, data.size()}}};
  }
  const std::string text = header.dump();
  std::vector<std::byte> file(8 + text.size());
  for (int i = 0; i < 8; ++i) file[i] = std::byte((uint64_t(text.size()) >> (8 * i)) & 0xFF);
  std::memcpy(file.data() + 8, text.data(), text.size());
  file.insert(file.end(), data.begin(), data.end());
  return file;
}

// The tiny house net's tensors and metadata, as a starting point for corruptions.
struct Valid {
  std::map<std::string, Tensor> tensors;
  std::map<std::string, std::string> metadata;
};

// Every tensor and the metadata of `file`.
Valid contents_of(const SafetensorsFile& file) {
  Valid v;
  v.metadata = file.metadata();
  for (const auto& [name, info] : file.tensors())
    v.tensors[name] = {info.shape, file.read(name, info.shape)};
  return v;
}

Valid valid_house() {
  return contents_of(SafetensorsFile::open(avocet::testing::data_path("tiny_house.safetensors")));
}

std::string load_error(const std::vector<std::byte>& bytes) {
  try {
    Network::load(SafetensorsFile::from_memory(bytes, "test.safetensors"));
  } catch (const WeightsError& e) {
    return e.what();
  }
  return "loaded";
}

// The error of loading `v` with its metadata `key` set to `value` ("loaded" if none).
std::string error_with(Valid v, const std::string& key, const std::string& value) {
  v.metadata[key] = value;
  return load_error(write_safetensors(v.tensors, v.metadata));
}

TEST(Weights, ValidRewriteLoads) {
  const Valid v = valid_house();
  EXPECT_EQ(load_error(write_safetensors(v.tensors, v.metadata)), "loaded");
}

// Feature groups are switched on by metadata: a v1 file (no keys) loads, a featured file
// loads with its embeddings, and a group this engine does not implement is refused by name.
TEST(Weights, FeatureGroupsComeFromMetadata) {
  const SafetensorsFile file =
      SafetensorsFile::open(avocet::testing::data_path("tiny_house_features.safetensors"));
  const auto net = Network::load(file);
  EXPECT_EQ(net->config().square_groups.size(), 4u);
  EXPECT_EQ(net->config().move_groups.size(), 8u);
  EXPECT_EQ(net->house_head().move_features.size(), 8u);
  EXPECT_EQ(net->square_features()[0].rows(), 16);

  Valid v = contents_of(file);
  EXPECT_EQ(error_with(v, "move_features", "pieces,see,check,threat,mate,allows_mate,fork"),
            "test.safetensors: move_features group 'fork' is not implemented by this engine "
            "(known: pieces, see, check, threat, mate, allows_mate, qsearch, targets)");
  EXPECT_EQ(error_with(v, "square_features", "attackers,attackers"),
            "test.safetensors: square_features names 'attackers' twice");
  Valid missing_tensor = v;
  missing_tensor.tensors.erase("square_features.pinned.weight");
  EXPECT_EQ(load_error(write_safetensors(missing_tensor.tensors, missing_tensor.metadata)),
            "test.safetensors: tensor 'square_features.pinned.weight' is missing");
  Valid wrong_shape = v;
  wrong_shape.tensors["head.move_features.see.weight"].shape = {18, 24};
  wrong_shape.tensors["head.move_features.see.weight"].values.resize(18 * 24);
  EXPECT_EQ(load_error(write_safetensors(wrong_shape.tensors, wrong_shape.metadata)),
            "test.safetensors: tensor 'head.move_features.see.weight' has shape [18, 24], "
            "expected [19, 24]");
  // The metadata no longer asks for a group whose tensor is present.
  EXPECT_EQ(error_with(v, "square_features", "attackers,least_valuable_attacker,pinned"),
            "test.safetensors: unexpected tensor 'square_features.en_prise.weight' for a house "
            "network");
}

// The attention-position variant is switched on by metadata: a file without the key (v1-v12)
// has no biases, a "bias" file loads its [heads, 77, 77] tables, and an unknown variant, a
// missing table or a variant on the searchless family is refused by name.
TEST(Weights, AttentionPositionComesFromMetadata) {
  const SafetensorsFile file =
      SafetensorsFile::open(avocet::testing::data_path("tiny_house_bias.safetensors"));
  const auto net = Network::load(file);
  EXPECT_EQ(net->config().attention_position, AttentionPosition::Bias);
  EXPECT_EQ(net->trunk().blocks[0].attention_bias.rows(), 2 * 77);
  EXPECT_EQ(net->trunk().blocks[0].attention_bias.cols(), 77);
  EXPECT_NE(net->description().find(" attention_bias "), std::string::npos);
  const auto plain =
      Network::load_file(avocet::testing::data_path("tiny_house_features.safetensors"));
  EXPECT_EQ(plain->config().attention_position, AttentionPosition::Absolute);
  EXPECT_EQ(plain->trunk().blocks[0].attention_bias.size(), 0);

  Valid v = contents_of(file);
  EXPECT_EQ(error_with(v, "attention_position", "smolgen"),
            "test.safetensors: attention_position 'smolgen' is not implemented by this engine "
            "(known: bias, relative)");
  Valid missing = v;
  missing.tensors.erase("layers.1.attn.bias");
  EXPECT_EQ(load_error(write_safetensors(missing.tensors, missing.metadata)),
            "test.safetensors: tensor 'layers.1.attn.bias' is missing");
  Valid without_key = v;  // tables present but not asked for
  without_key.metadata.erase("attention_position");
  EXPECT_EQ(load_error(write_safetensors(without_key.tensors, without_key.metadata)),
            "test.safetensors: unexpected tensor 'layers.0.attn.bias' for a house network");
  Valid searchless =
      contents_of(SafetensorsFile::open(avocet::testing::data_path("tiny_searchless.safetensors")));
  searchless.metadata["attention_position"] = "bias";
  EXPECT_EQ(load_error(write_safetensors(searchless.tensors, searchless.metadata)),
            "test.safetensors: attention_position is implemented for the house family only");
}

// Which products int8 runs in bf16 is the net's metadata "int8_bf16": absent, qkv (the
// shipped nets so far); empty, none; else the products named. An unknown or repeated name is
// refused. On a CPU with AVX-512 BF16 and an int8 kernel, the named products are packed in
// bf16 and the others quantized.
TEST(Weights, Int8Bf16ProductsComeFromMetadata) {
  const Valid v = valid_house();
  const auto config_of = [](const Valid& valid) {
    return Network::load(SafetensorsFile::from_memory(
                             write_safetensors(valid.tensors, valid.metadata), "test.safetensors"),
                         Precision::Fp32)
        ->config()
        .int8_bf16;
  };
  Valid absent = v;
  absent.metadata.erase("int8_bf16");
  EXPECT_EQ(config_of(absent), (Int8Bf16Products{true, false, false, false}));
  Valid none = v;
  none.metadata["int8_bf16"] = "";
  EXPECT_EQ(config_of(none), (Int8Bf16Products{false, false, false, false}));
  Valid two = v;
  two.metadata["int8_bf16"] = "down,out";
  EXPECT_EQ(config_of(two), (Int8Bf16Products{false, true, false, true}));

  EXPECT_EQ(error_with(v, "int8_bf16", "out,mlp"),
            "test.safetensors: int8_bf16 product 'mlp' is not implemented by this engine "
            "(known: qkv, out, gate_up, down)");
  EXPECT_EQ(error_with(v, "int8_bf16", "out,out"), "test.safetensors: int8_bf16 names 'out' twice");

  if (!precision_supported(Precision::Int8) || !precision_supported(Precision::Bf16))
    GTEST_SKIP() << "packing needs int8 and AVX-512 BF16 on this CPU";
  const auto net = Network::load(
      SafetensorsFile::from_memory(write_safetensors(two.tensors, two.metadata), "two"),
      Precision::Int8);
  for (const BlockWeights& block : net->trunk().blocks)
    for (const TrunkProduct product : kTrunkProducts) {
      const bool bf16 = product == TrunkProduct::Out || product == TrunkProduct::Down;
      EXPECT_EQ(bool(block.product(product).packed), bf16);
      EXPECT_EQ(bool(block.product(product).quantized), !bf16);
    }
}

TEST(Weights, RelativePositionTablesComeFromMetadata) {
  const SafetensorsFile file =
      SafetensorsFile::open(avocet::testing::data_path("tiny_house_relative.safetensors"));
  const auto net = Network::load(file);
  EXPECT_EQ(net->config().attention_position, AttentionPosition::Relative);
  EXPECT_EQ(net->trunk().blocks[1].relative_v.rows(), 2 * 225);
  EXPECT_EQ(net->trunk().blocks[1].relative_v.cols(), 8);
  EXPECT_EQ(net->trunk().blocks[1].attention_bias.rows(), 2 * 77);
  EXPECT_NE(net->description().find(" relative_position "), std::string::npos);
  Valid v = contents_of(file);
  Valid missing = v;
  missing.tensors.erase("layers.0.attn.rel_k");
  EXPECT_EQ(load_error(write_safetensors(missing.tensors, missing.metadata)),
            "test.safetensors: tensor 'layers.0.attn.rel_k' is missing");
  Valid expanded = v;  // a table expanded to 64 x 64 pairs is not the compact one
  expanded.tensors["layers.0.attn.rel_q"].shape = {2, 4096, 8};
  expanded.tensors["layers.0.attn.rel_q"].values.resize(2 * 4096 * 8);
  EXPECT_EQ(load_error(write_safetensors(expanded.tensors, expanded.metadata)),
            "test.safetensors: tensor 'layers.0.attn.rel_q' has shape [2, 4096, 8], expected "
            "[2, 225, 8]");
}

TEST(Weights, TruncatedAtEveryLengthIsAnError) {
  const auto bytes = read_bytes(avocet::testing::data_path("tiny_house_mirror_bf16.safetensors"));
  ASSERT_GT(bytes.size(), 1000u);
  for (size_t length = 0; length < bytes.size(); ++length) {
    const std::vector<std::byte> cut(bytes.begin(), bytes.begin() + length);
    const std::string error = load_error(cut);
    ASSERT_NE(error, "loaded") << length;
    ASSERT_EQ(error.rfind("test.safetensors: ", 0), 0u) << error;
  }
}

TEST(Weights, MissingFileIsAnError) {
  EXPECT_THROW(Network::load_file("/nonexistent/net.safetensors"), WeightsError);
  EXPECT_THROW(Network::load_file(AVOCET_TEST_DATA_DIR), WeightsError);  // a directory
}

struct Corruption {
  const char* name;
  std::function<void(Valid&)> apply;
  const char* expected;
};

TEST(Weights, CorruptionsGiveSpecificErrors) {
  const std::vector<Corruption> cases = {
      {"missing tensor", [](Valid& v) { v.tensors.erase("layers.1.mlp.w3.weight"); },
       "test.safetensors: tensor 'layers.1.mlp.w3.weight' is missing"},
      {"extra tensor",
       [](Valid& v) {
         v.tensors["layers.2.ln1.weight"] = {{32}, std::vector<float>(32)};
       },
       "test.safetensors: unexpected tensor 'layers.2.ln1.weight' for a house network"},
      {"wrong shape",
       [](Valid& v) {
         v.tensors["layers.0.attn.q.weight"].shape = {16, 64};
       },
       "test.safetensors: tensor 'layers.0.attn.q.weight' has shape [16, 64], expected [32, 32]"},
      {"wrong dtype", [](Valid& v) { v.tensors["ln_f.bias"].dtype = "I32"; },
       "test.safetensors: tensor 'ln_f.bias': dtype I32 is not supported (F32 or BF16)"},
      {"size mismatch", [](Valid& v) { v.tensors["ln_f.bias"].shape = {33}; },
       "test.safetensors: tensor 'ln_f.bias': data_offsets span 128 bytes but shape [33] of F32 "
       "needs 132"},
      {"unknown family", [](Valid& v) { v.metadata["family"] = "giraffe"; },
       "test.safetensors: family 'giraffe' is not implemented (expected 'house' or 'searchless')"},
      {"missing metadata", [](Valid& v) { v.metadata.erase("d_model"); },
       "test.safetensors: metadata 'd_model' is missing"},
      {"bad number", [](Valid& v) { v.metadata["layers"] = "two"; },
       "test.safetensors: metadata 'layers' must be a positive integer, got 'two'"},
      // One-character values as std::string: gcc 12 otherwise warns -Wrestrict inside the
      // inlined std::string::_M_replace (a false positive, GCC bug 105651).
      {"heads do not divide", [](Valid& v) { v.metadata["heads"] = std::string("5"); },
       "test.safetensors: d_model 32 is not a multiple of heads 5"},
      {"future version", [](Valid& v) { v.metadata["format_version"] = std::string("9"); },
       "test.safetensors: format_version '9' is not supported (expected 1)"},
      {"bad mirror", [](Valid& v) { v.metadata["mirror"] = "yes"; },
       "test.safetensors: metadata 'mirror' must be 'true' or 'false', got 'yes'"},
      {"NaN weight",
       [](Valid& v) { v.tensors["layers.0.attn.k.weight"].values[7] = std::nanf(""); },
       "test.safetensors: tensor 'layers.0.attn.k.weight' holds a non-finite value at index 7"},
      {"infinite weight", [](Valid& v) { v.tensors["head.out.bias"].values[0] = INFINITY; },
       "test.safetensors: tensor 'head.out.bias' holds a non-finite value at index 0"},
  };
  for (const Corruption& c : cases) {
    Valid v = valid_house();
    c.apply(v);
    EXPECT_EQ(load_error(write_safetensors(v.tensors, v.metadata)), c.expected) << c.name;
  }
}

TEST(Weights, HeaderCorruptions) {
  const Valid v = valid_house();
  const std::vector<std::byte> good = write_safetensors(v.tensors, v.metadata);
  auto with_header = [&](const std::string& header) {
    std::vector<std::byte> file(8 + header.size());
    for (int i = 0; i < 8; ++i) file[i] = std::byte((uint64_t(header.size()) >> (8 * i)) & 0xFF);
    std::memcpy(file.data() + 8, header.data(), header.size());
    return file;
  };
  EXPECT_EQ(load_error(with_header("{\"a\": [1, 2"))
                .rfind("test.safetensors: header is not valid JSON", 0),
            0u);
  EXPECT_EQ(load_error(with_header("[1, 2]")), "test.safetensors: header is not a JSON object");
  EXPECT_EQ(load_error(with_header(R"({"__metadata__": {"x": 1}})")),
            "test.safetensors: metadata 'x' is not a string");
  EXPECT_EQ(
      load_error(with_header(R"({"t": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})")),
      "test.safetensors: tensor 't': data_offsets [0, 8] fall outside the 0 data bytes");
  EXPECT_EQ(
      load_error(with_header(R"({"t": {"dtype": "F32", "shape": [-2], "data_offsets": [0, 0]}})")),
      "test.safetensors: tensor 't': shape has a dimension that is not a size");
  EXPECT_EQ(load_error(with_header(R"({"t": {"dtype": "F32", "shape": [2]}})")),
            "test.safetensors: tensor 't': data_offsets must be [begin, end]");
  std::vector<std::byte> huge = good;
  huge[7] = std::byte(0x7F);
  EXPECT_EQ(load_error(huge).rfind("test.safetensors: header length", 0), 0u);

  // Two tensors sharing bytes.
  std::vector<std::byte> overlap =
      with_header(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},)"
                  R"( "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}})");
  overlap.resize(overlap.size() + 12);
  EXPECT_EQ(load_error(overlap), "test.safetensors: tensor 'b': data overlaps tensor 'a'");

  // Flipping any byte of the JSON header never crashes: an error or (rarely) a valid file.
  const uint64_t header_size = uint64_t(good[0]) | uint64_t(good[1]) << 8;
  for (size_t i = 8; i < 8 + header_size; ++i) {
    std::vector<std::byte> flipped = good;
    flipped[i] ^= std::byte(0x5A);
    load_error(flipped);
  }
}

}  // namespace
}  // namespace avocet::nn
