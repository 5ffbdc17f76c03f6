// The options table: src/uci/README.md's table must state what the definitions say, and each
// option's value must survive the trip from UCI text into Settings and back.
#include "avocet/engine/options.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace avocet::engine {
namespace {

struct ReadmeRow {
  std::string name, type, default_value;
};

std::string trim(std::string text, std::string_view strip = " `") {
  const size_t begin = text.find_first_not_of(strip);
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(strip) - begin + 1);
}

// The path of the document that holds the options table.
const std::string kReadme = std::string(AVOCET_SOURCE_DIR) + "/src/uci/README.md";

// The rows of src/uci/README.md's options table (`| option | type | default | meaning |`):
// name, type and default, without their backquotes.
std::vector<ReadmeRow> readme_rows() {
  const std::string& path = kReadme;
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot read " + path);
  std::vector<ReadmeRow> rows;
  bool in_table = false;
  for (std::string line; std::getline(file, line);) {
    if (line.starts_with("| option | type | default |")) {
      in_table = true;
      std::getline(file, line);  // the |---| line
      continue;
    }
    if (!in_table) continue;
    if (!line.starts_with("|")) break;
    std::vector<std::string> cells;
    std::istringstream cells_of(line.substr(1));
    for (std::string cell; cells.size() < 3 && std::getline(cells_of, cell, '|');)
      cells.push_back(trim(cell));
    if (cells.size() < 3) throw std::runtime_error(path + ": short options row: " + line);
    rows.push_back({cells[0], cells[1], cells[2]});
  }
  if (!in_table) throw std::runtime_error(path + ": no options table");
  return rows;
}

// The type column as the table writes it: "spin 1–65536", "combo search/argmax", "check",
// "button" (whose default cell is empty).
std::string readme_type(const OptionSpec& spec) {
  std::string text(type_name(spec.type));
  if (spec.type == OptionType::Spin) text += fmt::format(" {}\u2013{}", spec.min, spec.max);
  if (!spec.vars.empty()) text += fmt::format(" {}", fmt::join(spec.vars, "/"));
  return text;
}

TEST(Options, ReadmeTableMatchesTheDefinitions) {
  const std::vector<ReadmeRow> rows = readme_rows();
  const std::vector<OptionSpec>& specs = option_specs();
  ASSERT_EQ(rows.size(), specs.size()) << kReadme << ": the options table has another row count";
  for (size_t i = 0; i < specs.size(); ++i) {
    SCOPED_TRACE(std::string(specs[i].name));
    EXPECT_EQ(rows[i].name, specs[i].name);
    EXPECT_EQ(rows[i].type, readme_type(specs[i]));
    EXPECT_EQ(rows[i].default_value, default_value(specs[i]));
  }
}

// Written from UCI text into Settings and read back, every value is what was sent: the units
// of the scaled options (thousandths, percent) agree both ways.
TEST(Options, ValuesRoundTripThroughSettings) {
  for (const OptionSpec& spec : option_specs()) {
    SCOPED_TRACE(std::string(spec.name));
    std::vector<std::string> values = {default_value(spec)};
    if (spec.type == OptionType::Spin)
      values.insert(values.end(), {std::to_string(spec.min), std::to_string(spec.max),
                                   std::to_string((spec.min + spec.max) / 2)});
    if (spec.type == OptionType::Check) values.insert(values.end(), {"true", "false"});
    for (std::string_view var : spec.vars) values.emplace_back(var);
    if (spec.type == OptionType::String) values.emplace_back("/some/file");
    for (const std::string& value : values) {
      Settings settings;
      spec.write(settings, validate(spec, value));
      EXPECT_EQ(spec.read(settings), value);
    }
  }
}

TEST(Options, NamesAreFoundWhateverTheirCase) {
  ASSERT_NE(find_option("move overhead"), nullptr);
  EXPECT_EQ(find_option("MOVE OVERHEAD")->name, "Move Overhead");
  EXPECT_EQ(find_option("Treads"), nullptr);
}

TEST(Options, ValidateNormalisesOrExplains) {
  EXPECT_EQ(validate(*find_option("Ponder"), "TRUE").text, "true");
  EXPECT_EQ(validate(*find_option("SearchMode"), "ArgMax").text, "argmax");
  EXPECT_EQ(find_option("Mode"), nullptr);  // merged into SearchMode
  EXPECT_EQ(validate(*find_option("Hash"), "0032").number, 32);
  EXPECT_THROW(validate(*find_option("Hash"), "abc"), std::invalid_argument);
  EXPECT_THROW(validate(*find_option("Hash"), "32MB"), std::invalid_argument);
  EXPECT_THROW(validate(*find_option("Hash"), ""), std::invalid_argument);
  EXPECT_THROW(validate(*find_option("Threads"), "0"), std::invalid_argument);
}

// The names code uses to find an option are the table's own, and a name the table lacks is a
// programming error, not a missing option.
TEST(Options, CodeFindsOptionsByTheTablesNames) {
  for (const std::string_view name :
       {option_name::kHash, option_name::kThreads, option_name::kEvalFile, option_name::kPrecision,
        option_name::kSyzygyPath})
    EXPECT_EQ(option(name).name, name);
  EXPECT_THROW(option("Treads"), std::logic_error);
}

// checked_settings: validate, write, then the option's check, which refuses what its effect
// could not take without applying it; the base settings are kept.
TEST(Options, ChecksRefuseWhatTheEffectCouldNotTake) {
  const std::string tables = std::string(AVOCET_TEST_DATA_DIR) + "/syzygy";
  Settings base;
  base.engine.hash_mb = 16;
  const Settings with_tables = checked_settings(option(option_name::kSyzygyPath), tables, base);
  EXPECT_EQ(with_tables.syzygy_path, tables);
  EXPECT_EQ(with_tables.engine.hash_mb, 16);
  EXPECT_EQ(checked_settings(option(option_name::kSyzygyPath), "").syzygy_path, kNoTablebases);
  EXPECT_THROW(checked_settings(option(option_name::kSyzygyPath), "/nonexistent/syzygy"),
               std::invalid_argument);
  EXPECT_EQ(checked_settings(option(option_name::kEvalFile), "").eval_file, kEmbeddedNet);
  EXPECT_ANY_THROW(checked_settings(option(option_name::kEvalFile), "/nonexistent.safetensors"));
  EXPECT_EQ(checked_settings(option(option_name::kPrecision), "fp32").precision,
            nn::Precision::Fp32);
  for (const nn::Precision p : nn::kPrecisions) {
    const std::string name(nn::precision_name(p));
    if (nn::precision_supported(p))
      EXPECT_EQ(checked_settings(option(option_name::kPrecision), name).precision, p);
    else
      EXPECT_THROW(checked_settings(option(option_name::kPrecision), name), std::invalid_argument);
  }
  EXPECT_THROW(checked_settings(option(option_name::kHash), "0"), std::invalid_argument);
  EXPECT_EQ(checked_settings(option(option_name::kHash), "32").engine.hash_mb, 32);
}

}  // namespace
}  // namespace avocet::engine
