// The engine's options: one definition per option serves the UCI `option` lines, `setoption`
// and the `--Name=value` command-line arguments.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace avocet::uci {

enum class OptionType { Check, Spin, Combo, String };

struct OptionSpec {
  std::string name;
  OptionType type;
  std::string default_value;
  int min = 0, max = 0;             // spin
  std::vector<std::string> values;  // combo
  std::string help;
};

// `option name ... type ... default ...` as UCI declares it.
std::string declaration(const OptionSpec& spec);

// Checks `value` against the spec; returns it normalised (e.g. "true"/"false", the combo
// value's canonical case) or throws std::invalid_argument with a one-line reason.
std::string validate(const OptionSpec& spec, const std::string& value);

// Option names compare case-insensitively, as UCI requires.
bool same_name(const std::string& a, const std::string& b);

}  // namespace avocet::uci
