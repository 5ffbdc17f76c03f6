// Safetensors reader: an 8-byte little-endian header length, a JSON header naming each
// tensor's dtype, shape and byte range, then the raw little-endian data. Files are
// memory-mapped; every structural fault is a WeightsError naming the file (and the tensor).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace avocet::nn {

class WeightsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class DType { F32, BF16 };

struct TensorInfo {
  DType dtype;
  std::vector<int64_t> shape;
  std::span<const std::byte> bytes;
};

class SafetensorsFile {
 public:
  // Maps the file at `path`.
  static SafetensorsFile open(const std::string& path);
  // Reads from memory that outlives the object (e.g. the net embedded in the binary).
  static SafetensorsFile from_memory(std::span<const std::byte> data, std::string label);

  const std::string& label() const { return label_; }
  const std::map<std::string, std::string>& metadata() const { return metadata_; }
  const std::map<std::string, TensorInfo>& tensors() const { return tensors_; }

  // The tensor as floats (BF16 widened), after checking it exists with exactly `shape`.
  std::vector<float> read(const std::string& name, const std::vector<int64_t>& shape) const;
  // A metadata value; throws naming the key if it is missing.
  const std::string& meta(const std::string& key) const;

 private:
  void parse(std::span<const std::byte> data);
  [[noreturn]] void fail(const std::string& what) const;

  std::string label_;
  std::shared_ptr<const void> mapping_;  // keeps the mapped file alive
  std::map<std::string, std::string> metadata_;
  std::map<std::string, TensorInfo> tensors_;
};

std::string shape_text(const std::vector<int64_t>& shape);

}  // namespace avocet::nn
