// util/align.h, util/checked_math.h and util/device_status.h.
#include <gtest/gtest.h>

#include <cstdint>

#include "util/align.h"
#include "util/checked_math.h"
#include "util/device_status.h"

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

TEST(DeviceStatus, OneMappingToExitClasses) {
  EXPECT_TRUE(StatusOf(rules::StatusCode::kOk, "").ok());
  EXPECT_EQ(ErrorCodeOf(rules::StatusCode::kInvalidModel), ErrorCode::kInvalidArgument);
  EXPECT_EQ(ErrorCodeOf(rules::StatusCode::kBadArgument), ErrorCode::kInvalidArgument);
  EXPECT_EQ(ErrorCodeOf(rules::StatusCode::kKernelError), ErrorCode::kInvalidArgument);
  EXPECT_EQ(ErrorCodeOf(rules::StatusCode::kUnsupported), ErrorCode::kUnsupported);
  EXPECT_EQ(ErrorCodeOf(rules::StatusCode::kArenaFull), ErrorCode::kInfeasible);
  EXPECT_EQ(StatusOf(rules::StatusCode::kUnsupported, "too deep").message(), "too deep");
}

}  // namespace
}  // namespace arenaplan
