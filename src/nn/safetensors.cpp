#include "avocet/nn/safetensors.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

namespace avocet::nn {

namespace {

constexpr uint64_t kMaxHeaderBytes = 100 << 20;

size_t dtype_size(DType t) { return t == DType::F32 ? 4 : 2; }

}  // namespace

std::string shape_text(const std::vector<int64_t>& shape) {
  return fmt::format("[{}]", fmt::join(shape, ", "));
}

void SafetensorsFile::fail(const std::string& what) const {
  throw WeightsError(fmt::format("{}: {}", label_, what));
}

SafetensorsFile SafetensorsFile::open(const std::string& path) {
  SafetensorsFile file;
  file.label_ = path;
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) file.fail(fmt::format("cannot open: {}", std::strerror(errno)));
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    file.fail("not a regular file");
  }
  const size_t size = size_t(st.st_size);
  void* address = size ? mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0) : nullptr;
  ::close(fd);
  if (address == MAP_FAILED) file.fail(fmt::format("cannot map: {}", std::strerror(errno)));
  if (address)
    file.mapping_ = std::shared_ptr<const void>(
        address, [size](const void* p) { munmap(const_cast<void*>(p), size); });
  file.parse({static_cast<const std::byte*>(address), size});
  return file;
}

SafetensorsFile SafetensorsFile::from_memory(std::span<const std::byte> data, std::string label) {
  SafetensorsFile file;
  file.label_ = std::move(label);
  file.parse(data);
  return file;
}

void SafetensorsFile::parse(std::span<const std::byte> data) {
  if (data.size() < 8)
    fail(fmt::format("file too short ({} bytes) for a safetensors header", data.size()));
  uint64_t header_size = 0;
  for (int i = 7; i >= 0; --i) header_size = header_size << 8 | uint64_t(data[i]);
  if (header_size > kMaxHeaderBytes || header_size > data.size() - 8)
    fail(fmt::format("header length {} exceeds the file size {}", header_size, data.size()));
  const std::span<const std::byte> body = data.subspan(8 + header_size);

  nlohmann::json header;
  try {
    header = nlohmann::json::parse(reinterpret_cast<const char*>(data.data() + 8),
                                   reinterpret_cast<const char*>(data.data() + 8 + header_size));
  } catch (const nlohmann::json::exception& e) {
    fail(fmt::format("header is not valid JSON ({})", e.what()));
  }
  if (!header.is_object()) fail("header is not a JSON object");

  std::vector<std::pair<uint64_t, std::string>> ranges;  // (start, name), for overlap checks
  for (const auto& item : header.items()) {
    // Named copies: lambdas cannot capture structured bindings before clang 16.
    const std::string& name = item.key();
    const nlohmann::json& entry = item.value();
    if (name == "__metadata__") {
      if (!entry.is_object()) fail("__metadata__ is not a JSON object");
      for (const auto& [key, value] : entry.items()) {
        if (!value.is_string()) fail(fmt::format("metadata '{}' is not a string", key));
        metadata_[key] = value.get<std::string>();
      }
      continue;
    }
    auto bad = [&](const std::string& what) { fail(fmt::format("tensor '{}': {}", name, what)); };
    if (!entry.is_object()) bad("entry is not a JSON object");
    if (!entry.contains("dtype") || !entry["dtype"].is_string()) bad("missing dtype");
    const std::string dtype = entry["dtype"].get<std::string>();
    TensorInfo info{};
    if (dtype == "F32")
      info.dtype = DType::F32;
    else if (dtype == "BF16")
      info.dtype = DType::BF16;
    else
      bad(fmt::format("dtype {} is not supported (F32 or BF16)", dtype));

    if (!entry.contains("shape") || !entry["shape"].is_array()) bad("missing shape");
    uint64_t elements = 1;
    for (const auto& dim : entry["shape"]) {
      if (!dim.is_number_unsigned() || dim.get<uint64_t>() > (uint64_t{1} << 32))
        bad("shape has a dimension that is not a size");
      info.shape.push_back(int64_t(dim.get<uint64_t>()));
      elements *= dim.get<uint64_t>();
      if (elements > (uint64_t{1} << 40)) bad("shape is too large");
    }
    const auto& offsets = entry.contains("data_offsets") ? entry["data_offsets"] : nlohmann::json();
    if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned() ||
        !offsets[1].is_number_unsigned())
      bad("data_offsets must be [begin, end]");
    const uint64_t begin = offsets[0].get<uint64_t>(), end = offsets[1].get<uint64_t>();
    if (begin > end || end > body.size())
      bad(fmt::format("data_offsets [{}, {}] fall outside the {} data bytes", begin, end,
                      body.size()));
    if (end - begin != elements * dtype_size(info.dtype))
      bad(fmt::format("data_offsets span {} bytes but shape {} of {} needs {}", end - begin,
                      shape_text(info.shape), dtype, elements * dtype_size(info.dtype)));
    info.bytes = body.subspan(begin, end - begin);
    if (end > begin) ranges.emplace_back(begin, name);
    tensors_.emplace(name, std::move(info));
  }
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i) {
    const TensorInfo& previous = tensors_.at(ranges[i - 1].second);
    if (ranges[i - 1].first + previous.bytes.size() > ranges[i].first)
      fail(fmt::format("tensor '{}': data overlaps tensor '{}'", ranges[i].second,
                       ranges[i - 1].second));
  }
}

const std::string& SafetensorsFile::meta(const std::string& key) const {
  const auto it = metadata_.find(key);
  if (it == metadata_.end()) fail(fmt::format("metadata '{}' is missing", key));
  return it->second;
}

std::vector<float> SafetensorsFile::read(const std::string& name,
                                         const std::vector<int64_t>& shape) const {
  const auto it = tensors_.find(name);
  if (it == tensors_.end()) fail(fmt::format("tensor '{}' is missing", name));
  const TensorInfo& info = it->second;
  if (info.shape != shape)
    fail(fmt::format("tensor '{}' has shape {}, expected {}", name, shape_text(info.shape),
                     shape_text(shape)));
  static_assert(std::endian::native == std::endian::little, "weights are little-endian");
  const size_t count = info.bytes.size() / dtype_size(info.dtype);
  std::vector<float> values(count);
  if (info.dtype == DType::F32) {
    std::memcpy(values.data(), info.bytes.data(), info.bytes.size());
  } else {
    for (size_t i = 0; i < count; ++i) {
      uint16_t half;
      std::memcpy(&half, info.bytes.data() + 2 * i, 2);
      values[i] = std::bit_cast<float>(uint32_t(half) << 16);
    }
  }
  return values;
}

}  // namespace avocet::nn
