// `avocet nnbench`: network speed. For each network and precision it measures positions per
// second (every legal move of a position scored) with one and two threads, the achieved
// GFLOP/s, and, as the baseline measured in the same run, the GFLOP/s of the trunk's matrix
// products alone in that precision: the forward pass's efficiency is the ratio of the two.
// It then prints the ratio of every two precisions measured (bf16 / fp32, int8 / fp32, int8 /
// bf16) per net and thread count.
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "avocet/chess/movegen.h"
#include "avocet/chess/tactical_features.h"
#include "avocet/cli/progress.h"
#include "avocet/nn/evaluator.h"
#include "avocet/nn/kernels/int8_gemm.h"
#include "avocet/nn/network.h"
#include "commands.h"

namespace avocet::cli {

namespace {

using Clock = std::chrono::steady_clock;

// Positions from the opening to the endgame; the bench cycles through them.
constexpr const char* kBenchFens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1Q2N2/2RN1PPP/2R4K b - b3 0 23",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 40",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 15",
};

struct Sample {
  Position pos;
  MoveList moves;
};

std::vector<Sample> bench_samples() {
  std::vector<Sample> samples;
  for (const char* fen : kBenchFens) {
    const Position pos = Position::from_fen(fen);
    samples.push_back({pos, legal_moves(pos)});
  }
  return samples;
}

struct Rate {
  double positions_per_second;
  double gflops;
};

// Evaluates samples round-robin on `threads` threads (one evaluator each, each evaluation on
// `split` threads: nn/helper_thread.h), `batch` positions a call (Evaluator::evaluate_batch;
// 1: evaluate), for `seconds`.
Rate measure(const std::shared_ptr<const nn::Network>& net, const std::vector<Sample>& samples,
             int threads, int split, double seconds, int batch = 1) {
  std::atomic<long> positions{0};
  std::atomic<double> flops{0};
  std::vector<std::thread> workers;
  const auto start = Clock::now();
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      const auto evaluator = nn::make_evaluator(net);
      evaluator->set_threads(split);
      std::vector<float> win(MoveList::kCapacity * size_t(batch));
      std::vector<nn::BatchItem> items(static_cast<size_t>(batch));
      long done = 0;
      double work = 0;
      for (size_t i = size_t(t) * size_t(batch);
           done < 3 * batch || Clock::now() - start < std::chrono::duration<double>(seconds);) {
        for (size_t b = 0; b < size_t(batch); ++b, ++i) {
          const Sample& s = samples[i % samples.size()];
          items[b] = {&s.pos,
                      {s.moves.begin(), s.moves.size()},
                      {win.data() + b * MoveList::kCapacity, s.moves.size()}};
          work += net->flops(int(s.moves.size()));
        }
        if (batch == 1)
          evaluator->evaluate(*items[0].position, items[0].moves, items[0].win_probability);
        else
          evaluator->evaluate_batch(items);
        done += batch;
      }
      positions += done;
      double expected = flops.load();
      while (!flops.compare_exchange_weak(expected, expected + work)) {
      }
    });
  }
  for (auto& w : workers) w.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  return {double(positions) / elapsed, flops / elapsed / 1e9};
}

// Milliseconds per position to compute the tactical features alone (every square, every
// legal move), as a featured house net does before its trunk runs.
double feature_ms(const std::vector<Sample>& samples, double seconds) {
  long done = 0;
  std::vector<MoveFeatures> features(MoveList::kCapacity);
  unsigned sink = 0;
  const auto start = Clock::now();
  for (size_t i = 0; done < 3 || Clock::now() - start < std::chrono::duration<double>(seconds);
       ++i, ++done) {
    const Sample& s = samples[i % samples.size()];
    sink += square_features(s.pos)[0][0];
    move_features(s.pos, {s.moves.begin(), s.moves.size()}, {features.data(), s.moves.size()});
    sink += features[0][0];
  }
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  return 1000.0 * elapsed / double(done) + 0.0 * sink;
}

