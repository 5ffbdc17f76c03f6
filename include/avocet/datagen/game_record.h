// Labelled games: the labeller's own format, compact enough to keep every label in the
// repository (weights/labels/, ≤ 4 bytes a position once xz-compressed). A game is stored, not
// its positions: the start position once, then per ply Stockfish's best move and score and,
// where it differs, the move played. Python reads the same bytes (tools/data/labels.py).
//
//   file   = "AVOGAME1" (8 bytes), uint32 header length, JSON header (the recipe), games
//   game   = 'G', uint8 L, L bytes of FEN (six fields), uint16 plies n, uint8 result,
//            n x uint16 best move, n x uint16 score code, m x uint16 played move, uint32 crc32
//   move   = from | to << 6 | promotion << 12 (0 none, 1 knight, 2 bishop, 3 rook, 4 queen),
//            squares a1 = 0 ... h8 = 63, castling as the king's move (e1g1); bit 15 of a best
//            move says that another move was played from that ply, and the m played moves
//            follow in ply order
//   score  = the side to move's, Stockfish centipawns in ±30000; mate in k for the side to
//            move 32000 - k, mated in k -(32000 - k); stored as a code: s(i) + s(i - 1) in
//            16-bit wrapping arithmetic (s(0)'s predecessor 0), zigzag-encoded (0, -1, 1, -2
//            as 0, 1, 2, 3). Two plies' scores are the two sides' views of nearly the same
//            evaluation, so the sum is near zero and compresses to about half the bytes.
//   result = how the game ended: 0 not over (the ply cap, or the run stopped), 1 White mated,
//            2 Black mated, 3 drawn
//   crc32  = zlib's CRC-32 of the game's bytes from 'G' to the last played move
//
// All integers little-endian. The columns (all best moves, then all scores) compress better
// than interleaved plies. Games are written whole and flushed one at a time, so a kill loses at
// most the game in progress, and a reader that meets a damaged game names the file and the game
// and has returned every game before it.
#pragma once

#include <cstdint>
#include <fstream>
#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "avocet/chess/move.h"
#include "avocet/chess/position.h"

namespace avocet::datagen {

inline constexpr std::string_view kGameRecordMagic = "AVOGAME1";

enum class GameResult : uint8_t { NotOver = 0, WhiteMated = 1, BlackMated = 2, Drawn = 3 };

struct LabelledPly {
  Move best;    // Stockfish's best move
  int score;    // the side to move's, in the file's encoding (see above)
  Move played;  // the move the game went on with (== best unless a blunder or a sample)
};

struct LabelledGame {
  std::string start_fen;
  std::vector<LabelledPly> plies;
  GameResult result = GameResult::NotOver;
};

// Stockfish's score ("35", "-120", "m3", "m-2") in the file's encoding, and back.
int encode_score(std::string_view stockfish_score);
std::string decode_score(int score);

// A damaged or truncated file: names the file and the game (1-based) where reading stopped.
class GameRecordError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads the games of `in` in order, calling `game` for each, and returns the header's JSON
// text. Stops at the first damaged game with a GameRecordError naming `name` and the game;
// the games before it have been passed on. `valid_bytes`, if given, is set after each whole
// game to the offset just past it.
std::string read_game_records(std::istream& in, const std::string& name,
                              const std::function<void(const LabelledGame&)>& game,
                              uint64_t* valid_bytes = nullptr);
// The same for a file (.xz through `xz -dc`).
std::string read_game_records(const std::string& path,
                              const std::function<void(const LabelledGame&)>& game);

struct RecoveredGames {
  long games = 0;
  long plies = 0;
  uint64_t cut_bytes = 0;  // an unfinished last game's bytes, now gone from the file
};

// For a file a killed run may have left: reads it, cuts off a last game that is unfinished
// (a kill mid-write), and counts what is kept. Damage before the last game still throws.
RecoveredGames recover_game_records(const std::string& path);

class GameRecordWriter {
 public:
  // Appends to `path`, writing the magic and `header_json` when the file is new or empty
  // (call recover_game_records first on a file a killed run may have left).
  GameRecordWriter(const std::string& path, const std::string& header_json);
  // Writes one whole game and flushes it.
  void write(const LabelledGame& game);

 private:
  std::string path_;
  std::ofstream out_;
};

// zlib's CRC-32 (polynomial 0xEDB88320), as Python's zlib.crc32.
uint32_t crc32(std::string_view bytes, uint32_t crc = 0);

}  // namespace avocet::datagen
