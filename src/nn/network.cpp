#include "avocet/nn/network.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <random>
#include <set>
#include <span>
#include <string_view>

#include "avocet/chess/tactical_features.h"
#include "avocet/nn/action_table.h"
#include "avocet/nn/attention.h"
#include "avocet/nn/tokenizer.h"

namespace avocet::nn {

namespace {

constexpr int kFormatVersion = 1;

int parse_positive(const SafetensorsFile& file, const std::string& key) {
  const std::string& text = file.meta(key);
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value <= 0 || value > 1 << 20)
    throw WeightsError(fmt::format("{}: metadata '{}' must be a positive integer, got '{}'",
                                   file.label(), key, text));
  return value;
}

Matrix to_matrix(const std::vector<float>& values, int rows, int cols) {
  return Eigen::Map<const Matrix>(values.data(), rows, cols);
}

Vector to_vector(const std::vector<float>& values) {
  return Eigen::Map<const Vector>(values.data(), Eigen::Index(values.size()));
}

// The names that metadata `key` lists (comma-separated; absent or empty: none), as indices
// into `known`; a name this build does not know, or one named twice, is refused. `what` names
// the kind of thing listed, for the message.
std::vector<int> read_names(const SafetensorsFile& file, const std::string& key,
                            std::span<const std::string_view> known, std::string_view what) {
  std::vector<int> indices;
  const auto entry = file.metadata().find(key);
  if (entry == file.metadata().end()) return indices;
  std::string_view rest = entry->second;
  while (!rest.empty()) {
    const std::string_view name = rest.substr(0, rest.find(','));
    rest.remove_prefix(std::min(rest.size(), name.size() + 1));
    const auto found = std::find(known.begin(), known.end(), name);
    if (found == known.end())
      throw WeightsError(fmt::format("{}: {} {} '{}' is not implemented by this engine (known: {})",
                                     file.label(), key, what, name, fmt::join(known, ", ")));
    const int index = int(found - known.begin());
    if (std::find(indices.begin(), indices.end(), index) != indices.end())
      throw WeightsError(fmt::format("{}: {} names '{}' twice", file.label(), key, name));
    indices.push_back(index);
  }
  return indices;
}

// The feature groups named by metadata `key`, as indices into `known`.
std::vector<int> read_groups(const SafetensorsFile& file, const std::string& key,
                             std::span<const FeatureGroup> known) {
  std::vector<std::string_view> names;
  for (const FeatureGroup& g : known) names.push_back(g.name);
  return read_names(file, key, names, "group");
}

// Metadata "int8_bf16": the products int8 runs in bf16 (nn/transformer.h); absent: the default.
Int8Bf16Products read_int8_bf16(const SafetensorsFile& file) {
  if (!file.metadata().contains("int8_bf16")) return kDefaultInt8Bf16;
  Int8Bf16Products products{};
  for (const int index : read_names(file, "int8_bf16", kTrunkProductNames, "product"))
    products[size_t(index)] = true;
  return products;
}

NetworkConfig read_config(const SafetensorsFile& file) {
  const std::string& version = file.meta("format_version");
  if (version != std::to_string(kFormatVersion))
    throw WeightsError(fmt::format("{}: format_version '{}' is not supported (expected {})",
                                   file.label(), version, kFormatVersion));
  NetworkConfig c;
  const std::string& family = file.meta("family");
  if (family == "house")
    c.family = Family::House;
  else if (family == "searchless")
    c.family = Family::Searchless;
  else
    throw WeightsError(
        fmt::format("{}: family '{}' is not implemented (expected 'house' or 'searchless')",
                    file.label(), family));
  c.d_model = parse_positive(file, "d_model");
  c.layers = parse_positive(file, "layers");
  c.heads = parse_positive(file, "heads");
  c.ffn_dim = parse_positive(file, "ffn_dim");
  c.bins = parse_positive(file, "bins");
  if (c.d_model % c.heads != 0)
    throw WeightsError(fmt::format("{}: d_model {} is not a multiple of heads {}", file.label(),
                                   c.d_model, c.heads));
  if (c.family == Family::House) {
    c.head_dim = parse_positive(file, "head_dim");
    const std::string& mirror = file.meta("mirror");
    if (mirror != "true" && mirror != "false")
      throw WeightsError(fmt::format("{}: metadata 'mirror' must be 'true' or 'false', got '{}'",
                                     file.label(), mirror));
    c.mirror = mirror == "true";
  }
  if (const auto position = file.metadata().find("attention_position");
      position != file.metadata().end()) {
    if (c.family != Family::House)
      throw WeightsError(fmt::format(
          "{}: attention_position is implemented for the house family only", file.label()));
    if (position->second == "bias")
      c.attention_position = AttentionPosition::Bias;
    else if (position->second == "relative")
      c.attention_position = AttentionPosition::Relative;
    else
      throw WeightsError(fmt::format(
          "{}: attention_position '{}' is not implemented by this engine (known: bias, relative)",
          file.label(), position->second));
  }
  c.square_groups = read_groups(file, "square_features", kSquareFeatureGroups);
  c.move_groups = read_groups(file, "move_features", kMoveFeatureGroups);
  c.int8_bf16 = read_int8_bf16(file);
  if (c.family == Family::Searchless && (!c.square_groups.empty() || !c.move_groups.empty()))
    throw WeightsError(
        fmt::format("{}: feature groups are implemented for the house family only", file.label()));
  const auto name = file.metadata().find("name");
  c.name = name != file.metadata().end() ? name->second : "unnamed";
  return c;
}

uint64_t fnv1a(const SafetensorsFile& file) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  auto mix = [&](std::span<const std::byte> bytes) {
    for (std::byte b : bytes) hash = (hash ^ uint64_t(b)) * 0x100000001b3ULL;
  };
  for (const auto& [name, info] : file.tensors()) {
    mix(std::as_bytes(std::span(name)));
    mix(info.bytes);
  }
  return hash;
}

}  // namespace

