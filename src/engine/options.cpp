#include "avocet/engine/options.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "avocet/nn/network.h"

namespace avocet::engine {

namespace {

using T = OptionType;

std::string lower(std::string_view text) {
  std::string s(text);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string check_text(bool value) { return value ? "true" : "false"; }

// The effects an option can have on the engine.
void configure(Engine& engine, const Settings& next) { engine.configure(next); }
void load_network(Engine& engine, const Settings& next) {
  engine.load_network(next.eval_file, next.precision);
}
void open_tablebases(Engine& engine, const Settings& next) {
  engine.open_tablebases(next.syzygy_path);
}
void clear_hash(Engine& engine, const Settings&) { engine.clear_hash(); }

// What can be known of an effect before applying it (OptionSpec::check).
void check_network_file(const Settings& next) {
  if (next.eval_file != kEmbeddedNet) nn::Network::load_file(next.eval_file);
}
void check_precision(const Settings& next) {
  if (!nn::precision_supported(next.precision))
    throw std::invalid_argument(std::string(nn::unsupported_reason(next.precision)));
}
void check_tablebases(const Settings& next) {
  if (next.syzygy_path != kNoTablebases) open_readable_tablebases(next.syzygy_path);
}

// Builders for the kinds of option, each bound to the field of Settings it reads and writes.

// An integer of EngineOptions.
OptionSpec engine_spin(std::string_view name, int min, int max, int EngineOptions::*field,
                       std::string_view help) {
  return {.name = name,
          .type = T::Spin,
          .min = min,
          .max = max,
          .help = help,
          .apply = configure,
          .read = [field](const Settings& s) { return std::to_string(s.engine.*field); },
          .write = [field](Settings& s, const OptionValue& v) { s.engine.*field = v.number; }};
}

// A fraction of SearchParameters, as a spin in 1/per_unit (UCI has no real type): the
// temperature 0.06 is PolicyTemperature 60 in thousandths.
OptionSpec parameter_spin(std::string_view name, int max, double search::SearchParameters::*field,
                          int per_unit, std::string_view help, int min = 1) {
  return {.name = name,
          .type = T::Spin,
          .min = min,
          .max = max,
          .help = help,
          .apply = configure,
          .read =
              [field, per_unit](const Settings& s) {
                return std::to_string(std::lround(s.engine.params.*field * per_unit));
              },
          .write =
              [field, per_unit](Settings& s, const OptionValue& v) {
                s.engine.params.*field = double(v.number) / per_unit;
              },
          .search_parameter = true};
}

// A whole number of SearchParameters.
OptionSpec parameter_count(std::string_view name, int min, int max,
                           int search::SearchParameters::*field, std::string_view help) {
  return {
      .name = name,
      .type = T::Spin,
      .min = min,
      .max = max,
      .help = help,
      .apply = configure,
      .read = [field](const Settings& s) { return std::to_string(s.engine.params.*field); },
      .write = [field](Settings& s, const OptionValue& v) { s.engine.params.*field = v.number; },
      .search_parameter = true};
}

// A flag of EngineOptions.
OptionSpec engine_check(std::string_view name, bool EngineOptions::*field, std::string_view help) {
  return {.name = name,
          .type = T::Check,
          .help = help,
          .apply = configure,
          .read = [field](const Settings& s) { return check_text(s.engine.*field); },
          .write = [field](Settings& s, const OptionValue& v) { s.engine.*field = v.number != 0; }};
}

// A flag that changes only what the UCI loop prints or accepts (ProtocolOptions).
OptionSpec protocol_check(std::string_view name, bool ProtocolOptions::*field,
                          std::string_view help) {
  return {
      .name = name,
      .type = T::Check,
      .help = help,
      .apply = configure,
      .read = [field](const Settings& s) { return check_text(s.protocol.*field); },
      .write = [field](Settings& s, const OptionValue& v) { s.protocol.*field = v.number != 0; }};
}

// A file or path the loop opens; an empty value is the word `none` (kEmbeddedNet, ...).
OptionSpec file_string(std::string_view name, std::string Settings::*field, std::string_view none,
                       void (*effect)(Engine&, const Settings&), void (*check)(const Settings&),
                       std::string_view help) {
  return {.name = name,
          .type = T::String,
          .help = help,
          .apply = effect,
          .read = [field](const Settings& s) { return s.*field; },
          .write =
              [field, none](Settings& s, const OptionValue& v) {
                s.*field = v.text.empty() ? std::string(none) : v.text;
              },
          .check = check};
}

// A file the UCI loop opens itself; empty is none.
OptionSpec loop_file(std::string_view name, std::string Settings::*field, std::string_view help) {
  return {.name = name,
          .type = T::String,
          .help = help,
          .apply = configure,
          .read = [field](const Settings& s) { return s.*field; },
          .write = [field](Settings& s, const OptionValue& v) { s.*field = v.text; }};
}

// A button: no value to read or write, only its effect.
OptionSpec button(std::string_view name, void (*effect)(Engine&, const Settings&),
                  std::string_view help) {
  return {.name = name,
          .type = T::Button,
          .help = help,
          .apply = effect,
          .read = [](const Settings&) { return std::string(); },
          .write = [](Settings&, const OptionValue&) {}};
}

OptionSpec precision_combo() {
  std::vector<std::string_view> names;
  for (const nn::Precision p : nn::kPrecisions) names.push_back(nn::precision_name(p));
  return {
      .name = option_name::kPrecision,
      .type = T::Combo,
      .vars = names,
      .help = nn::kPrecisionHelp,
      .apply = load_network,
      .read = [](const Settings& s) { return std::string(nn::precision_name(s.precision)); },
      .write = [](Settings& s, const OptionValue& v) { s.precision = nn::kPrecisions[v.number]; },
      .check = check_precision};
}

// SearchMode's values, in the order `uci` lists them.
constexpr std::pair<std::string_view, search::SearchMode> kSearchModes[] = {
    {"puct", search::SearchMode::Puct},
    {"probability", search::SearchMode::Probability},
    {"argmax", search::SearchMode::Argmax},
};

// A combo over an enum of the settings: `names` pairs each value with its word, in the order
// `uci` lists them; `field` finds the value in a Settings.
template <class Enum, size_t N>
OptionSpec enum_combo(std::string_view name, const std::pair<std::string_view, Enum> (&names)[N],
                      Enum& (*field)(Settings&), std::string_view help) {
  std::vector<std::string_view> words;
  for (const auto& [word, value] : names) words.push_back(word);
  return {.name = name,
          .type = T::Combo,
          .vars = words,
          .help = help,
          .apply = configure,
          .read =
              [&names, field, name](const Settings& s) {
                Settings copy = s;  // `field` reaches into a Settings it may write
                const Enum value = field(copy);
                for (const auto& [word, v] : names)
                  if (v == value) return std::string(word);
                throw std::logic_error(std::string(name) + ": a value without a name");
              },
          .write = [&names, field](Settings& s,
                                   const OptionValue& v) { field(s) = names[v.number].second; }};
}

OptionSpec search_mode_combo() {
  OptionSpec spec = enum_combo<search::SearchMode>(
      "SearchMode", kSearchModes,
      [](Settings& s) -> search::SearchMode& { return s.engine.params.mode; },
      "how the engine plays: puct, probability (Giraffe's search) or argmax (no search)");
  spec.search_parameter = true;
  return spec;
}

std::vector<OptionSpec> make_specs() {
  using search::SearchParameters;
  return {
      engine_spin(option_name::kHash, 1, 65536, &EngineOptions::hash_mb,
                  "transposition table size in MB"),
      button("Clear Hash", clear_hash, "empty the transposition table"),
      engine_spin(
          option_name::kThreads, 1, 256, &EngineOptions::threads,
          "threads: under PUCT each plays out in one shared tree; under the probability-limited "
          "search each pair shares the network evaluations of one search thread"),
      engine_spin("MultiPV", 1, 256, &EngineOptions::multipv, "number of best lines to report"),
      protocol_check("Ponder", &ProtocolOptions::ponder,
                     "think on the opponent's time (go ponder)"),
      engine_spin("Move Overhead", 0, 5000, &EngineOptions::move_overhead_ms,
                  "milliseconds kept back per move"),
      protocol_check("UCI_ShowWDL", &ProtocolOptions::show_wdl, "add wdl to info lines"),
      protocol_check(
          "VerboseMoveStats", &ProtocolOptions::verbose_move_stats,
          "after each search, an info string per root move: net value, pi, searched score"),
      loop_file("Debug Log File", &Settings::debug_log_file,
                "append every line in and out, time-stamped, to this file (empty: none)"),
      protocol_check("UCI_AnalyseMode", &ProtocolOptions::analyse_mode,
                     "accepted; analysis and play search alike"),
      protocol_check("UCI_Chess960", &ProtocolOptions::chess960,
                     "Chess960: castling as king takes rook (e1h1), X-FEN/Shredder-FEN castling"),
      file_string(option_name::kEvalFile, &Settings::eval_file, kEmbeddedNet, load_network,
                  check_network_file, "network file (safetensors)"),
      precision_combo(),
      file_string(option_name::kSyzygyPath, &Settings::syzygy_path, kNoTablebases, open_tablebases,
                  check_tablebases, "Syzygy table directories, ':'-separated"),
      engine_spin("SyzygyProbeLimit", 0, 7, &EngineOptions::syzygy_probe_limit,
                  "most pieces to probe the tables with"),
      engine_check("Syzygy50MoveRule", &EngineOptions::syzygy_50_move_rule,
                   "cursed wins and blessed losses draw"),
      engine_check("UCI_LimitStrength", &EngineOptions::limit_strength,
                   "play at the strength UCI_Elo names"),
      engine_spin("UCI_Elo", search::kMinElo, search::kMaxElo, &EngineOptions::elo,
                  "the strength, on Stockfish 15.1's UCI_Elo scale at 10+0.1"),
      engine_spin("Skill Level", 0, 20, &EngineOptions::skill_level,
                  "Stockfish's levels: below 20, the UCI_Elo level of Stockfish's Elo for it"),
      parameter_spin("PolicyTemperature", 1000, &SearchParameters::policy_temperature, 1000,
                     "softmax temperature over Q, x1000"),
      parameter_spin("ThresholdStart", 1000, &SearchParameters::initial_threshold, 1000,
                     "first iteration's theta, x1000"),
      parameter_spin("ThresholdFactor", 99, &SearchParameters::threshold_factor, 100,
                     "theta multiplier per iteration, x100"),
      parameter_count("ForcingExtensions", 0, 16, &SearchParameters::forcing_extensions,
                      "forcing moves below theta expanded per line"),
      parameter_count("ForcingReach", 1, 1 << 20, &SearchParameters::forcing_reach,
                      "a forcing move is expanded down to probability theta / ForcingReach"),
      search_mode_combo(),
      parameter_spin("CPuct", 10000, &SearchParameters::cpuct, 1000,
                     "PUCT: exploration constant, x1000"),
      parameter_spin("CPuctBase", 1 << 24, &SearchParameters::cpuct_base, 1,
                     "PUCT: visits over which the exploration grows by CPuctFactor"),
      parameter_spin("CPuctFactor", 10000, &SearchParameters::cpuct_factor, 1000,
                     "PUCT: growth of the exploration, x1000", 0),
      parameter_spin("PriorTemperature", 1000, &SearchParameters::prior_temperature, 1000,
                     "PUCT: softmax temperature of the priors over Q, x1000"),
      parameter_spin("MinimaxBlend", 100, &SearchParameters::minimax_blend, 100,
                     "PUCT: share of a move's minimax value in its value, x100", 0),
  };
}

}  // namespace

void set_option(Engine& engine, const OptionSpec& spec, const OptionValue& value) {
  Settings next = engine.settings();
  spec.write(next, value);
  spec.apply(engine, next);
}

const std::vector<OptionSpec>& option_specs() {
  static const std::vector<OptionSpec> specs = make_specs();
  return specs;
}

bool same_name(std::string_view a, std::string_view b) { return lower(a) == lower(b); }

const OptionSpec* find_option(std::string_view name) {
  for (const OptionSpec& spec : option_specs())
    if (same_name(spec.name, name)) return &spec;
  return nullptr;
}

const OptionSpec& option(std::string_view name) {
  const OptionSpec* spec = find_option(name);
  if (!spec) throw std::logic_error(fmt::format("no option '{}' in the table", name));
  return *spec;
}

Settings checked_settings(const OptionSpec& spec, const std::string& value, Settings base) {
  spec.write(base, validate(spec, value));
  if (spec.check) spec.check(base);
  return base;
}

std::string default_value(const OptionSpec& spec) { return spec.read(Settings{}); }

std::string_view type_name(OptionType type) {
  switch (type) {
    case T::Check:
      return "check";
    case T::Spin:
      return "spin";
    case T::Combo:
      return "combo";
    case T::String:
      return "string";
    case T::Button:
      return "button";
  }
  throw std::logic_error("type_name: unknown option type");
}

OptionValue validate(const OptionSpec& spec, const std::string& value) {
  switch (spec.type) {
    case T::Check:
      if (lower(value) == "true") return {"true", 1};
      if (lower(value) == "false") return {"false", 0};
      throw std::invalid_argument(
          fmt::format("option {}: expected true or false, got '{}'", spec.name, value));
    case T::Spin: {
      long v = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc() || end != value.data() + value.size() || value.empty())
        throw std::invalid_argument(
            fmt::format("option {}: expected an integer, got '{}'", spec.name, value));
      if (v < spec.min || v > spec.max)
        throw std::invalid_argument(
            fmt::format("option {}: {} is outside [{}, {}]", spec.name, v, spec.min, spec.max));
      return {std::to_string(v), int(v)};
    }
    case T::Combo:
      for (size_t i = 0; i < spec.vars.size(); ++i)
        if (same_name(spec.vars[i], value)) return {std::string(spec.vars[i]), int(i)};
      throw std::invalid_argument(fmt::format("option {}: expected one of {}, got '{}'", spec.name,
                                              fmt::join(spec.vars, ", "), value));
    case T::String:
      return {value, 0};
    case T::Button:
      // A button has no value, and any value sent with it is ignored, as Stockfish does: some
      // GUIs send one (ChessX: `setoption name Clear Hash value %2`).
      return {"", 0};
  }
  throw std::logic_error("validate: unknown option type");
}

}  // namespace avocet::engine