// GFLOP/s of the trunk's matrix products alone for its shapes on `sequences` sequences (their
// rows in one product), in the net's precision, with `threads` threads each running its own
// products.
double gemm_gflops(const nn::Network& net, int threads, double seconds, int sequences = 1) {
  const nn::TrunkWeights& w = net.trunk();
  const int t = w.sequence_length * sequences, d = w.d_model, f = w.ffn_dim;
  const double flops_per_pass = double(w.blocks.size()) * (2.0 * t * d * 3 * d + 2.0 * t * d * d +
                                                           2.0 * t * d * 2 * f + 2.0 * t * f * d);
  std::atomic<long> passes{0};
  std::vector<std::thread> workers;
  const auto start = Clock::now();
  for (int i = 0; i < threads; ++i) {
    workers.emplace_back([&] {
      nn::Matrix x = nn::Matrix::Random(t, d), qkv(t, 3 * d), hidden = nn::Matrix::Random(t, 2 * f),
                 out(t, d), up(t, 2 * f);
      long done = 0;
      while (done < 3 || Clock::now() - start < std::chrono::duration<double>(seconds)) {
        for (const nn::BlockWeights& b : w.blocks) {
          nn::apply(b.qkv, x, qkv, false);
          nn::apply(b.out, x, out, false);
          nn::apply(b.gate_up, x, up, false);
          nn::apply(b.down, hidden.leftCols(f), out, true);
        }
        ++done;
      }
      passes += done;
    });
  }
  for (auto& worker : workers) worker.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  return double(passes) * flops_per_pass / elapsed / 1e9;
}

nn::NetworkConfig config(nn::Family family, int d, int layers, bool features = false,
                         nn::AttentionPosition position = nn::AttentionPosition::Absolute) {
  nn::NetworkConfig c;
  c.family = family;
  c.d_model = d;
  c.layers = layers;
  c.heads = d / 32;
  c.ffn_dim = 4 * d;
  c.bins = 128;
  c.head_dim = d;
  c.name =
      fmt::format("{}-d{}-L{}", family == nn::Family::House ? "house" : "searchless", d, layers);
  if (features) {  // every feature group of chess/tactical_features.h
    for (int g = 0; g < kSquareFeatureCount; ++g) c.square_groups.push_back(g);
    for (int g = 0; g < kMoveFeatureCount; ++g) c.move_groups.push_back(g);
    c.name += "-features";
  }
  c.attention_position = position;
  if (position == nn::AttentionPosition::Bias) c.name += "-bias";
  if (position == nn::AttentionPosition::Relative) c.name += "-relative";
  return c;
}

// The precisions --Precision names ("all": every one this CPU runs, fp32 first), each
// checked as the Precision option checks it.
std::vector<nn::Precision> precisions_option(const cxxopts::ParseResult& parsed) {
  const engine::OptionSpec& option = engine::option(engine::option_name::kPrecision);
  std::vector<nn::Precision> precisions;
  for (const std::string& name : parsed[std::string(option.name)].as<std::vector<std::string>>()) {
    if (name == "all") {
      for (nn::Precision p : {nn::Precision::Fp32, nn::Precision::Bf16, nn::Precision::Int8})
        if (nn::precision_supported(p) &&
            std::find(precisions.begin(), precisions.end(), p) == precisions.end())
          precisions.push_back(p);
      continue;
    }
    if (std::find(option.vars.begin(), option.vars.end(), name) == option.vars.end())
      throw std::invalid_argument(fmt::format("--{} must be all or one of {}, got '{}'",
                                              option.name, fmt::join(option.vars, ", "), name));
    engine::Settings checked;
    try {
      checked = engine::checked_settings(option, name);
    } catch (const std::exception& e) {
      throw std::invalid_argument(fmt::format("--{} {}: {}", option.name, name, e.what()));
    }
    const nn::Precision p = nn::resolve(checked.precision);
    if (std::find(precisions.begin(), precisions.end(), p) == precisions.end())
      precisions.push_back(p);
  }
  return precisions;
}

