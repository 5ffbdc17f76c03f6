// Table-driven black-box test: malformed input of every kind goes to the real binary, which
// must answer with exactly the expected error line (a bad `go` then still plays: every go gets
// one bestmove) and then still answer `isready` and play a legal move.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../test_data.h"
#include "avocet/chess/move_text.h"
#include "avocet/chess/position.h"
#include "engine_process.h"

namespace avocet {
namespace {

enum class Reply {
  Error,    // `info string error: <error>`
  GoError,  // the same, then the search of what was valid ends in one legal bestmove
  Fatal,    // `info string ERROR: <error>` (also on stderr), for what a GUI must not hide
};

struct BadLine {
  std::string line;
  std::string error;  // the expected output line, after its prefix
  Reply reply = Reply::Error;
};

std::string temp_file(const std::string& name, const std::string& bytes) {
  const std::string path = ::testing::TempDir() + "avocet_malformed_" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

const std::string kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

std::vector<BadLine> bad_uci_lines(const std::string& net) {
  const std::string corrupt = temp_file("corrupt.safetensors", "garbage\x01\x02");
  const std::string empty = temp_file("empty.safetensors", "");
  const std::string keep = "; keeping the embedded net " + net;
  const Reply go = Reply::GoError, fatal = Reply::Fatal;
  return {
      {"xyzzy", "unknown command 'xyzzy'"},
      {"\x01\x02\xff", "unknown command '\\x01\\x02\\xff'"},
      // Quoted input is cut to keep the line short: 240 characters of the message are shown.
      {std::string(5000, 'x'), "unknown command '" + std::string(223, 'x') + "... (5018 bytes)"},
      {"Position startpos", "unknown command 'Position'"},
      {"position", "position needs 'startpos' or 'fen <FEN>'"},
      {"position fen", "FEN is empty"},
      {"position foo", "position: expected 'startpos' or 'fen', got 'foo'"},
      {"position startpos e2e4", "position startpos: unexpected 'e2e4'"},
      {"position fen " + kStart + " x KQkq - 0 1", "side to move must be 'w' or 'b', got 'x'"},
      {"position fen 8/8/8/8/8/8/8/8 w - - 0 1", "white has 0 kings; expected exactly one"},
      {"position fen " + kStart + " w KQkq - 0",
       "FEN has 5 fields; expected 6 (or 4 without the clocks)"},
      {"position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
       "invalid character '9' in rank 6 of the piece placement"},
      {"position fen " + kStart + " w KQkq e3 0 1",
       "en passant square e3 is impossible with white to move (must be on rank 6)"},
      {"position fen 4k3/8/8/8/8/8/8/4K2R w Kq - 0 1",
       "castling right 'q' needs a black rook on the eighth rank on the a-side of the king on e8"},
      {"position fen 4k3/8/8/8/8/8/8/4K3 w - - -1 1",
       "halfmove clock must be a non-negative integer, got '-1'"},
      {"position fen 4k2Q/8/8/8/8/8/8/4K3 w - - 0 1", "the side not to move (black) is in check"},
      {"position startpos moves e2e5",
       "illegal move 'e2e5' in position " + kStart + " w KQkq - 0 1"},
      {"position startpos moves e7e5",
       "illegal move 'e7e5' in position " + kStart + " w KQkq - 0 1"},
      // N7: a NUL inside a move no longer ends the message.
      {"position startpos moves e2" + std::string(1, '\0') + "e4",
       "'e2\\x00e4' is not a move in UCI notation (e.g. e2e4, e7e8q)"},
      {"debug maybe", "debug: expected 'on' or 'off', got 'maybe'"},
      // N8: a folder without tables is refused, as on the command line.
      {"setoption name SyzygyPath value /",
       "setoption SyzygyPath: found 0 tables in /; keeping <empty>"},
      {"position startpos moves e2e4 zz99",
       "'zz99' is not a move in UCI notation (e.g. e2e4, e7e8q)"},
      {"position startpos moves e2e4 e7e5 e1g1",
       "illegal move 'e1g1' in position rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 "
       "2"},
      {"go depth x", "go: depth must be an integer, got 'x'", go},
      {"go depth", "go: depth needs a value", go},
      {"go wtime abc", "go: wtime must be an integer, got 'abc'", go},
      {"go movetime 99999999999999",
       "go: movetime must be at most 2147483647, got 99999999999999: ignored", go},
      {"go banana", "go: unknown parameter 'banana'", go},
      // The previous row's check left the position after 1. e4.
      {"go searchmoves e2e5",
       "go searchmoves: illegal move 'e2e5' in position "
       "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 "
       "1",
       go},
      {"go perft 0", "go perft: depth must be an integer from 1 to 20, got '0'"},
      {"go perft 99", "go perft: depth must be an integer from 1 to 20, got '99'"},
      {"go perft", "go perft: depth must be an integer from 1 to 20, got ''"},
      {"setoption name Hash value 0", "option Hash: 0 is outside [1, 65536]"},
      {"setoption name Hash value 99999999", "option Hash: 99999999 is outside [1, 65536]"},
      {"setoption name Hash value abc", "option Hash: expected an integer, got 'abc'"},
      {"setoption name Threads value 0", "option Threads: 0 is outside [1, 256]"},
      {"setoption name MultiPV value 500", "option MultiPV: 500 is outside [1, 256]"},
      {"setoption name Move Overhead value -1", "option Move Overhead: -1 is outside [0, 5000]"},
      {"setoption name SearchMode value fast",
       "option SearchMode: expected one of puct, probability, argmax, got 'fast'"},
      {"setoption name UCI_ShowWDL value maybe",
       "option UCI_ShowWDL: expected true or false, got 'maybe'"},
      {"setoption name Nope value 1", "setoption: unknown option 'Nope'"},
      {"setoption Hash 16", "setoption: expected 'setoption name <name> [value <value>]'"},
      {"setoption name", "setoption: expected 'setoption name <name> [value <value>]'"},
      {"setoption name EvalFile value /nonexistent.safetensors",
       "EvalFile: /nonexistent.safetensors: cannot open: No such file or directory" + keep, fatal},
      {"setoption name EvalFile value " + corrupt,
       "EvalFile: " + corrupt + ": header length 100600234646856039 exceeds the file size 9" + keep,
       fatal},
      {"setoption name EvalFile value " + empty,
       "EvalFile: " + empty + ": file too short (0 bytes) for a safetensors header" + keep, fatal},
      {"setoption name EvalFile value /", "EvalFile: /: not a regular file" + keep, fatal},
  };
}

TEST(MalformedInput, EveryBadUciLineGetsItsErrorAndTheEngineStillPlays) {
  EngineProcess engine({}, true);
  engine.send("uci");
  const std::string hello = engine.read_until("uciok");
  const std::string net_line = "info string net ";
  const size_t net_at = hello.find(net_line);
  ASSERT_NE(net_at, std::string::npos) << hello;
  const std::string net =
      hello.substr(net_at + net_line.size(), hello.find('\n', net_at) - net_at - net_line.size());

  const std::vector<BadLine> table = bad_uci_lines(net);
  // What stderr must hold at the end: the lines a GUI must not hide, and every setoption
  // error (python-chess drops info strings during its handshake).
  std::string stderr_lines;
  for (const BadLine& row : table) {
    SCOPED_TRACE(row.line.substr(0, 80));
    engine.send(row.line);
    if (row.reply == Reply::GoError) {
      const std::string out = engine.read_until("bestmove");
      EXPECT_EQ(out.rfind("info string error: " + row.error + "\n", 0), 0u) << out;
      EXPECT_EQ(out.find("info string error", 1), std::string::npos) << out;
      const size_t at = out.rfind("bestmove ");
      ASSERT_NE(at, std::string::npos) << out;
      // The position is the one after 1. e4 that every earlier row ended with.
      Position after_e4 = Position::start();
      after_e4.play(parse_uci(after_e4, "e2e4"));
      EXPECT_NO_THROW(
          parse_uci(after_e4, out.substr(at + 9, out.find_first_of(" \n", at + 9) - at - 9)))
          << out;
      engine.send("isready");
      EXPECT_EQ(engine.read_until("readyok"), "readyok\n");  // one bestmove only
    } else {
      engine.send("isready");
      const std::string prefix =
          row.reply == Reply::Fatal ? "info string ERROR: " : "info string error: ";
      EXPECT_EQ(engine.read_until("readyok"), prefix + row.error + "\nreadyok\n");
      if (row.reply == Reply::Fatal || row.line.starts_with("setoption"))
        stderr_lines += prefix + row.error + "\n";
    }

    // The state is still defined: a position and a search work as before.
    engine.send("position startpos moves e2e4");
    engine.send("go nodes 8");
    const std::string search = engine.read_until("bestmove");
    const size_t at = search.rfind("bestmove ");
    ASSERT_NE(at, std::string::npos) << search;
    const std::string move = search.substr(at + 9, search.find_first_of(" \n", at + 9) - at - 9);
    Position after_e4 = Position::start();
    after_e4.play(parse_uci(after_e4, "e2e4"));
    EXPECT_NO_THROW(parse_uci(after_e4, move)) << search;
  }
  EXPECT_GE(table.size(), 40u);
  engine.send("quit");
  EXPECT_EQ(engine.wait_exit(3000), 0);
  EXPECT_EQ(engine.read_stderr(), stderr_lines);
}

struct BadCommand {
  std::vector<std::string> args;
  std::string error;  // the one stderr line, without "avocet: "
};

TEST(MalformedInput, EveryBadCommandLineGetsOneErrorLineAndStatus2) {
  const std::string dir = ::testing::TempDir();
  const std::string bad_csv = temp_file("bad.csv", "PuzzleId,FEN,Moves,Rating\n");
  const std::string corrupt = temp_file("corrupt2.safetensors", "garbage\x01\x02");
  const std::vector<BadCommand> table = {
      {{"frobnicate"}, "unknown subcommand 'frobnicate' (try --help)"},
      {{"perft", "abc"}, "perft: DEPTH must be an integer from 1 to 20, got 'abc'"},
      {{"perft", "3", "--fen", "xyz"}, "FEN has 1 fields; expected 6 (or 4 without the clocks)"},
      {{"perft", "--suite", "/nonexistent.epd"},
       "cannot read perft suite '/nonexistent.epd': No such file or directory"},
      {{"eval", "notafen"}, "FEN has 1 fields; expected 6 (or 4 without the clocks)"},
      {{"eval", "startpos", "--EvalFile", corrupt},
       "--EvalFile " + corrupt + ": " + corrupt +
           ": header length 100600234646856039 exceeds the file size 9"},
      {{"bench", "--iterations"}, "bench: Option 'iterations' is missing an argument"},
      {{"bench", "--iterations", "x"}, "bench --iterations: 'x' is not a valid value"},
      {{"puzzles", "--file", "/nonexistent.csv"},
       "cannot read puzzle file '/nonexistent.csv': No such file or directory"},
      {{"puzzles", "--file", dir}, "cannot read puzzle file '" + dir + "': is a directory"},
      {{"puzzles", "--file", bad_csv, "--nodes=-3"}, "--nodes must be >= 1, got -3"},
      {{"puzzles", "--file", bad_csv}, "no puzzles in '" + bad_csv + "': it holds no rows"},
      {{"bench", "16", "1", "13"}, "bench: unexpected argument '16' (see 'avocet bench --help')"},
      {{"nnbench", "--threads", "0"}, "--threads must be 1 to 256, got 0"},
      {{"--Hash=0"}, "--Hash=0: option Hash: 0 is outside [1, 65536]"},
      {{"--Precision=fp33"},
       "--Precision=fp33: option Precision: expected one of auto, fp32, bf16, int8, got 'fp33'"},
      {{"eval", "startpos", "--Precision", "bf17"},
       "--Precision bf17: option Precision: expected one of auto, fp32, bf16, int8, got 'bf17'"},
      {{"nnbench", "--Precision", "fp64"},
       "--Precision must be all or one of auto, fp32, bf16, int8, got 'fp64'"},
      {{"eval", "startpos", "--Hash", "0"},
       "eval: unknown option '--Hash' (see 'avocet eval --help')"},
      {{"puzzles", "--file", "x.csv", "--Hash", "0"},
       "--Hash 0: option Hash: 0 is outside [1, 65536]"},
      {{"eval", "startpos", "--weights", "x"}, "eval: --weights is now --EvalFile"},
      {{"bench", "--precision", "fp32"}, "bench: --precision is now --Precision"},
      {{"tb", "--path", "x", "startpos"}, "tb: --path is now --SyzygyPath"},
      {{"epd", "--file", "x.epd", "--syzygy", "x"}, "epd: --syzygy is now --SyzygyPath"},
      {{"puzzles", "--hash", "16"}, "puzzles: --hash is now --Hash"},
      {{"puzzles", "--file", bad_csv, "--mode", "fast"},
       "--mode must be argmax or search, got 'fast'"},
      {{"puzzles", "--bogus", "3"},
       "puzzles: unknown option '--bogus' (see 'avocet puzzles --help')"},
      {{"puzzles", "--file", bad_csv, "--json", "/nonexistent/results.jsonl"},
       "cannot write '/nonexistent/results.jsonl': No such file or directory"},
      {{"epd", "--file", "/nonexistent.epd"},
       "cannot read EPD file '/nonexistent.epd': No such file or directory"},
      {{"epd", "--file", dir}, "cannot read EPD file '" + dir + "': is a directory"},
      {{"datagen", "--from-tsv", "/nonexistent.tsv", "-o", dir + "avocet_malformed_shards"},
       "cannot read '/nonexistent.tsv'"},
  };
  for (const BadCommand& row : table) {
    SCOPED_TRACE(row.args[0] + (row.args.size() > 1 ? " " + row.args[1] : ""));
    const CliRun run = run_avocet(row.args);
    EXPECT_EQ(run.status, 2);
    EXPECT_EQ(run.err, "avocet: " + row.error + "\n");
  }
}

}  // namespace
}  // namespace avocet
