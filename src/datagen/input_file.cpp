#include "avocet/datagen/input_file.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace avocet::datagen {

InputFile::InputFile(const std::string& path) {
  if (!std::filesystem::is_regular_file(path))
    throw std::runtime_error(fmt::format("cannot read '{}'", path));
  if (path.ends_with(".xz")) {
    std::string quoted = "'";
    for (char c : path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    pipe_ = popen(("xz -dc " + quoted + "'").c_str(), "r");
    if (!pipe_) throw std::runtime_error(fmt::format("cannot run xz on '{}'", path));
    buffer_ = std::make_unique<__gnu_cxx::stdio_filebuf<char>>(pipe_, std::ios::in);
    stream_ = std::make_unique<std::istream>(buffer_.get());
  } else {
    stream_ = std::make_unique<std::ifstream>(path, std::ios::binary);
  }
}

InputFile::~InputFile() {
  stream_.reset();
  buffer_.reset();
  if (pipe_) pclose(pipe_);
}

}  // namespace avocet::datagen
