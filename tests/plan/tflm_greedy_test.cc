// TFLM's own unit-test vectors (greedy_memory_planner_test / micro_allocator_test, as listed in
// docs/tflm-arena.md §4) plus fixed-offset and alignment cases worked out by hand.
#include "plan/tflm_greedy.h"

#include <gtest/gtest.h>

#include "plan/plan_testutil.h"
#include "plan/verify.h"

namespace arenaplan::plan {
namespace {
using testing::MakeProblem;

Plan Greedy(const Problem& p) {
  Result<PlanResult> r = PlanTflmGreedy(p, {});
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(VerifyPlan(p, r->plan).ok());
  EXPECT_EQ(r->planner, "tflm-greedy");
  return r->plan;
}

TEST(TflmGreedy, Basic) {
  const Plan plan = Greedy(MakeProblem({{10, 0, 1}, {20, 2, 3}}));
  EXPECT_EQ(plan.offsets, (std::vector<Offset>{0, 0}));
  EXPECT_EQ(plan.height, 20);
}

TEST(TflmGreedy, Medium) {
  const Plan plan = Greedy(MakeProblem({{10, 0, 1}, {20, 1, 2}, {30, 2, 3}, {40, 3, 4}, {50, 0, 1}}));
  EXPECT_EQ(plan.offsets, (std::vector<Offset>{50, 70, 40, 0, 0}));
  EXPECT_EQ(plan.height, 90);
}

TEST(TflmGreedy, Overlap) {
  const Plan plan = Greedy(MakeProblem({{100, 0, 1}, {50, 2, 3}, {20, 1, 2}}));
  EXPECT_EQ(plan.height, 120);
}

TEST(TflmGreedy, BranchesTieBreakPutsLaterAddedFirst) {
  const Plan plan = Greedy(MakeProblem({{48, 0, 2}, {48, 1, 3}, {48, 2, 3}, {48, 3, 3}}));
  EXPECT_EQ(plan.offsets, (std::vector<Offset>{0, 96, 48, 0}));
  EXPECT_EQ(plan.height, 144);
}

TEST(TflmGreedy, FixedBuffersFirstAndMayOverlap) {
  // Two fixed buffers on top of each other at 0; the online one must go above both (ends 64).
  const Problem p = MakeProblem({{64, 0, 2, 0}, {32, 0, 2, 0}, {16, 1, 1}});
  const Plan plan = Greedy(p);
  EXPECT_EQ(plan.offsets, (std::vector<Offset>{0, 0, 64}));
  EXPECT_EQ(plan.height, 80);
  EXPECT_EQ(VerifyPlan(p, plan).fixed_overlaps.size(), 1u);
}

TEST(TflmGreedy, FillsGapBelowFixedBuffer) {
  // Fixed at [100,150); a 100-byte online buffer fits exactly below it.
  const Plan plan = Greedy(MakeProblem({{50, 0, 3, 100}, {100, 1, 2}, {101, 1, 2}}));
  // Order: fixed, then 101 (goes to 150, as [0,100) is too small), then 100 at 0.
  EXPECT_EQ(plan.offsets, (std::vector<Offset>{100, 0, 150}));
  EXPECT_EQ(plan.height, 251);
}

TEST(TflmGreedy, AlignmentRoundsCandidatesUp) {
  const Plan plan = Greedy(MakeProblem({{10, 0, 1}, {8, 0, 1, kUnfixed, 8}}));
  EXPECT_EQ(plan.offsets, (std::vector<Offset>{0, 16}));
  EXPECT_EQ(plan.height, 24);
}

TEST(TflmGreedy, RejectsBadBuffer) {
  Result<PlanResult> r = PlanTflmGreedy(MakeProblem({{16, 0, 1}, {0, 0, 1}}), {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("buffer 1"), std::string::npos) << r.status().message();
}

TEST(TflmGreedy, EmptyProblem) {
  const Plan plan = Greedy(Problem{});
  EXPECT_TRUE(plan.offsets.empty());
  EXPECT_EQ(plan.height, 0);
}

}  // namespace
}  // namespace arenaplan::plan
