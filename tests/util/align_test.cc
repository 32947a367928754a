// util/align.h, util/checked_math.h and model/device_status.h.
#include <gtest/gtest.h>

#include <cstdint>

#include "util/align.h"
#include "util/checked_math.h"

namespace arenaplan {
namespace {

TEST(AlignUp, RoundsUpToMultiples) {
  EXPECT_EQ(AlignUp<uint32_t>(0, 16), 0u);
  EXPECT_EQ(AlignUp<uint32_t>(1, 16), 16u);
  EXPECT_EQ(AlignUp<uint32_t>(16, 16), 16u);
  EXPECT_EQ(AlignUp<int64_t>(17, 12), 24);
  static_assert(AlignUp<uint64_t>(100, 64) == 128, "constexpr");
}

TEST(CheckedAlignUp, DetectsOverflow) {
  EXPECT_EQ(CheckedAlignUp(UINT64_MAX - 15, 16), UINT64_MAX - 15);
  EXPECT_FALSE(CheckedAlignUp(UINT64_MAX - 14, 16).has_value());
  EXPECT_EQ(CheckedAlignUp(33, 16), 48u);
}

}  // namespace
}  // namespace arenaplan