// The precision column: int8 names its kernel, the wide AVX2 one as int8-avx2-i16 (16-bit
// integers, nn/kernels/int8_gemm.h), and the products the net runs wider instead (metadata
// int8_bf16, nn/transformer.h), as int8-vnni+bf16-qkv, or int8-vnni+fp32-qkv where the CPU has no
// bf16.
std::string precision_label(const nn::Network& net) {
  if (net.precision() != nn::Precision::Int8)
    return std::string(nn::precision_name(net.precision()));
  std::string kernel = "none", wider;
  for (const nn::TrunkProduct product : nn::kTrunkProducts) {
    const nn::Linear& layer = net.trunk().blocks.front().product(product);
    if (layer.quantized)
      kernel = fmt::format("{}{}", nn::int8::kernel_name(layer.quantized->kernel),
                           nn::int8::is_wide(layer.quantized->kernel) ? "-i16" : "");
    if (layer.packed) wider += fmt::format("+bf16-{}", nn::kTrunkProductNames[size_t(product)]);
    if (!layer.packed && !layer.quantized)
      wider += fmt::format("+fp32-{}", nn::kTrunkProductNames[size_t(product)]);
  }
  return fmt::format("int8-{}{}", kernel, wider);
}

// --int8-kernel: the int8 products use the kernel it names, which this CPU must run.
void select_int8_kernel_option(const cxxopts::ParseResult& parsed) {
  if (!parsed.count("int8-kernel")) return;
  const std::string name = parsed["int8-kernel"].as<std::string>();
  const auto kernel = name == "vnni"   ? std::optional(nn::int8::Kernel::Vnni)
                      : name == "avx2" ? std::optional(nn::int8::Kernel::Avx2)
                                       : std::nullopt;
  if (!kernel)
    throw std::invalid_argument(fmt::format("--int8-kernel must be vnni or avx2, got '{}'", name));
  if (!nn::int8::kernel_supported(*kernel))
    throw std::invalid_argument(
        fmt::format("--int8-kernel {}: this CPU does not have its instructions", name));
  nn::int8::select_kernel(*kernel);
}

// Each entry makes its net in a given precision: the same weights, packed differently.
using Maker = std::function<std::shared_ptr<const nn::Network>(nn::Precision)>;

// The entries: the --EvalFile files, else the standard random nets (house nets of four
// shapes, the feature and attention variants of the smallest, and one searchless net), or those
// of them that --nets names.
std::vector<Maker> network_makers(const cxxopts::ParseResult& parsed) {
  std::vector<Maker> makers;
  const std::string files(engine::option_name::kEvalFile);
  if (parsed.count(files) && parsed.count("nets"))
    throw std::invalid_argument("--nets chooses among the standard random nets, not --EvalFile's");
  if (parsed.count(files)) {
    for (const std::string& path : parsed[files].as<std::vector<std::string>>()) {
      nn::Network::load_file(path, nn::Precision::Fp32);  // a bad file stops before any row
      makers.push_back([path](nn::Precision p) { return nn::Network::load_file(path, p); });
    }
    return makers;
  }
  std::vector<nn::NetworkConfig> configs;
  for (const auto& [d, layers] : {std::pair{128, 4}, {128, 8}, {256, 4}, {256, 8}}) {
    configs.push_back(config(nn::Family::House, d, layers));
    if (d == 128 && layers == 4) {
      // The cost of the feature groups against the line above, and of each attention
      // position variant against the featured net (v12's shape).
      configs.push_back(config(nn::Family::House, d, layers, true));
      for (const auto position : {nn::AttentionPosition::Bias, nn::AttentionPosition::Relative})
        configs.push_back(config(nn::Family::House, d, layers, true, position));
    }
  }
  configs.push_back(config(nn::Family::Searchless, 256, 8));
  if (parsed.count("nets")) {
    const auto wanted = parsed["nets"].as<std::vector<std::string>>();
    const auto named = [&](const std::string& name) {
      return std::ranges::any_of(configs,
                                 [&](const nn::NetworkConfig& c) { return c.name == name; });
    };
    for (const std::string& name : wanted)
      if (!named(name)) {
        std::vector<std::string> names;
        for (const nn::NetworkConfig& c : configs) names.push_back(c.name);
        throw std::invalid_argument(fmt::format("--nets: no standard net '{}' (they are: {})", name,
                                                fmt::join(names, ", ")));
      }
    std::erase_if(configs, [&](const nn::NetworkConfig& c) {
      return std::ranges::find(wanted, c.name) == wanted.end();
    });
  }
  for (const nn::NetworkConfig& c : configs)
    makers.push_back([c](nn::Precision p) { return nn::Network::random(c, 1, p); });
  return makers;
}

