#include "plan/verify.h"

#include <gtest/gtest.h>

#include "plan/plan_testutil.h"

namespace arenaplan::plan {
namespace {
using testing::MakePlan;
using testing::MakeProblem;

bool Has(const VerifyReport& r, Violation kind) {
  for (const auto& e : r.errors) {
    if (e.kind == kind) return true;
  }
  return false;
}

TEST(Verify, AcceptsValidPlanWithReuse) {
  // a [0,1] and c [2,3] share bytes but never a step; b sits beside a.
  const Problem p = MakeProblem({{16, 0, 1}, {32, 1, 2}, {16, 2, 3}});
  const VerifyReport r = VerifyPlan(p, MakePlan(p, {0, 16, 0}));
  EXPECT_TRUE(r.ok()) << r.errors[0].message;
  EXPECT_TRUE(r.fixed_overlaps.empty());
}

TEST(Verify, TouchingStepsOverlap) {
  // Inclusive lifetimes: last == first of the other is a shared step.
  const Problem p = MakeProblem({{16, 0, 1}, {16, 1, 2}});
  const VerifyReport r = VerifyPlan(p, MakePlan(p, {0, 8}));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].kind, Violation::kOverlap);
  EXPECT_EQ(r.errors[0].a, 0u);
  EXPECT_EQ(r.errors[0].b, 1u);
  const std::string& m = r.errors[0].message;
  EXPECT_NE(m.find("buffer 0 (size 16, steps [0, 1]) at [0, 16)"), std::string::npos) << m;
  EXPECT_NE(m.find("buffer 1 (size 16, steps [1, 2]) at [8, 24)"), std::string::npos) << m;
  EXPECT_NE(m.find("bytes [8, 16) during steps [1, 1]"), std::string::npos) << m;
}

TEST(Verify, AdjacentBytesDoNotOverlap) {
  const Problem p = MakeProblem({{16, 0, 5}, {16, 0, 5}});
  EXPECT_TRUE(VerifyPlan(p, MakePlan(p, {0, 16})).ok());
  EXPECT_FALSE(VerifyPlan(p, MakePlan(p, {0, 15})).ok());
}

TEST(Verify, OverlapFoundWhenStartInsideEarlierWideBuffer) {
  // Buffer 2 starts inside buffer 0's bytes while 1 (fixed, overlapping 0 legally) sits between.
  const Problem p = MakeProblem({{100, 0, 3, 0}, {10, 0, 3, 0}, {10, 2, 2}});
  const VerifyReport r = VerifyPlan(p, MakePlan(p, {0, 0, 50}));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].kind, Violation::kOverlap);
  EXPECT_EQ(r.errors[0].a, 0u);
  EXPECT_EQ(r.errors[0].b, 2u);
  ASSERT_EQ(r.fixed_overlaps.size(), 1u);
  EXPECT_EQ(r.fixed_overlaps[0], (std::pair<size_t, size_t>{0, 1}));
}

TEST(Verify, PerBufferViolations) {
  const Problem p = MakeProblem({{16, 0, 0, 32}, {16, 0, 0, kUnfixed, 8}, {16, 1, 1}, {16, 2, 2}}, 40);
  const VerifyReport r = VerifyPlan(p, MakePlan(p, {0, 4, -16, 32}));
  EXPECT_TRUE(Has(r, Violation::kFixedMoved));
  EXPECT_TRUE(Has(r, Violation::kMisaligned));
  EXPECT_TRUE(Has(r, Violation::kNegativeOffset));
  EXPECT_TRUE(Has(r, Violation::kOverCapacity));
  EXPECT_TRUE(Has(r, Violation::kOverlap));  // buffers 0 and 1 at step 0
}

TEST(Verify, WrongCountAndHeight) {
  const Problem p = MakeProblem({{16, 0, 0}, {16, 1, 1}});
  VerifyReport r = VerifyPlan(p, Plan{{0}, 16});
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].kind, Violation::kWrongCount);
  r = VerifyPlan(p, Plan{{0, 0}, 32});
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].kind, Violation::kHeightMismatch);
  EXPECT_NE(r.errors[0].message.find("plan height 32 but max(offset + size) is 16"), std::string::npos);
}

TEST(Verify, MalformedBufferIsReportedNotCrashed) {
  Problem p = MakeProblem({{16, 3, 1}, {-5, 0, 0}, {16, 0, 0, kUnfixed, 0}});
  const VerifyReport r = VerifyPlan(p, Plan{{0, 0, 0}, 0});
  EXPECT_EQ(r.errors.size(), 3u);
  EXPECT_TRUE(Has(r, Violation::kBadBuffer));
}

TEST(Verify, HugeOffsetsDoNotOverflow) {
  const Problem p = MakeProblem({{16, 0, 0}, {16, 0, 0}});
  const Offset big = std::numeric_limits<Offset>::max() - 4;
  const VerifyReport r = VerifyPlan(p, MakePlan(p, {big, big}));
  EXPECT_TRUE(Has(r, Violation::kOverlap));
}

TEST(Verify, MaxErrorsCapsTheReport) {
  Problem p;
  for (int i = 0; i < 50; ++i) p.buffers.push_back({16, 0, 0});
  Plan plan = MakePlan(p, std::vector<Offset>(50, 0));
  EXPECT_EQ(VerifyPlan(p, plan, 5).errors.size(), 5u);
}

TEST(Verify, AllFixedOverlapsListed) {
  // The Vela case: four fixed buffers at offset 0 (docs/tflm-arena.md §6).
  const Problem p = MakeProblem({{16, 1, 1, 0}, {74464, -1, 1, 0}, {74464, -1, 1, 0}, {9216, 0, 1, 0}});
  const VerifyReport r = VerifyPlan(p, MakePlan(p, {0, 0, 0, 0}));
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.fixed_overlaps.size(), 6u);
}

TEST(Verify, LargeStaircaseIsCheckedExactly) {
  // 200k buffers in a staircase (an O(n^2) pairwise check would take minutes; the verifier's speed
  // is measured in plan_bench, verify/staircase-200k, not asserted here).
  Problem p;
  std::vector<Offset> offsets;
  for (int i = 0; i < 200000; ++i) {
    p.buffers.push_back({64, i, i + 3});
    offsets.push_back((i % 4) * 64);
  }
  EXPECT_TRUE(VerifyPlan(p, MakePlan(p, offsets)).ok());
  offsets[100000] = offsets[100001];
  EXPECT_FALSE(VerifyPlan(p, MakePlan(p, offsets)).ok());
}

}  // namespace
}  // namespace arenaplan::plan
