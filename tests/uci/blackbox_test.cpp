// Drives the real avocet binary through pipes, as a GUI does.
#include <gtest/gtest.h>

#include <string>

#include "../test_data.h"
#include "engine_process.h"

namespace avocet {
namespace {

TEST(BlackBox, UciSessionThroughPipes) {
  EngineProcess engine({"--EvalFile=" + testing::data_path("tiny_house.safetensors"), "--Hash=16"});
  engine.send("uci");
  const std::string hello = engine.read_until("uciok");
  EXPECT_NE(hello.find("id name Avocet"), std::string::npos) << hello;
  EXPECT_NE(hello.find("option name EvalFile"), std::string::npos);
  // The options given as arguments were applied before `uci`: the net was announced.
  EXPECT_NE(hello.find("info string net tiny_house"), std::string::npos) << hello;

  engine.send("isready");
  EXPECT_NE(engine.read_until("readyok").find("readyok"), std::string::npos);
  engine.send("position startpos moves e2e4 e7e5");
  engine.send("go infinite");
  engine.send("isready");  // answered while searching, without stopping it
  const std::string during = engine.read_until("readyok");
  EXPECT_NE(during.find("readyok"), std::string::npos) << during;
  EXPECT_EQ(during.find("bestmove"), std::string::npos) << during;
  engine.send("stop");
  const std::string after = engine.read_until("bestmove", 2000);
  EXPECT_NE(after.find("bestmove "), std::string::npos) << after;

  engine.send("position startpos");
  engine.send("go movetime 200");
  EXPECT_NE(engine.read_until("bestmove", 3000).find("bestmove "), std::string::npos);

  engine.send("go infinite");
  engine.send("quit");  // quits promptly, even mid-search
  EXPECT_EQ(engine.wait_exit(3000), 0);
}

TEST(BlackBox, CommandLineErrorsAreOneLine) {
  EngineProcess engine({"--EvalFile=/nonexistent.safetensors"});
  const std::string out = engine.read_until("info string error", 3000);
  EXPECT_NE(out.find("info string error: EvalFile: /nonexistent.safetensors: cannot open"),
            std::string::npos)
      << out;
  engine.send("quit");
  EXPECT_EQ(engine.wait_exit(3000), 0);
}

}  // namespace
}  // namespace avocet