// What the table measured, for the comparisons printed after it.
struct Measurements {
  // (d, L) -> ms/pos with 1 thread in the first precision measured.
  std::map<std::pair<int, int>, double> house_ms, searchless_ms, featured_ms;
  // (name, threads) -> positions/s per precision, for the precision ratios.
  std::map<std::pair<std::string, int>, std::map<nn::Precision, double>> rates;
  // (name, precision label) -> positions/s of one evaluator by its threads (1 and --split).
  std::map<std::pair<std::string, std::string>, std::map<int, double>> split_rates;
};

// Prints the table: a line on the positions, then one row per net, precision and thread
// count (T: T evaluators side by side; 1xS: one evaluator on S threads), each measured for
// 2 x `seconds`.
Measurements print_table(const std::vector<Maker>& makers,
                         const std::vector<nn::Precision>& precisions,
                         const std::vector<long long>& thread_counts,
                         const std::vector<long long>& splits, const std::vector<Sample>& samples,
                         double seconds, const Streams& io) {
  double moves = 0;
  for (const Sample& s : samples) moves += double(s.moves.size());
  fmt::print(io.out, "{} positions, {:.1f} legal moves on average\n", samples.size(),
             moves / double(samples.size()));
  fmt::print(io.out, "{:<31} {:>18} {:>7} {:>10} {:>9} {:>9} {:>10} {:>6}\n", "network",
             "precision", "threads", "pos/s", "ms/pos", "GFLOP/s", "GEMM GF/s", "eff");
  io.out.flush();  // each entry takes 2 x --seconds: show what is coming at once
  Progress progress(io.err, io.err_is_terminal,
                    makers.size() * precisions.size() * (thread_counts.size() + splits.size()),
                    "entries", 1);
  size_t entries_done = 0;
  Measurements m;
  for (const Maker& make : makers) {
    for (const nn::Precision precision : precisions) {
      const std::shared_ptr<const nn::Network> net = make(precision);
      const nn::NetworkConfig& c = net->config();
      // One row of the table: `threads` is the column's text, `ms` the milliseconds per position.
      const auto print_row = [&](const std::string& threads, const Rate& r, double ms,
                                 double gemm) {
        progress.print_line(
            io.out,
            fmt::format("{:<31} {:>18} {:>7} {:>10.1f} {:>9.3f} {:>9.1f} {:>10.1f} {:>5.0f}%",
                        c.name, precision_label(*net), threads, r.positions_per_second, ms,
                        r.gflops, gemm, 100.0 * r.gflops / gemm));
        progress.update(++entries_done);
      };
      for (const long long split : splits) {
        // One evaluator whose evaluations run on `split` threads; the GEMM baseline is the
        // products on that many threads side by side.
        const double gemm = gemm_gflops(*net, int(split), seconds);
        const Rate r = measure(net, samples, 1, int(split), seconds);
        print_row(fmt::format("1x{}", split), r, 1000.0 / r.positions_per_second, gemm);
        m.split_rates[{c.name, precision_label(*net)}][int(split)] = r.positions_per_second;
      }
      for (const long long thread_count : thread_counts) {
        const int threads = int(thread_count);
        const double gemm = gemm_gflops(*net, threads, seconds);
        const Rate r = measure(net, samples, threads, 1, seconds);
        const double ms = 1000.0 / r.positions_per_second;
        print_row(std::to_string(threads), r, ms * threads, gemm);
        m.rates[{c.name, threads}][net->precision()] = r.positions_per_second;
        if (threads == 1)
          m.split_rates[{c.name, precision_label(*net)}][1] = r.positions_per_second;
        // The shape comparisons are between plain nets: the attention position variants
        // (-bias, -relative) of a featured net have its shape too, and must not stand in for it
        // (the featured net was once compared as its -relative variant, measured after it).
        // The first net of a kind and shape is the one compared.
        const bool featured = !c.square_groups.empty() || !c.move_groups.empty();
        if (threads == 1 && precision == precisions.front() &&
            c.attention_position == nn::AttentionPosition::Absolute)
          (c.family == nn::Family::Searchless ? m.searchless_ms
           : featured                         ? m.featured_ms
                                              : m.house_ms)
              .try_emplace({c.d_model, c.layers}, ms);
      }
    }
  }
  progress.finish();
  return m;
}