int NetworkConfig::vocabulary() const {
  return family == Family::Searchless ? kActionCount : kAlphabetSize;
}

int NetworkConfig::sequence_length() const {
  return family == Family::Searchless ? kFenTokens + 2 : kFenTokens;
}

namespace {

// Builds the weights from `read(name, shape)`, which checks each tensor exists as expected.
// This is the one place that names the tensors of each family and their shapes.
template <class Read>
void fill_weights(const NetworkConfig& c, Read read, TrunkWeights& trunk, HouseHead& house,
                  std::vector<Matrix>& square_features, SearchlessHead& searchless) {
  const int d = c.d_model, f = c.ffn_dim;
  auto matrix = [&](const std::string& name, int rows, int cols) {
    return to_matrix(read(name, std::vector<int64_t>{rows, cols}), rows, cols);
  };
  auto vector = [&](const std::string& name, int size) {
    return to_vector(read(name, std::vector<int64_t>{size}));
  };
  trunk.d_model = d;
  trunk.heads = c.heads;
  trunk.ffn_dim = f;
  trunk.sequence_length = c.sequence_length();
  trunk.embedding = matrix("embed.weight", c.vocabulary(), d);
  trunk.positions = matrix("pos_embed.weight", c.sequence_length(), d);
  for (int i = 0; i < c.layers; ++i) {
    const std::string p = fmt::format("layers.{}.", i);
    BlockWeights b;
    b.attention_norm = {vector(p + "ln1.weight", d), vector(p + "ln1.bias", d)};
    // Each tensor is read before the stacking starts: a read that throws inside Eigen's comma
    // initializer unwinds through its destructor, which asserts it was given every row.
    const Matrix q = matrix(p + "attn.q.weight", d, d), k = matrix(p + "attn.k.weight", d, d),
                 v = matrix(p + "attn.v.weight", d, d);
    b.qkv.weight.resize(3 * d, d);
    b.qkv.weight << q, k, v;
    b.out.weight = matrix(p + "attn.o.weight", d, d);
    b.mlp_norm = {vector(p + "ln2.weight", d), vector(p + "ln2.bias", d)};
    const Matrix gate = matrix(p + "mlp.w1.weight", f, d), up = matrix(p + "mlp.w2.weight", f, d);
    b.gate_up.weight.resize(2 * f, d);
    b.gate_up.weight << gate, up;
    b.down.weight = matrix(p + "mlp.w3.weight", d, f);
    if (c.attention_position != AttentionPosition::Absolute) {
      const int t = c.sequence_length();
      b.attention_bias =
          to_matrix(read(p + "attn.bias", std::vector<int64_t>{c.heads, t, t}), c.heads * t, t);
    }
    if (c.attention_position == AttentionPosition::Relative) {
      const int head_size = d / c.heads;
      auto table = [&](const char* name) {
        return to_matrix(
            read(p + "attn." + name, std::vector<int64_t>{c.heads, kRelativeOffsets, head_size}),
            c.heads * kRelativeOffsets, head_size);
      };
      b.relative_q = table("rel_q");
      b.relative_k = table("rel_k");
      b.relative_v = table("rel_v");
    }
    trunk.blocks.push_back(std::move(b));
  }
  trunk.final_norm = {vector("ln_f.weight", d), vector("ln_f.bias", d)};
  if (c.family == Family::Searchless) {
    searchless = {matrix("head.weight", c.bins, d), vector("head.bias", c.bins)};
  } else {
    const int h = c.head_dim;
    house = {matrix("head.from_square.weight", h, d),
             matrix("head.to_square.weight", h, d),
             matrix("head.promotion.weight", 5, h),
             vector("head.bias", h),
             matrix("head.out.weight", c.bins, h),
             vector("head.out.bias", c.bins),
             {}};
    for (int g : c.square_groups) {
      const FeatureGroup& group = kSquareFeatureGroups[size_t(g)];
      square_features.push_back(
          matrix(fmt::format("square_features.{}.weight", group.name), group.values, d));
    }
    for (int g : c.move_groups) {
      const FeatureGroup& group = kMoveFeatureGroups[size_t(g)];
      house.move_features.push_back(
          matrix(fmt::format("head.move_features.{}.weight", group.name), group.values, h));
    }
  }
}

// Every tensor a network of `config` has, with its exact shape.
std::set<std::string> expected_tensor_names(const NetworkConfig& c) {
  std::set<std::string> names;
  TrunkWeights trunk;
  HouseHead house;
  std::vector<Matrix> square_features;
  SearchlessHead searchless;
  fill_weights(
      c,
      [&](const std::string& name, const std::vector<int64_t>& shape) {
        names.insert(name);
        int64_t count = 1;
        for (int64_t dim : shape) count *= dim;
        return std::vector<float>(size_t(count));
      },
      trunk, house, square_features, searchless);
  return names;
}

// The trunk's precision, as a WeightsError naming `label` where the CPU cannot run it.
void set_precision(TrunkWeights& trunk, Precision precision, const std::string& label) {
  try {
    trunk.set_precision(precision);
  } catch (const std::runtime_error& e) {
    throw WeightsError(fmt::format("{}: {}", label, e.what()));
  }
}

}  // namespace

