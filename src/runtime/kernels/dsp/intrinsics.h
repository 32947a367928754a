// The Arm DSP-extension (SIMD32) instructions the fast int8 kernels are written in, one inline
// function each. On a target with the extension (__ARM_FEATURE_DSP: Cortex-M4, M7, M33, M35P,
// M55) each is one instruction; everywhere else (the host, Cortex-M0/M3) it is an exact C++
// emulation, so the same kernels run and are tested on the host bit for bit. Packed values are
// uint32_t: two signed 16-bit halves [lo, hi] or four signed bytes [b0, b1, b2, b3].
//   Sxtb16(x)          = [b0, b2] sign-extended        Sxtb16Ror8(x)      = [b1, b3]
//   Sxtab16(a, x)      = [a.lo + b0, a.hi + b2]        Sxtab16Ror8(a, x)  = [a.lo + b1, a.hi + b3]
//   Smlad(a, b, acc)   = acc + a.lo * b.lo + a.hi * b.hi (wrapping)
//   Smlabb(a, b, acc)  = acc + a.lo * b.lo             Smlatt(a, b, acc)  = acc + a.hi * b.hi
//   Pack16(lo, hi)     = [lo, hi] from two int32 values (low 16 bits of each)
//   MaxInt8x4(a, b)    = bytewise signed max           MinInt8x4(a, b)    = bytewise signed min
//   Ssat8(x)           = x clamped to [-128, 127]
// Sxtb16 and Sxtb16Ror8 of one word give its even and odd bytes: a dot product of two int8 vectors
// is Smlad over both halves of each 4-byte group, in any order (integer sums are exact mod 2^32).
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__ARM_FEATURE_DSP) && !defined(ARENAPLAN_DSP_EMULATE)
#include <arm_acle.h>
#define ARENAPLAN_DSP_NATIVE 1
#else
#define ARENAPLAN_DSP_NATIVE 0
#endif

namespace arenaplan::rt::dsp {

// Four bytes from any address (Cortex-M3 and later load unaligned words in one LDR).
inline uint32_t Load32(const void* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
inline void Store32(void* p, uint32_t v) { std::memcpy(p, &v, sizeof(v)); }

#if ARENAPLAN_DSP_NATIVE

inline uint32_t Sxtb16(uint32_t x) { return __sxtb16(x); }
inline uint32_t Sxtb16Ror8(uint32_t x) {
  uint32_t r;
  __asm("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(x));  // GCC does not fold the rotation itself
  return r;
}
inline uint32_t Sxtab16(uint32_t a, uint32_t x) { return __sxtab16(a, x); }
inline uint32_t Sxtab16Ror8(uint32_t a, uint32_t x) {
  uint32_t r;
  __asm("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(a), "r"(x));
  return r;
}
inline int32_t Smlad(uint32_t a, uint32_t b, int32_t acc) { return __smlad(a, b, acc); }
inline int32_t Smlabb(uint32_t a, uint32_t b, int32_t acc) { return __smlabb(a, b, acc); }
inline int32_t Smlatt(uint32_t a, uint32_t b, int32_t acc) { return __smlatt(a, b, acc); }
inline int32_t Ssat8(int32_t x) { return __ssat(x, 8); }
inline uint32_t Pack16(int32_t lo, int32_t hi) {
  uint32_t r;
  __asm("pkhbt %0, %1, %2, lsl #16" : "=r"(r) : "r"(lo), "r"(hi));
  return r;
}
inline uint32_t MaxInt8x4(uint32_t a, uint32_t b) {
  uint32_t r, t;
  // SSUB8 sets the GE flags per byte (a >= b), SEL picks a's bytes where set: one asm block so
  // that nothing can run between them.
  __asm("ssub8 %1, %2, %3\n\tsel %0, %2, %3" : "=r"(r), "=&r"(t) : "r"(a), "r"(b) : "cc");
  return r;
}
inline uint32_t MinInt8x4(uint32_t a, uint32_t b) {
  uint32_t r, t;
  __asm("ssub8 %1, %2, %3\n\tsel %0, %3, %2" : "=r"(r), "=&r"(t) : "r"(a), "r"(b) : "cc");
  return r;
}

#else  // exact emulation

namespace emulate {
inline int32_t Byte(uint32_t x, int k) { return static_cast<int8_t>(static_cast<uint8_t>(x >> (8 * k))); }
inline int32_t Lo(uint32_t x) { return static_cast<int16_t>(static_cast<uint16_t>(x)); }
inline int32_t Hi(uint32_t x) { return static_cast<int16_t>(static_cast<uint16_t>(x >> 16)); }
inline uint32_t Halves(int32_t lo, int32_t hi) {
  return (static_cast<uint32_t>(lo) & 0xFFFFu) | (static_cast<uint32_t>(hi) << 16);
}
inline int32_t Wrap(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }
}  // namespace emulate

inline uint32_t Sxtb16(uint32_t x) { return emulate::Halves(emulate::Byte(x, 0), emulate::Byte(x, 2)); }
inline uint32_t Sxtb16Ror8(uint32_t x) { return emulate::Halves(emulate::Byte(x, 1), emulate::Byte(x, 3)); }
inline uint32_t Sxtab16(uint32_t a, uint32_t x) {
  return emulate::Halves(emulate::Lo(a) + emulate::Byte(x, 0), emulate::Hi(a) + emulate::Byte(x, 2));
}
inline uint32_t Sxtab16Ror8(uint32_t a, uint32_t x) {
  return emulate::Halves(emulate::Lo(a) + emulate::Byte(x, 1), emulate::Hi(a) + emulate::Byte(x, 3));
}
inline int32_t Smlad(uint32_t a, uint32_t b, int32_t acc) {
  using namespace emulate;
  return Wrap(static_cast<int64_t>(acc) + Lo(a) * Lo(b) + Hi(a) * Hi(b));
}
inline int32_t Smlabb(uint32_t a, uint32_t b, int32_t acc) {
  return emulate::Wrap(static_cast<int64_t>(acc) + emulate::Lo(a) * emulate::Lo(b));
}
inline int32_t Smlatt(uint32_t a, uint32_t b, int32_t acc) {
  return emulate::Wrap(static_cast<int64_t>(acc) + emulate::Hi(a) * emulate::Hi(b));
}
inline uint32_t Pack16(int32_t lo, int32_t hi) { return emulate::Halves(lo, hi); }
inline int32_t Ssat8(int32_t x) { return x < -128 ? -128 : (x > 127 ? 127 : x); }
// Bytewise signed max (kMax) or min of a and b.
template <bool kMax>
inline uint32_t BytewiseExtreme(uint32_t a, uint32_t b) {
  uint32_t r = 0;
  for (int k = 0; k < 4; ++k) {
    const int32_t x = emulate::Byte(a, k), y = emulate::Byte(b, k);
    r |= (static_cast<uint32_t>((x >= y) == kMax ? x : y) & 0xFFu) << (8 * k);
  }
  return r;
}
inline uint32_t MaxInt8x4(uint32_t a, uint32_t b) { return BytewiseExtreme<true>(a, b); }
inline uint32_t MinInt8x4(uint32_t a, uint32_t b) { return BytewiseExtreme<false>(a, b); }

#endif

// Both halves set to v (e.g. an input offset added by Sxtab16).
inline uint32_t Splat16(int32_t v) { return Pack16(v, v); }
// All four bytes set to the low byte of v.
inline uint32_t Splat8(int32_t v) { return (static_cast<uint32_t>(v) & 0xFFu) * 0x01010101u; }

}  // namespace arenaplan::rt::dsp
