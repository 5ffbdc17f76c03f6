#include "avocet/uci/options.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace avocet::uci {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

}  // namespace

bool same_name(const std::string& a, const std::string& b) { return lower(a) == lower(b); }

std::string declaration(const OptionSpec& spec) {
  switch (spec.type) {
    case OptionType::Check:
      return fmt::format("option name {} type check default {}", spec.name, spec.default_value);
    case OptionType::Spin:
      return fmt::format("option name {} type spin default {} min {} max {}", spec.name,
                         spec.default_value, spec.min, spec.max);
    case OptionType::Combo: {
      std::string text =
          fmt::format("option name {} type combo default {}", spec.name, spec.default_value);
      for (const std::string& v : spec.values) text += " var " + v;
      return text;
    }
    case OptionType::String:
      return fmt::format("option name {} type string default {}", spec.name, spec.default_value);
  }
  return "";
}

std::string validate(const OptionSpec& spec, const std::string& value) {
  switch (spec.type) {
    case OptionType::Check:
      if (lower(value) == "true" || lower(value) == "false") return lower(value);
      throw std::invalid_argument(
          fmt::format("option {}: expected true or false, got '{}'", spec.name, value));
    case OptionType::Spin: {
      long v = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc() || end != value.data() + value.size() || value.empty())
        throw std::invalid_argument(
            fmt::format("option {}: expected an integer, got '{}'", spec.name, value));
      if (v < spec.min || v > spec.max)
        throw std::invalid_argument(
            fmt::format("option {}: {} is outside [{}, {}]", spec.name, v, spec.min, spec.max));
      return std::to_string(v);
    }
    case OptionType::Combo:
      for (const std::string& v : spec.values)
        if (same_name(v, value)) return v;
      throw std::invalid_argument(fmt::format("option {}: expected one of {}, got '{}'", spec.name,
                                              fmt::join(spec.values, ", "), value));
    case OptionType::String:
      return value;
  }
  return value;
}

}  // namespace avocet::uci
