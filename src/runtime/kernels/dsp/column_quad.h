// The int8 matrix step of the fast convolutions: one output channel times four output pixels per
// pass over the reduction depth k, on dual 16-bit multiply-accumulates.
//
// A column is the k input values one output pixel reads (its im2col row). A column quad is four
// of them widened to int16 with the input offset already added (so padding, the input zero point,
// becomes 0) and laid out for Smlad: for each group of four k values, eight words
//   [p0: (x0, x2), (x1, x3)] [p1: ...] [p2: ...] [p3: ...]
// matching Sxtb16 / Sxtb16Ror8 of a 4-byte weight word; then the k % 4 tail as four int16 per
// value (p0, p1, p2, p3). A quad takes 8 k bytes. Widening once per four pixels lets every output
// channel reuse it: per four k values the loop is one weight load, two Sxtb16 and eight Smlad for
// 16 multiply-accumulates, the weight widening shared by the four pixels. Sums wrap mod 2^32 like
// the reference kernels' int32 accumulators, so the order does not matter. O(k) per call.
#pragma once

#include <cstdint>

#include "runtime/kernels/dsp/intrinsics.h"

namespace arenaplan::rt::dsp {

inline uint32_t ColumnQuadBytes(int32_t k) { return 8u * static_cast<uint32_t>(k); }

// Writes the k / 4 groups [g0, g0 + n) of pixel p from `x` (4 n int8 values), adding offset.
inline void ExpandGroups(const int8_t* x, int32_t n, uint32_t offset, uint32_t* quad, int32_t g0, int32_t p) {
  uint32_t* o = quad + 8 * g0 + 2 * p;
  for (const int8_t* end = x + 4 * n; x != end; x += 4, o += 8) {  // an end pointer: no counter
    const uint32_t v = Load32(x);
    o[0] = Sxtab16(offset, v);
    o[1] = Sxtab16Ror8(offset, v);
  }
}

// The same groups of pixel p as padding (all 0).
inline void ZeroGroups(int32_t n, uint32_t* quad, int32_t g0, int32_t p) {
  uint32_t* o = quad + 8 * g0 + 2 * p;
  for (int32_t g = 0; g < n; ++g, o += 8) o[0] = o[1] = 0;
}

// Pixel p's whole column from k contiguous int8 values (im2col staging or an input pixel).
inline void ExpandColumn(const int8_t* x, int32_t k, int32_t offset, uint32_t* quad, int32_t p) {
  ExpandGroups(x, k / 4, Splat16(offset), quad, 0, p);
  int16_t* tail = reinterpret_cast<int16_t*>(quad + 8 * (k / 4));
  for (int32_t j = 4 * (k / 4); j < k; ++j) tail[4 * (j - 4 * (k / 4)) + p] = static_cast<int16_t>(x[j] + offset);
}

// acc[p] += w . column p over k, p = 0..3. Not inlined: on its own the loop keeps every value in a
// register. On the device the group loop is the same steps in assembly, the column words fetched
// with two LDM: 16 instructions per 16 multiply-accumulates, where GCC's schedule of the C takes 21
// (it loads the eight words one by one).
__attribute__((noinline)) inline void DotColumnQuad(const int8_t* w, const uint32_t* quad, int32_t k, int32_t* acc) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
#if ARENAPLAN_DSP_NATIVE
  if (k >= 4) {
    uint32_t groups = static_cast<uint32_t>(k / 4), v, we;
    register uint32_t q0 __asm("r8");  // LDM needs its registers in ascending order
    register uint32_t q1 __asm("r9");
    register uint32_t q2 __asm("r10");
    register uint32_t q3 __asm("r11");
    __asm volatile(
        "1:\n\t"
        "ldr %[v], [%[w]], #4\n\t"
        "ldmia %[quad]!, {%[q0], %[q1], %[q2], %[q3]}\n\t"
        "sxtb16 %[we], %[v]\n\t"
        "sxtb16 %[v], %[v], ror #8\n\t"
        "smlad %[a0], %[we], %[q0], %[a0]\n\t"
        "smlad %[a0], %[v], %[q1], %[a0]\n\t"
        "smlad %[a1], %[we], %[q2], %[a1]\n\t"
        "smlad %[a1], %[v], %[q3], %[a1]\n\t"
        "ldmia %[quad]!, {%[q0], %[q1], %[q2], %[q3]}\n\t"
        "smlad %[a2], %[we], %[q0], %[a2]\n\t"
        "smlad %[a2], %[v], %[q1], %[a2]\n\t"
        "smlad %[a3], %[we], %[q2], %[a3]\n\t"
        "smlad %[a3], %[v], %[q3], %[a3]\n\t"
        "subs %[groups], %[groups], #1\n\t"
        "bne 1b"
        : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [w] "+r"(w), [quad] "+r"(quad),
          [groups] "+r"(groups), [v] "=&r"(v), [we] "=&r"(we), [q0] "=&r"(q0), [q1] "=&r"(q1), [q2] "=&r"(q2),
          [q3] "=&r"(q3)
        :
        : "cc", "memory");
  }
#else
  for (const uint32_t* end = quad + 8 * (k / 4); quad != end; quad += 8, w += 4) {
    const uint32_t v = Load32(w);
    const uint32_t we = Sxtb16(v), wo = Sxtb16Ror8(v);
    a0 = Smlad(we, quad[0], a0);
    a0 = Smlad(wo, quad[1], a0);
    a1 = Smlad(we, quad[2], a1);
    a1 = Smlad(wo, quad[3], a1);
    a2 = Smlad(we, quad[4], a2);
    a2 = Smlad(wo, quad[5], a2);
    a3 = Smlad(we, quad[6], a3);
    a3 = Smlad(wo, quad[7], a3);
  }
#endif
  const int16_t* tail = reinterpret_cast<const int16_t*>(quad);
  for (uint32_t j = 0; j < (static_cast<uint32_t>(k) & 3u); ++j, tail += 4) {
    const int32_t wj = w[j];
    a0 = static_cast<int32_t>(static_cast<uint32_t>(a0) + static_cast<uint32_t>(wj * tail[0]));
    a1 = static_cast<int32_t>(static_cast<uint32_t>(a1) + static_cast<uint32_t>(wj * tail[1]));
    a2 = static_cast<int32_t>(static_cast<uint32_t>(a2) + static_cast<uint32_t>(wj * tail[2]));
    a3 = static_cast<int32_t>(static_cast<uint32_t>(a3) + static_cast<uint32_t>(wj * tail[3]));
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

}  // namespace arenaplan::rt::dsp
