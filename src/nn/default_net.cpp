#include "avocet/nn/default_net.h"

#include <cstddef>
#include <mutex>
#include <span>

#ifdef AVOCET_EMBEDDED_NET
// Defined by the generated assembly file embedded_net.S (.incbin of the weights file).
extern "C" const std::byte avocet_embedded_net[];
extern "C" const std::byte avocet_embedded_net_end[];
#endif

namespace avocet::nn {

std::shared_ptr<const Network> default_network() {
#ifdef AVOCET_EMBEDDED_NET
  static std::once_flag once;
  static std::shared_ptr<const Network> network;
  std::call_once(once, [] {
    const std::span<const std::byte> bytes(avocet_embedded_net,
                                           size_t(avocet_embedded_net_end - avocet_embedded_net));
    network = Network::load(SafetensorsFile::from_memory(bytes, "embedded " AVOCET_EMBEDDED_NET));
  });
  return network;
#else
  throw WeightsError("this build embeds no default net (weights/ had none): pass a weights file");
#endif
}

std::shared_ptr<const Network> load_network(const std::string& path) {
  return path.empty() ? default_network() : Network::load_file(path);
}

}  // namespace avocet::nn
