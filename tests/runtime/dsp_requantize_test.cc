// The fast kernels' requantization (kernels/dsp/requantize.h) against the reference
// MultiplyByQuantizedMultiplier on every shift, edge accumulators and multipliers, and random
// values; and the DSP instruction emulation (kernels/dsp/intrinsics.h) on hand-worked words.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "runtime/kernels/dsp/intrinsics.h"
#include "runtime/kernels/dsp/requantize.h"
#include "runtime/quantization.h"

namespace arenaplan::testing {
namespace {

using rt::dsp::MakeRequant;
using rt::dsp::Requantize;

std::vector<int32_t> EdgeValues() {
  std::vector<int32_t> v = {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::min() + 1, -1, 0, 1,
                            std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::max() - 1};
  for (int k = 0; k < 31; ++k) {
    const int32_t p = static_cast<int32_t>(1u << k);
    for (int32_t d : {-1, 0, 1}) {
      v.push_back(p + d);
      v.push_back(-p + d);
    }
  }
  return v;
}

TEST(DspRequantize, EqualsReferenceOnEdgeValuesAndEveryShift) {
  const std::vector<int32_t> multipliers = {0, 1, 1 << 30, (1 << 30) + 1, 1518500250, 2147483646, 2147483647};
  for (int32_t shift = -31; shift <= 31; ++shift) {
    for (int32_t m : multipliers) {
      const auto p = MakeRequant(m, shift);
      for (int32_t acc : EdgeValues()) {
        ASSERT_EQ(Requantize(acc, p), rt::MultiplyByQuantizedMultiplier(acc, m, shift))
            << "acc " << acc << " multiplier " << m << " shift " << shift;
      }
    }
  }
}

TEST(DspRequantize, EqualsReferenceOnRandomValues) {
  std::mt19937 rng(12);
  std::uniform_int_distribution<int32_t> any(std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
  std::uniform_int_distribution<int32_t> mult(1 << 30, std::numeric_limits<int32_t>::max());
  std::uniform_int_distribution<int32_t> shifts(-31, 31), bits(0, 31);
  for (int i = 0; i < 2000000; ++i) {
    const int32_t acc = any(rng) >> bits(rng), m = mult(rng), shift = shifts(rng);
    ASSERT_EQ(Requantize(acc, MakeRequant(m, shift)), rt::MultiplyByQuantizedMultiplier(acc, m, shift))
        << "acc " << acc << " multiplier " << m << " shift " << shift;
  }
}

TEST(DspIntrinsics, EmulationMatchesTheInstructionDefinitions) {
  using namespace rt::dsp;
  // bytes b0..b3 = 0x80 (-128), 0x7f (127), 0xff (-1), 0x01 (1)
  const uint32_t x = 0x01ff7f80u;
  EXPECT_EQ(Sxtb16(x), 0xffffff80u);                    // [b0, b2] = [-128, -1]
  EXPECT_EQ(Sxtb16Ror8(x), 0x0001007fu);                // [b1, b3] = [127, 1]
  EXPECT_EQ(Sxtab16(0x00030002u, x), 0x0002ff82u);      // [2 - 128, 3 - 1]
  EXPECT_EQ(Sxtab16Ror8(0xfffe0001u, x), 0xffff0080u);  // [1 + 127, -2 + 1]
  // [-3, 2] . [5, -7] + 100 = -15 - 14 + 100
  EXPECT_EQ(Smlad(0x0002fffdu, 0xfff90005u, 100), 71);
  EXPECT_EQ(Smlabb(0x0002fffdu, 0xfff90005u, 100), 85);
  EXPECT_EQ(Smlatt(0x0002fffdu, 0xfff90005u, 100), 86);
  // wraps mod 2^32: 2 * 32767 * 32767 + INT32_MAX = 4294836225 = 2^32 - 131071
  EXPECT_EQ(Smlad(0x7fff7fffu, 0x7fff7fffu, std::numeric_limits<int32_t>::max()), -131071);
  EXPECT_EQ(Pack16(-2, 0x12345), 0x2345fffeu);
  EXPECT_EQ(MaxInt8x4(0x807f01ffu, 0x7f80ff00u), 0x7f7f0100u);
  EXPECT_EQ(MinInt8x4(0x807f01ffu, 0x7f80ff00u), 0x8080ffffu);
  EXPECT_EQ(Splat8(-3), 0xfdfdfdfdu);
}

}  // namespace
}  // namespace arenaplan::testing
