// The checks every subcommand applies to its numbers and positions, the search budget and
// parameter options that `puzzles` and `epd` share, and the engine options the subcommands take
// by the options table's names (see commands.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <cmath>
#include <stdexcept>

#include "avocet/chess/position.h"
#include "avocet/engine/options.h"
#include "avocet/nn/default_net.h"
#include "avocet/search/limits.h"
#include "commands.h"

namespace avocet::cli {

void check_range(std::string_view name, long long value, long long min, long long max) {
  if (value >= min && value <= max) return;
  if (max == kNoMaximum)
    throw std::invalid_argument(fmt::format("--{} must be >= {}, got {}", name, min, value));
  throw std::invalid_argument(fmt::format("--{} must be {} to {}, got {}", name, min, max, value));
}

long long integer_option(const cxxopts::ParseResult& parsed, const std::string& name, long long min,
                         long long max) {
  const long long value = parsed[name].as<long long>();
  check_range(name, value, min, max);
  return value;
}

std::optional<long long> optional_integer_option(const cxxopts::ParseResult& parsed,
                                                 const std::string& name, long long min,
                                                 long long max) {
  if (!parsed.count(name)) return std::nullopt;
  return integer_option(parsed, name, min, max);
}

double positive_number_option(const cxxopts::ParseResult& parsed, const std::string& name) {
  const double value = parsed[name].as<double>();
  if (!(std::isfinite(value) && value > 0))
    throw std::invalid_argument(fmt::format("--{} must be > 0, got {}", name, value));
  return value;
}

std::string fen_or_startpos(const std::string& text) {
  return text == "startpos" ? std::string(kStartFen) : text;
}

std::string SearchBudget::text(std::string_view per) const {
  if (movetime_ms) return fmt::format("{} ms/{}", *movetime_ms, per);
  return fmt::format("{} nodes/{}", nodes.value_or(0), per);
}

void SearchBudget::apply(search::SearchControl& control) const {
  if (movetime_ms)
    control.set_deadline(std::chrono::steady_clock::now() +
                         std::chrono::milliseconds(*movetime_ms));
  else if (nodes)
    control.node_limit = uint64_t(*nodes);
}

void add_search_budget_options(cxxopts::Options& options, std::string_view per,
                               const SearchBudget& fallback) {
  const std::string nodes_help =
      fallback.nodes ? fmt::format("nodes per {} (default: {})", per, *fallback.nodes)
                     : fmt::format("nodes per {}, instead of --movetime", per);
  const std::string movetime_help =
      fallback.movetime_ms
          ? fmt::format("milliseconds per {} (default: {})", per, *fallback.movetime_ms)
          : fmt::format("milliseconds per {}, instead of --nodes", per);
  options.add_options()("nodes", nodes_help, cxxopts::value<long long>(), "N")(
      "movetime", movetime_help, cxxopts::value<long long>(), "MS");
}

std::optional<SearchBudget> given_search_budget(const cxxopts::ParseResult& parsed) {
  SearchBudget budget;
  budget.nodes = optional_integer_option(parsed, "nodes", 1);
  budget.movetime_ms = optional_integer_option(parsed, "movetime", 1);
  if (budget.nodes && budget.movetime_ms)
    throw std::invalid_argument("--nodes and --movetime exclude each other; give one");
  if (!budget.nodes && !budget.movetime_ms) return std::nullopt;
  return budget;
}

void add_search_parameter_option(cxxopts::Options& options) {
  std::string names;
  for (const engine::OptionSpec& spec : engine::option_specs())
    if (spec.search_parameter) names += fmt::format("{}{}", names.empty() ? "" : ", ", spec.name);
  options.add_options()("set",
                        fmt::format("a search parameter as its UCI option takes it, e.g. "
                                    "PolicyTemperature=90 (repeatable; one of {})",
                                    names),
                        cxxopts::value<std::vector<std::string>>(), "NAME=VALUE");
}

std::string GivenSearchParameters::text() const {
  std::string text;
  for (const auto& [name, value] : set)
    text += fmt::format("{}{}={}", text.empty() ? "" : ", ", name, value);
  return text;
}

GivenSearchParameters given_search_parameters(const cxxopts::ParseResult& parsed) {
  GivenSearchParameters given;
  if (!parsed.count("set")) return given;
  engine::Settings settings;  // written as setoption writes it; its search parameters are kept
  for (const std::string& word : parsed["set"].as<std::vector<std::string>>()) {
    const size_t equals = word.find('=');
    if (equals == std::string::npos)
      throw std::invalid_argument(fmt::format("--set {}: expected NAME=VALUE", word));
    const engine::OptionSpec* spec = engine::find_option(word.substr(0, equals));
    if (!spec || !spec->search_parameter)
      throw std::invalid_argument(
          fmt::format("--set {}: '{}' is not a search parameter", word, word.substr(0, equals)));
    engine::OptionValue value;
    try {
      value = engine::validate(*spec, word.substr(equals + 1));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("--set {}: {}", word, e.what()));
    }
    spec->write(settings, value);
    std::erase_if(given.set, [&](const auto& p) { return p.first == spec->name; });
    given.set.emplace_back(std::string(spec->name), value.text);
  }
  given.params = settings.engine.params;
  return given;
}

std::string accepted_values(const engine::OptionSpec& spec) {
  switch (spec.type) {
    case engine::OptionType::Spin:
      return fmt::format("{}..{}", spec.min, spec.max);
    case engine::OptionType::Check:
      return "true|false";
    case engine::OptionType::Combo:
      return fmt::format("{}", fmt::join(spec.vars, "|"));
    case engine::OptionType::String:
      return "TEXT";
    case engine::OptionType::Button:
      return "";
  }
  return "";
}

void add_engine_flags(cxxopts::Options& options, std::initializer_list<std::string_view> names) {
  for (const std::string_view name : names) {
    const engine::OptionSpec& spec = engine::option(name);
    options.add_options()(std::string(spec.name),
                          fmt::format("{} (default: {})", spec.help, engine::default_value(spec)),
                          cxxopts::value<std::string>(), accepted_values(spec));
  }
}

bool engine_flag_given(const cxxopts::ParseResult& parsed, std::string_view name) {
  return parsed.count(std::string(name)) > 0;
}

engine::Settings engine_flags(const cxxopts::ParseResult& parsed) {
  engine::Settings settings;
  for (const engine::OptionSpec& spec : engine::option_specs()) {
    if (!engine_flag_given(parsed, spec.name)) continue;
    const std::string value = parsed[std::string(spec.name)].as<std::string>();
    try {
      settings = engine::checked_settings(spec, value, settings);
    } catch (const std::exception& e) {
      throw std::invalid_argument(fmt::format("--{} {}: {}", spec.name, value, e.what()));
    }
  }
  return settings;
}

std::shared_ptr<const nn::Network> load_network(const engine::Settings& settings) {
  const bool embedded = settings.eval_file == engine::kEmbeddedNet;
  return nn::load_network(embedded ? std::string() : settings.eval_file, settings.precision);
}

}  // namespace avocet::cli
