#include "plan/linear.h"

#include <gtest/gtest.h>

#include "plan/plan_testutil.h"
#include "plan/verify.h"

namespace arenaplan::plan {
namespace {
using testing::MakeProblem;

TEST(Linear, RunningSumInAddOrder) {
  const Problem p = MakeProblem({{10, 0, 1}, {20, 2, 3}, {30, 0, 3}});
  Result<PlanResult> r = PlanLinear(p, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->plan.offsets, (std::vector<Offset>{0, 10, 30}));
  EXPECT_EQ(r->plan.height, 60);
  EXPECT_EQ(r->lower_bound, 50);
  EXPECT_EQ(r->status, PlanStatus::kHeuristic);
  EXPECT_TRUE(VerifyPlan(p, r->plan).ok());
}

TEST(Linear, FixedBuffersStayAndStackStartsAbove) {
  const Problem p = MakeProblem({{10, 0, 1}, {16, 0, 1, 32}, {4, 0, 1, kUnfixed, 8}});
  Result<PlanResult> r = PlanLinear(p, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->plan.offsets, (std::vector<Offset>{48, 32, 64}));
  EXPECT_TRUE(VerifyPlan(p, r->plan).ok());
}

TEST(Linear, OverCapacityIsStillAPlan) {
  const Problem p = MakeProblem({{10, 0, 1}, {20, 2, 3}}, 25);
  Result<PlanResult> r = PlanLinear(p, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->plan.height, 30);
}

}  // namespace
}  // namespace arenaplan::plan
