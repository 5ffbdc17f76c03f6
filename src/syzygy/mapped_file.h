// MappedFile: a whole file mapped read-only into memory, unmapped on destruction.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace avocet::syzygy {

class MappedFile {
 public:
  // Maps `path`; null and a reason in `error` when it cannot be opened or mapped.
  static std::unique_ptr<MappedFile> open(const std::string& path, std::string& error);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::span<const uint8_t> bytes() const { return {data_, size_}; }

 private:
  MappedFile(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  const uint8_t* data_;
  size_t size_;
};

}  // namespace avocet::syzygy
