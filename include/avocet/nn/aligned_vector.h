// Vectors whose data starts on a cache line (64 bytes, one AVX-512 register), for the network's
// packed weights and the kernels' scratch buffers: their whole-register loads and stores then
// never straddle two cache lines. With malloc's 16-byte alignment they could, depending on the
// heap's layout: a change elsewhere in the program once made the attention kernel 9% slower
// (src/nn/README.md#network-speed).
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace avocet::nn {

template <class T>
struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlignment{64};

  CacheLineAllocator() = default;
  template <class U>
  CacheLineAllocator(const CacheLineAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kAlignment)); }
  void deallocate(T* p, std::size_t) noexcept { ::operator delete(p, kAlignment); }

  template <class U>
  bool operator==(const CacheLineAllocator<U>&) const noexcept {
    return true;
  }
};

template <class T>
using AlignedVector = std::vector<T, CacheLineAllocator<T>>;

}  // namespace avocet::nn
