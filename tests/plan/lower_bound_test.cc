#include "plan/lower_bound.h"

#include <gtest/gtest.h>

#include "plan/plan_testutil.h"

namespace arenaplan::plan {
namespace {
using testing::MakeProblem;

TEST(LowerBound, EmptyIsZero) { EXPECT_EQ(LiveBytesLowerBound(Problem{}), 0); }

TEST(LowerBound, PeakOfLiveBytes) {
  // Steps: 0 -> 10+50, 1 -> 10+20+50, 2 -> 20+30, 3 -> 30+40, 4 -> 40.
  EXPECT_EQ(LiveBytesLowerBound(MakeProblem({{10, 0, 1}, {20, 1, 2}, {30, 2, 3}, {40, 3, 4}, {50, 0, 1}})), 80);
}

TEST(LowerBound, InclusiveEndsAddUpOnlyWhenSharingAStep) {
  EXPECT_EQ(LiveBytesLowerBound(MakeProblem({{10, 0, 1}, {20, 2, 3}})), 20);
  EXPECT_EQ(LiveBytesLowerBound(MakeProblem({{10, 0, 2}, {20, 2, 3}})), 30);
}

TEST(LowerBound, FixedEndCounts) { EXPECT_EQ(LiveBytesLowerBound(MakeProblem({{16, 0, 0, 1000}, {32, 1, 1}})), 1016); }

TEST(LowerBound, OverlappingFixedBuffersCountTheirUnion) {
  // Vela: 16, 74464, 74464, 9216 all at offset 0, head 74464 (docs/tflm-arena.md §6).
  EXPECT_EQ(LiveBytesLowerBound(MakeProblem({{16, 1, 1, 0}, {74464, -1, 1, 0}, {74464, -1, 1, 0}, {9216, 0, 1, 0}})),
            74464);
  // Union [0,100) u [50,150) = 150 bytes, plus 10 online bytes at the same step.
  EXPECT_EQ(LiveBytesLowerBound(MakeProblem({{100, 0, 0, 0}, {100, 0, 0, 50}, {10, 0, 0}})), 160);
}

}  // namespace
}  // namespace arenaplan::plan
