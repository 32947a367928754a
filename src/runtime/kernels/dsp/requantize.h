// The output stage of the fast int8 kernels: runtime/quantization.h's
// MultiplyByQuantizedMultiplier(x, m, shift) (TFLM's double rounding: a rounding doubling high
// multiply, then a rounding right shift by -shift, half away from zero) in a few instructions,
// equal for every int32 x and every multiplier m >= 0 that QuantizeMultiplier gives.
//
// Why it is exact. The high multiply truncated toward zero as TFLM writes it equals
// floor((x m + 2^30) / 2^31) for either sign of x m (m >= 0 rules out its one saturating case).
// For r = -shift >= 1 the rounding shift of h is floor((h + 2^(r-1) - [h < 0]) / 2^r), and
// floor((floor(a / b) + c) / d) = floor((a + c b) / (b d)) for integers, so both roundings are one:
//   result = floor((x m + 2^30 + 2^(30+r) - [h < 0] 2^31) / 2^(31+r)).
// [h < 0] may be replaced by [x < 0]: they differ only when -2^30 <= x m < 0, where both give 0.
// So: a 64-bit constant, minus 2^31 for negative x, plus x m (SMLAL), and the high word shifted
// right by r - 1. Shifts >= 0 (multipliers >= 0.5, rare in int8 models) take TFLM's steps.
// O(1) per value.
#pragma once

#include <cstdint>

#include "runtime/kernels/dsp/intrinsics.h"

namespace arenaplan::rt::dsp {

struct RequantParams {
  int32_t multiplier;  // Q0.31 in [0, 2^31)
  int32_t high_shift;  // r - 1 for shift = -r < 0; -1 for shift >= 0
  uint32_t c_lo;       // shift < 0: the constant 2^30 + 2^(30+r), low and high words
  int32_t c_hi;        // shift >= 0: c_lo holds the left shift (at most 31)
};

inline RequantParams MakeRequant(int32_t multiplier, int32_t shift) {
  RequantParams p;
  p.multiplier = multiplier;
  if (shift < 0) {
    const int32_t r = shift < -31 ? 31 : -shift;  // TFLM clamps the exponent to 31
    const uint64_t c = (uint64_t{1} << 30) + (uint64_t{1} << (30 + r));
    p.high_shift = r - 1;
    p.c_lo = static_cast<uint32_t>(c);
    p.c_hi = static_cast<int32_t>(c >> 32);
  } else {
    p.high_shift = -1;
    p.c_lo = static_cast<uint32_t>(shift > 31 ? 31 : shift);
    p.c_hi = 0;
  }
  return p;
}

// TFLM's steps for shift >= 0: wrapping left shift, then floor((x m + 2^30) / 2^31).
inline int32_t RequantizeLeft(int32_t acc, const RequantParams& p) {
  const int32_t x = static_cast<int32_t>(static_cast<uint32_t>(acc) << p.c_lo);
  return static_cast<int32_t>((static_cast<int64_t>(x) * p.multiplier + (int64_t{1} << 30)) >> 31);
}

// The one-pass formula, for shift < 0 (p.high_shift >= 0).
inline int32_t RequantizeRight(int32_t acc, const RequantParams& p) {
  const int64_t c = static_cast<int64_t>((static_cast<uint64_t>(static_cast<uint32_t>(p.c_hi)) << 32) | p.c_lo);
  const int64_t negative = static_cast<int64_t>(static_cast<uint32_t>(acc) & 0x80000000u);  // [acc < 0] 2^31
  const int64_t s = c - negative + static_cast<int64_t>(acc) * p.multiplier;
  return static_cast<int32_t>(s >> 32) >> p.high_shift;
}

// == MultiplyByQuantizedMultiplier(acc, multiplier, shift) for shift in [-31, 31].
inline int32_t Requantize(int32_t acc, const RequantParams& p) {
  return p.high_shift < 0 ? RequantizeLeft(acc, p) : RequantizeRight(acc, p);
}

// Requantized, offset and clamped to [lo, hi].
inline int32_t RequantizeClamp(int32_t acc, const RequantParams& p, int32_t offset, int32_t lo, int32_t hi) {
  const int32_t v = Requantize(acc, p) + offset;
  return v < lo ? lo : (v > hi ? hi : v);
}

// out[i * step] = RequantizeClamp(acc[i], ...) for i < n: one loop per kind of shift and of
// clamp, so that none carries another's steps, every value in a register. kFullRange: [lo, hi] is
// the whole int8 range (no activation, or one the output's zero point makes void), one SSAT.
template <bool kRightShift, bool kFullRange>
inline void RequantizeRunOf(const int32_t* acc, int32_t n, RequantParams p, int32_t offset, int32_t lo, int32_t hi,
                            int32_t step, int8_t* out) {
  for (const int32_t* end = acc + n; acc != end; ++acc, out += step) {
    int32_t v = (kRightShift ? RequantizeRight(*acc, p) : RequantizeLeft(*acc, p)) + offset;
    if (kFullRange) {
      v = Ssat8(v);
    } else {
      v = v < lo ? lo : v;
      v = v > hi ? hi : v;
    }
    *out = static_cast<int8_t>(v);
  }
}

__attribute__((noinline)) inline void RequantizeRun(const int32_t* acc, int32_t n, RequantParams p, int32_t offset,
                                                    int32_t lo, int32_t hi, int32_t step, int8_t* out) {
  const bool full = lo <= -128 && hi >= 127;
  if (p.high_shift >= 0) {
    full ? RequantizeRunOf<true, true>(acc, n, p, offset, lo, hi, step, out)
         : RequantizeRunOf<true, false>(acc, n, p, offset, lo, hi, step, out);
  } else {
    full ? RequantizeRunOf<false, true>(acc, n, p, offset, lo, hi, step, out)
         : RequantizeRunOf<false, false>(acc, n, p, offset, lo, hi, step, out);
  }
}

}  // namespace arenaplan::rt::dsp
