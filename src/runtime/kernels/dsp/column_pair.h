// The int8 matrix step of the fast convolutions: two output channels times two output pixels per
// pass over the reduction depth k, on dual 16-bit multiply-accumulates.
//
// A column is the k input values one output pixel reads (its im2col row), int8. A column pair is
// two of them widened to int16 with the input offset already added (so padding, stored as the
// input zero point, becomes 0) and laid out for Smlad: for each group of four k values
//   word 0 = [c0[0], c0[2]]  word 1 = [c0[1], c0[3]]  word 2 = [c1[0], c1[2]]  word 3 = [c1[1], c1[3]]
// matching Sxtb16 / Sxtb16Ror8 of a 4-byte weight word; then the k % 4 tail as int16 pairs
// (c0[j], c1[j]). A pair takes 4 * k bytes. Widening once per pixel pair lets every output channel
// reuse it: per four k values and two channels the loop is 2 weight loads, 4 Sxtb16 and 8 Smlad
// for 16 multiply-accumulates. Sums wrap mod 2^32 like the reference kernels' int32 accumulators,
// so the result is the same whatever the order. O(k) per call.
#pragma once

#include <cstdint>

#include "runtime/kernels/dsp/intrinsics.h"

namespace arenaplan::rt::dsp {

// Widens columns s0 and s1 (k bytes each; they may be the same) into `pair`, adding `offset`.
inline void ExpandColumnPair(const int8_t* s0, const int8_t* s1, int32_t k, int32_t offset, uint32_t* pair) {
  const uint32_t off = Splat16(offset);
  const int32_t groups = k / 4;
  for (int32_t g = 0; g < groups; ++g) {
    const uint32_t a = Load32(s0 + 4 * g), b = Load32(s1 + 4 * g);
    pair[0] = Sxtab16(off, a);
    pair[1] = Sxtab16Ror8(off, a);
    pair[2] = Sxtab16(off, b);
    pair[3] = Sxtab16Ror8(off, b);
    pair += 4;
  }
  int16_t* tail = reinterpret_cast<int16_t*>(pair);
  for (int32_t j = 4 * groups; j < k; ++j) {
    *tail++ = static_cast<int16_t>(s0[j] + offset);
    *tail++ = static_cast<int16_t>(s1[j] + offset);
  }
}

// acc[0..3] += (w0 . c0, w0 . c1, w1 . c0, w1 . c1) over k, for a pair made by ExpandColumnPair.
inline void DotColumnPair(const int8_t* w0, const int8_t* w1, const uint32_t* pair, int32_t k, int32_t* acc) {
  int32_t a00 = acc[0], a01 = acc[1], a10 = acc[2], a11 = acc[3];
  const uint32_t* end = pair + 4 * (k / 4);
  while (pair != end) {
    const uint32_t c0e = pair[0], c0o = pair[1], c1e = pair[2], c1o = pair[3];
    pair += 4;
    uint32_t w = Load32(w0);
    w0 += 4;
    uint32_t we = Sxtb16(w), wo = Sxtb16Ror8(w);
    a00 = Smlad(we, c0e, a00);
    a00 = Smlad(wo, c0o, a00);
    a01 = Smlad(we, c1e, a01);
    a01 = Smlad(wo, c1o, a01);
    w = Load32(w1);
    w1 += 4;
    we = Sxtb16(w);
    wo = Sxtb16Ror8(w);
    a10 = Smlad(we, c0e, a10);
    a10 = Smlad(wo, c0o, a10);
    a11 = Smlad(we, c1e, a11);
    a11 = Smlad(wo, c1o, a11);
  }
  const int16_t* tail = reinterpret_cast<const int16_t*>(pair);
  for (int32_t j = 0; j < k % 4; ++j) {
    const int32_t c0 = tail[2 * j], c1 = tail[2 * j + 1], x = w0[j], y = w1[j];
    a00 = static_cast<int32_t>(static_cast<uint32_t>(a00) + static_cast<uint32_t>(x * c0));
    a01 = static_cast<int32_t>(static_cast<uint32_t>(a01) + static_cast<uint32_t>(x * c1));
    a10 = static_cast<int32_t>(static_cast<uint32_t>(a10) + static_cast<uint32_t>(y * c0));
    a11 = static_cast<int32_t>(static_cast<uint32_t>(a11) + static_cast<uint32_t>(y * c1));
  }
  acc[0] = a00;
  acc[1] = a01;
  acc[2] = a10;
  acc[3] = a11;
}

}  // namespace arenaplan::rt::dsp
