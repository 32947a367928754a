// The one AlignUp, for host and device code alike (header-only, no heap; rules/ and the runtime use
// it as well as the host libraries).
#pragma once

namespace arenaplan {

// Smallest multiple of `alignment` (> 0) that is >= value. The caller keeps value + alignment in
// range: every use works below 2^63, or on sizes bounded by rules/limits.h.
template <typename T>
constexpr T AlignUp(T value, T alignment) {
  const T rem = value % alignment;
  return rem == 0 ? value : value + (alignment - rem);
}

}  // namespace arenaplan