std::shared_ptr<const Network> Network::load(const SafetensorsFile& file, Precision precision) {
  auto net = std::make_shared<Network>();
  net->config_ = read_config(file);
  const NetworkConfig& c = net->config_;

  // Exactly the expected tensors: none missing (read() names it), none extra.
  const std::set<std::string> expected = expected_tensor_names(c);
  for (const auto& [name, info] : file.tensors())
    if (!expected.contains(name))
      throw WeightsError(fmt::format("{}: unexpected tensor '{}' for a {} network", file.label(),
                                     name, file.meta("family")));
  fill_weights(
      c,
      [&](const std::string& name, const std::vector<int64_t>& shape) {
        std::vector<float> values = file.read(name, shape);
        // A NaN or infinity would silently turn every evaluation into NaN.
        const auto bad =
            std::find_if(values.begin(), values.end(), [](float v) { return !std::isfinite(v); });
        if (bad != values.end())
          throw WeightsError(fmt::format("{}: tensor '{}' holds a non-finite value at index {}",
                                         file.label(), name, bad - values.begin()));
        return values;
      },
      net->trunk_, net->house_, net->square_features_, net->searchless_);
  net->hash_ = fnv1a(file);
  net->trunk_.int8_bf16 = c.int8_bf16;
  set_precision(net->trunk_, precision, file.label());
  return net;
}

std::shared_ptr<const Network> Network::random(const NetworkConfig& config, uint64_t seed,
                                               Precision precision) {
  auto net = std::make_shared<Network>();
  net->config_ = config;
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal;
  fill_weights(
      config,
      [&](const std::string& name, const std::vector<int64_t>& shape) {
        int64_t count = 1;
        for (int64_t dim : shape) count *= dim;
        const bool norm_scale = name.find("ln") != std::string::npos && name.ends_with(".weight");
        const float scale = shape.size() == 2 ? 1.0f / std::sqrt(float(shape[1])) : 0.1f;
        std::vector<float> values(static_cast<size_t>(count));
        for (float& v : values) v = norm_scale ? 1.0f : normal(rng) * scale;
        return values;
      },
      net->trunk_, net->house_, net->square_features_, net->searchless_);
  net->hash_ = seed;
  net->trunk_.int8_bf16 = config.int8_bf16;
  set_precision(net->trunk_, precision, config.name);
  return net;
}

double Network::flops(int moves) const {
  const NetworkConfig& c = config_;
  const double d = c.d_model, f = c.ffn_dim, t = c.sequence_length();
  const double bias = c.attention_position != AttentionPosition::Absolute ? t * t * c.heads : 0;
  // Relative: q . A and k . B against all 225 offsets, and the offset weights times C.
  const double relative =
      c.attention_position == AttentionPosition::Relative ? 3 * 2 * 64 * kRelativeOffsets * d : 0;
  const double per_layer = 2 * t * d * 3 * d + 2 * 2 * t * t * d + bias + relative + 2 * t * d * d +
                           2 * t * d * 2 * f + 2 * t * f * d;
  const double trunk = c.layers * per_layer;
  if (c.family == Family::Searchless) return moves * (trunk + 2 * d * c.bins);
  return trunk + 2 * 2 * 64 * d * c.head_dim + moves * 2.0 * c.head_dim * c.bins;
}

std::shared_ptr<const Network> Network::load_file(const std::string& path, Precision precision) {
  return load(SafetensorsFile::open(path), precision);
}

std::string Network::description() const {
  const NetworkConfig& c = config_;
  std::string features;
  if (!c.square_groups.empty() || !c.move_groups.empty())
    features = fmt::format(" features {}+{}", c.square_groups.size(), c.move_groups.size());
  const char* position = c.attention_position == AttentionPosition::Bias ? " attention_bias"
                         : c.attention_position == AttentionPosition::Relative
                             ? " relative_position"
                             : "";
  return fmt::format("{} ({} d={} L={} heads={} ffn={} bins={}{}{}{} {}) hash {:016x}", c.name,
                     c.family == Family::House ? "house" : "searchless", c.d_model, c.layers,
                     c.heads, c.ffn_dim, c.bins, c.mirror ? " mirror" : "", position, features,
                     precision_name(precision()), hash_);
}

}  // namespace avocet::nn
