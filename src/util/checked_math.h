// Overflow-checked integer arithmetic for sizes computed from untrusted input.
#pragma once

#include <cstdint>
#include <optional>

#include "util/align.h"

namespace arenaplan {

inline std::optional<uint64_t> CheckedMul(uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline std::optional<uint64_t> CheckedAdd(uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// Rounds up to a multiple of `alignment` (> 0); nullopt on overflow.
inline std::optional<uint64_t> CheckedAlignUp(uint64_t value, uint64_t alignment) {
  if (!CheckedAdd(value, alignment - 1)) return std::nullopt;
  return AlignUp(value, alignment);
}

}  // namespace arenaplan