// Positions a second by batch size (Evaluator::evaluate_batch) for each net and precision, on
// one thread: the GFLOP/s, the trunk's matrix products alone on that batch's rows in that
// precision (GEMM GF/s, measured here), and the share of the peak, taken as the best GEMM rate
// over the batch sizes: what the kernels reach on products of some width. The net runs its
// head and attention besides, so its share stays below 100%.
void print_batch_table(const std::vector<Maker>& makers,
                       const std::vector<nn::Precision>& precisions,
                       const std::vector<long long>& batches, const std::vector<Sample>& samples,
                       double seconds, const Streams& io) {
  if (batches.empty()) return;
  fmt::print(io.out, "{:<31} {:>18} {:>6} {:>10} {:>9} {:>10} {:>6} {:>9}\n", "network",
             "precision", "batch", "pos/s", "GFLOP/s", "GEMM GF/s", "share", "x batch 1");
  for (const Maker& make : makers)
    for (const nn::Precision precision : precisions) {
      const std::shared_ptr<const nn::Network> net = make(precision);
      std::vector<double> gemm;
      for (const long long batch : batches)
        gemm.push_back(gemm_gflops(*net, 1, seconds, int(batch)));
      const double peak = *std::max_element(gemm.begin(), gemm.end());
      std::optional<double> single;
      for (size_t i = 0; i < batches.size(); ++i) {
        const Rate r = measure(net, samples, 1, 1, seconds, int(batches[i]));
        if (!single) single = r.positions_per_second;
        fmt::print(io.out, "{:<31} {:>18} {:>6} {:>10.1f} {:>9.1f} {:>10.1f} {:>5.0f}% {:>8.2f}x\n",
                   net->config().name, precision_label(*net), batches[i], r.positions_per_second,
                   r.gflops, gemm[i], 100.0 * r.gflops / peak, r.positions_per_second / *single);
        io.out.flush();
      }
    }
  fmt::print(io.out,
             "batch table: one thread; GEMM GF/s = the trunk's matrix products alone on the "
             "batch's rows; share = GFLOP/s / the best GEMM GF/s of the net and precision; "
             "x batch 1 against the first batch size\n");
}

// The ratio of every two precisions measured (bf16 / fp32, int8 / fp32, int8 / bf16) per net
// and thread count.
void print_precision_ratios(const Measurements& m, const Streams& io) {
  constexpr std::pair<nn::Precision, nn::Precision> kRatios[] = {
      {nn::Precision::Bf16, nn::Precision::Fp32},
      {nn::Precision::Int8, nn::Precision::Fp32},
      {nn::Precision::Int8, nn::Precision::Bf16}};
  for (const auto& [faster, slower] : kRatios)
    for (const auto& [entry, by_precision] : m.rates)
      if (by_precision.contains(faster) && by_precision.contains(slower))
        fmt::print(io.out, "{} / {} positions/s for {} with {} thread{}: {:.2f}x\n",
                   nn::precision_name(faster), nn::precision_name(slower), entry.first,
                   entry.second, entry.second == 1 ? "" : "s",
                   by_precision.at(faster) / by_precision.at(slower));
}

// One position on S threads against one thread, per net and precision: what Threads S buys a
// search in nodes per second (nn/helper_thread.h).
void print_split_ratios(const Measurements& m, const Streams& io) {
  for (const auto& [entry, by_threads] : m.split_rates)
    if (by_threads.contains(1))
      for (const auto& [threads, rate] : by_threads)
        if (threads > 1)
          fmt::print(io.out, "one position on {} threads / on 1, {} {}: {:.2f}x\n", threads,
                     entry.first, entry.second, rate / by_threads.at(1));
}

// Against the plain house net of the same shape: the searchless net's cost, and the featured
// net's with the features computed alone (measured here, for `seconds`).
void print_shape_comparisons(const Measurements& m, const std::vector<Sample>& samples,
                             double seconds, const Streams& io) {
  const auto& house_ms = m.house_ms;
  for (const auto& [shape, ms] : m.searchless_ms)
    if (house_ms.contains(shape))
      fmt::print(io.out,
                 "house / searchless cost per position at d={} L={}: {:.4f} ({:.0f}x cheaper)\n",
                 shape.first, shape.second, house_ms.at(shape) / ms, ms / house_ms.at(shape));
  if (m.featured_ms.empty()) return;
  const double alone = feature_ms(samples, seconds);
  for (const auto& [shape, ms] : m.featured_ms)
    if (house_ms.contains(shape))
      fmt::print(io.out,
                 "feature groups at d={} L={}: featured net {:.3f} ms/pos against {:.3f} ms "
                 "({:+.1f}%); the features alone take {:.3f} ms/pos ({:+.1f}% of the plain "
                 "net's evaluation)\n",
                 shape.first, shape.second, ms, house_ms.at(shape),
                 100.0 * (ms / house_ms.at(shape) - 1), alone, 100.0 * alone / house_ms.at(shape));
}

}  // namespace

