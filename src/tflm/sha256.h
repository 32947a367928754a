// SHA-256 (FIPS 180-4), for naming the model an exported C header belongs to. O(n).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace arenaplan::tflm {

// Lower-case hex digest of `size` bytes at `data`.
std::string Sha256Hex(const uint8_t* data, size_t size);

}  // namespace arenaplan::tflm
