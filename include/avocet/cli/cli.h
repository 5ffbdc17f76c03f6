// The command line: `avocet` alone runs the UCI loop (with `--Name=value` engine options,
// as lichess-bot passes them); `avocet <subcommand> ...` runs one job and exits.
#pragma once

#include <iosfwd>

namespace avocet::cli {

// Returns the process exit status.
int run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace avocet::cli
