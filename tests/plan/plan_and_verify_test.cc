// plan/plan_and_verify.h: the one path from a planner name to a verified plan.
#include "plan/plan_and_verify.h"

#include <gtest/gtest.h>

#include "plan/plan_testutil.h"
#include "plan/verify.h"

namespace arenaplan::plan {
namespace {
using testing::MakeProblem;

TEST(PlanAndVerify, RunsEveryPlannerAndTheResultVerifies) {
  // TFLM's medium vector: linear 150, tflm-greedy 90 (docs/tflm-arena.md §4).
  const Problem p = MakeProblem({{10, 0, 1}, {20, 1, 2}, {30, 2, 3}, {40, 3, 4}, {50, 0, 1}});
  for (const PlannerEntry& e : Planners()) {
    SCOPED_TRACE(e.name);
    auto r = PlanAndVerify(p, e.name);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_TRUE(VerifyPlan(p, r->plan).ok());
  }
  EXPECT_EQ(PlanAndVerify(p, "linear")->plan.height, 150);
  EXPECT_EQ(PlanAndVerify(p, "tflm-greedy")->plan.height, 90);
}

TEST(PlanAndVerify, UnknownNamesAreRefusedWithTheList) {
  const Problem p = MakeProblem({{16, 0, 1}});
  auto r = PlanAndVerify(p, "smallest-gap");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(),
            "unknown planner 'smallest-gap' (valid: linear, tflm-greedy, best-fit, optimal, best)");
  EXPECT_EQ(CheckPlannerName("smallest-gap").message(), r.status().message());
  EXPECT_TRUE(CheckPlannerName("best").ok());
}

TEST(PlanAndVerify, AliasesRunTheSamePlanner) {
  ASSERT_FALSE(PlannerAliases().empty());
  const Problem p = MakeProblem({{10, 0, 1}, {20, 1, 2}, {30, 2, 3}, {40, 3, 4}, {50, 0, 1}});
  for (const PlannerAlias& a : PlannerAliases()) {
    SCOPED_TRACE(a.alias);
    EXPECT_EQ(FindPlanner(a.alias), FindPlanner(a.planner));
    EXPECT_EQ(PlanAndVerify(p, a.alias)->plan.offsets, PlanAndVerify(p, a.planner)->plan.offsets);
  }
  EXPECT_EQ(FindPlanner("greedy")->name, "tflm-greedy");
}

}  // namespace
}  // namespace arenaplan::plan
