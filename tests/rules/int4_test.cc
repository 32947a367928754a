// rules/int4.h against hand-unpacked bytes: low nibble first, sign-extended, an odd last value in
// the low nibble of the last byte (whose high nibble is ignored).
#include "rules/int4.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace arenaplan::rules {
namespace {

TEST(Int4, UnpacksLowNibbleFirstWithSignExtension) {
  // 0x21: 1 then 2; 0x8F: -1 (0xF) then -8 (0x8); 0xE7 with 5 elements: 7 and the 0xE is ignored.
  const uint8_t packed[] = {0x21, 0x8F, 0xE7};
  std::vector<int8_t> out(6, 99);
  UnpackInt4(packed, 5, out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{1, 2, -1, -8, 7, 99}));  // out[5] untouched
  UnpackInt4(packed, 6, out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{1, 2, -1, -8, 7, -2}));
}

TEST(Int4, EveryNibbleValue) {
  for (uint32_t lo = 0; lo < 16; ++lo) {
    for (uint32_t hi = 0; hi < 16; ++hi) {
      const uint8_t byte = static_cast<uint8_t>(hi << 4 | lo);
      int8_t out[2];
      UnpackInt4(&byte, 2, out);
      EXPECT_EQ(out[0], static_cast<int32_t>(lo) - (lo >= 8 ? 16 : 0));
      EXPECT_EQ(out[1], static_cast<int32_t>(hi) - (hi >= 8 ? 16 : 0));
    }
  }
}

TEST(Int4, SizesAndTheOpsThatUnpack) {
  EXPECT_EQ(PackedInt4Bytes(0), 0u);
  EXPECT_EQ(PackedInt4Bytes(1), 1u);
  EXPECT_EQ(PackedInt4Bytes(81), 41u);
  EXPECT_EQ(Int4UnpackScratchBytes(81), 81u);
  EXPECT_TRUE(UnpacksInt4Filter(static_cast<int32_t>(tfl::BuiltinOperator::FULLY_CONNECTED)));
  EXPECT_TRUE(UnpacksInt4Filter(static_cast<int32_t>(tfl::BuiltinOperator::CONV_2D)));
  EXPECT_TRUE(UnpacksInt4Filter(static_cast<int32_t>(tfl::BuiltinOperator::DEPTHWISE_CONV_2D)));
  EXPECT_FALSE(UnpacksInt4Filter(static_cast<int32_t>(tfl::BuiltinOperator::TRANSPOSE_CONV)));
  EXPECT_FALSE(UnpacksInt4Filter(static_cast<int32_t>(tfl::BuiltinOperator::BATCH_MATMUL)));
}

}  // namespace
}  // namespace arenaplan::rules
