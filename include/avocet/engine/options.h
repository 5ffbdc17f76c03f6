// The engine's options, each defined once (as lc0's OptionId): its name, type, range, help
// text and its effect on the Engine. One table serves the declarations printed for `uci`,
// `setoption`, the `--Name=value` command-line arguments, the subcommands' flags and
// `avocet --help`; a test checks src/uci/README.md's options table against it.
//
// No default is written in the table: an option's default is what a default-constructed
// Settings holds (the search's come from EngineOptions and SearchParameters), read in the
// option's UCI units (PolicyTemperature in thousandths, ThresholdFactor in percent, ...).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "avocet/engine/engine.h"
#include "avocet/nn/precision.h"

namespace avocet::engine {

// Button: an action without a value (`setoption name Clear Hash`).
enum class OptionType { Check, Spin, Combo, String, Button };

// A value that passed validate(): its text as UCI shows it, and its number (a spin's integer,
// a check's 1 for true and 0 for false).
struct OptionValue {
  std::string text;
  int number = 0;
};

struct OptionSpec {
  std::string_view name;
  OptionType type;
  int min = 0, max = 0;                     // spin
  std::vector<std::string_view> vars = {};  // combo
  std::string_view help;
  // The option's effect on the engine, given the settings with the new value written: the
  // engine takes them, or throws and keeps what it had (Engine's calls say what each throws).
  std::function<void(Engine&, const Settings&)> apply;
  std::function<std::string(const Settings&)> read;          // the value, as UCI text
  std::function<void(Settings&, const OptionValue&)> write;  // sets it from a valid value
  // A field of SearchParameters: `puzzles` and `epd` also take it (--set Name=value).
  bool search_parameter = false;
  // Checks, without applying it, that the effect of the settings with a new value written can
  // take: throws std::invalid_argument (or the loader's error) with a one-line reason. Null
  // where nothing can be known before applying. The command line checks every value so, and
  // stops before it starts anything (`avocet --EvalFile=x`, `avocet puzzles --EvalFile x`).
  std::function<void(const Settings&)> check = nullptr;
};

// The names by which code finds the options it handles itself (`option(option_name::kHash)`):
// each is written here once, as the table spells it.
namespace option_name {
inline constexpr std::string_view kHash = "Hash";
inline constexpr std::string_view kThreads = "Threads";
inline constexpr std::string_view kEvalFile = "EvalFile";
inline constexpr std::string_view kPrecision = "Precision";
inline constexpr std::string_view kSyzygyPath = "SyzygyPath";
}  // namespace option_name

// Sets option `spec` of `engine` to a valid `value`: writes it into a copy of the engine's
// settings and applies that. Throws what the effect throws; the engine is then unchanged.
void set_option(Engine& engine, const OptionSpec& spec, const OptionValue& value);

// Every option, in the order `uci` declares them.
const std::vector<OptionSpec>& option_specs();

// The option called `name` (names compare case-insensitively, as UCI requires), or null.
const OptionSpec* find_option(std::string_view name);

// The option called `name`, as option_name spells it; throws std::logic_error when the table
// has none (a name misspelt in code).
const OptionSpec& option(std::string_view name);

// Checks `value` as validate() does, then the effect as spec.check does (without applying it),
// and returns the settings `base` with the value written. Throws std::invalid_argument with a
// one-line reason naming the option (or the loader's error for a net that does not load).
Settings checked_settings(const OptionSpec& spec, const std::string& value, Settings base = {});

// The option's default: its value in a default-constructed Settings ("" for a button).
std::string default_value(const OptionSpec& spec);

// "check", "spin", "combo", "string" or "button", as UCI names the type.
std::string_view type_name(OptionType type);

// Checks `value` against the spec; returns it normalised ("true"/"false", the combo value in
// the table's case, the integer as std::to_string writes it; a button ignores any value, as
// Stockfish's does) or throws std::invalid_argument with a one-line reason naming the option.
OptionValue validate(const OptionSpec& spec, const std::string& value);

bool same_name(std::string_view a, std::string_view b);

}  // namespace avocet::engine