int nnbench_command(const Args& args, const Streams& io) {
  cxxopts::Options options("avocet nnbench",
                           "Network speed: positions/s (all legal moves scored), GFLOP/s, and "
                           "efficiency against the matrix product rate for the same shapes, "
                           "in each precision.");
  auto add = options.add_options();
  add(std::string(engine::option_name::kEvalFile),
      "benchmark these network files instead of the standard random ones",
      cxxopts::value<std::vector<std::string>>(), "FILE,...");
  add("nets", "benchmark only these of the standard random nets (default: all of them)",
      cxxopts::value<std::vector<std::string>>(), "NAME,...");
  add("seconds", "measuring time per entry", cxxopts::value<double>()->default_value("2"), "S");
  add("threads", "thread counts to measure, one evaluator per thread",
      cxxopts::value<std::vector<long long>>()->default_value("1,2"), "T,...");
  add("split",
      "also measure one evaluator whose evaluations each run on 2 threads, as with Threads 2 "
      "(1: do not)",
      cxxopts::value<long long>()->default_value("2"), "S");
  const engine::OptionSpec& precision = engine::option(engine::option_name::kPrecision);
  add(std::string(precision.name),
      fmt::format("precisions to measure: all (those this CPU runs), {}",
                  fmt::join(precision.vars, ", ")),
      cxxopts::value<std::vector<std::string>>()->default_value("all"),
      fmt::format("all|{},...", accepted_values(precision)));
  add("int8-kernel",
      "the int8 kernel: vnni (AVX-512 VNNI) or avx2; default: the fastest this CPU runs",
      cxxopts::value<std::string>(), "K");
  add("batches",
      "batch sizes for the batch table (positions per evaluation, one thread); 0: no table",
      cxxopts::value<std::vector<long long>>()->default_value("1,2,4,8,16,32"), "B,...");
  add("positions", "print the benchmark positions' FENs and exit");
  add("h,help", "print this help");
  const auto parsed = parse_args(options, args);
  if (help_requested(parsed, options, io)) return 0;
  if (parsed.count("positions")) {
    for (const char* fen : kBenchFens) fmt::print(io.out, "{}\n", fen);
    return 0;
  }
  const double seconds = positive_number_option(parsed, "seconds");
  const std::vector<long long> thread_counts = parsed["threads"].as<std::vector<long long>>();
  for (const long long threads : thread_counts) check_range("threads", threads, 1, 256);
  const long long split = parsed["split"].as<long long>();
  check_range("split", split, 1, 2);
  const std::vector<long long> splits =
      split == 1 ? std::vector<long long>{} : std::vector<long long>{split};
  std::vector<long long> batches = parsed["batches"].as<std::vector<long long>>();
  if (batches == std::vector<long long>{0}) batches.clear();
  for (const long long batch : batches) check_range("batches", batch, 1, 256);
  select_int8_kernel_option(parsed);
  const std::vector<nn::Precision> precisions = precisions_option(parsed);
  const std::vector<Maker> makers = network_makers(parsed);

  const std::vector<Sample> samples = bench_samples();
  const Measurements m =
      print_table(makers, precisions, thread_counts, splits, samples, seconds, io);
  print_precision_ratios(m, io);
  print_split_ratios(m, io);
  print_shape_comparisons(m, samples, seconds, io);
  fmt::print(io.out,
             "GEMM GF/s: the trunk's matrix products alone, for the same shapes, precision and "
             "thread count, measured in this run (fp32: Eigen's own product); eff = GFLOP/s / "
             "GEMM GF/s\n");
  print_batch_table(makers, precisions, batches, samples, seconds, io);
  return 0;
}

}  // namespace avocet::cli
