#include "avocet/nn/default_net.h"

#include <array>
#include <cstddef>
#include <iterator>
#include <mutex>
#include <span>

#include "avocet/nn/cpu_level.h"

#ifdef AVOCET_EMBEDDED_NET
// Defined by the generated assembly file embedded_net.S (.incbin of the weights file).
extern "C" const std::byte avocet_embedded_net[];
extern "C" const std::byte avocet_embedded_net_end[];
#endif

namespace avocet::nn {

static_assert(
    [] {
      for (const Precision p : kPrecisions)
        if (std::size_t(p) >= std::size(kPrecisions)) return false;
      return true;
    }(),
    "default_network indexes its copies by Precision's value");

std::shared_ptr<const Network> default_network(Precision precision) {
#ifdef AVOCET_EMBEDDED_NET
  // One copy per precision (Auto is resolved first, so it shares its copy), indexed by the
  // enum's value: one slot for each entry of kPrecisions. A copy is packed for the CPU level
  // it was loaded at; a test that lowers the level (nn/cpu_level.h) gets one packed anew.
  struct Copy {
    CpuLevel level = CpuLevel::Baseline;
    std::shared_ptr<const Network> network;
  };
  static std::mutex mutex;
  static std::array<Copy, std::size(kPrecisions)> networks;
  precision = resolve(precision);
  const std::lock_guard lock(mutex);
  Copy& copy = networks[size_t(precision)];
  if (!copy.network || copy.level != cpu_level()) {
    const std::span<const std::byte> bytes(avocet_embedded_net,
                                           size_t(avocet_embedded_net_end - avocet_embedded_net));
    copy = {cpu_level(),
            Network::load(SafetensorsFile::from_memory(bytes, "embedded " AVOCET_EMBEDDED_NET),
                          precision)};
  }
  return copy.network;
#else
  (void)precision;
  throw WeightsError("this build embeds no default net (weights/ had none): pass a weights file");
#endif
}

std::shared_ptr<const Network> load_network(const std::string& path, Precision precision) {
  return path.empty() ? default_network(precision) : Network::load_file(path, precision);
}

}  // namespace avocet::nn
