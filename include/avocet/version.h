#pragma once

namespace avocet {
inline constexpr const char* kVersion = "0.1.0";
}
