#include "mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace avocet::syzygy {

std::unique_ptr<MappedFile> MappedFile::open(const std::string& path, std::string& error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = std::string("cannot open: ") + std::strerror(errno);
    return nullptr;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
    error = S_ISDIR(st.st_mode) ? "is a directory, not a table file" : "not a non-empty file";
    ::close(fd);
    return nullptr;
  }
  const size_t size = size_t(st.st_size);
  void* data = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  const int saved = errno;
  ::close(fd);
  if (data == MAP_FAILED) {
    error = std::string("cannot map: ") + std::strerror(saved);
    return nullptr;
  }
  ::madvise(data, size, MADV_RANDOM);
  return std::unique_ptr<MappedFile>(new MappedFile(static_cast<const uint8_t*>(data), size));
}

MappedFile::~MappedFile() { ::munmap(const_cast<uint8_t*>(data_), size_); }

}  // namespace avocet::syzygy
