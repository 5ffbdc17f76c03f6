// A file to read, plain or xz-compressed (`.xz`, decompressed through `xz -dc`): the book,
// annotation files and labelled games may each be committed compressed.
#pragma once

#include <cstdio>
#include <ext/stdio_filebuf.h>
#include <istream>
#include <memory>
#include <string>

namespace avocet::datagen {

class InputFile {
 public:
  // Throws std::runtime_error naming `path` if it is not a readable file.
  explicit InputFile(const std::string& path);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  std::istream& stream() { return *stream_; }

 private:
  FILE* pipe_ = nullptr;
  std::unique_ptr<__gnu_cxx::stdio_filebuf<char>> buffer_;
  std::unique_ptr<std::istream> stream_;
};

}  // namespace avocet::datagen
