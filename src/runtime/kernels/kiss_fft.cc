#include "runtime/kernels/kiss_fft.h"

namespace arenaplan::rt {

bool KissFactor(int32_t n, int32_t* factors) {
  int32_t p = 4;
  const double floor_sqrt = std::floor(std::sqrt(static_cast<double>(n)));
  int32_t used = 0;
  do {
    while (n % p) {
      switch (p) {
        case 4: p = 2; break;
        case 2: p = 3; break;
        default: p += 2; break;
      }
      if (p > floor_sqrt) p = n;
    }
    if (p < 2 || p > 5 || used == kKissMaxFactors) return false;
    n /= p;
    factors[2 * used] = p;
    factors[2 * used + 1] = n;
    ++used;
  } while (n > 1);
  return true;
}

}  // namespace arenaplan::rt
