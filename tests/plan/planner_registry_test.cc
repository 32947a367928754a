#include <gtest/gtest.h>

#include "plan/best.h"
#include "plan/plan_testutil.h"
#include "plan/planner.h"
#include "plan/verify.h"

namespace arenaplan::plan {
namespace {
using testing::MakeProblem;

TEST(Registry, KnowsTheHeuristicsAndBest) {
  for (const char* name : {"linear", "tflm-greedy", "best-fit", "best"}) {
    const PlannerEntry* p = FindPlanner(name);
    ASSERT_NE(p, nullptr) << name;
    EXPECT_EQ(p->name, name);
    EXPECT_FALSE(p->description.empty());
  }
  EXPECT_EQ(FindPlanner("no-such-planner"), nullptr);
  EXPECT_EQ(Planners().back().name, "best");
}

TEST(Best, KeepsTheLowestAndNamesTheWinner) {
  // Medium vector: linear 150, tflm-greedy 90, best-fit <= 90 (bound 80).
  const Problem p = MakeProblem({{10, 0, 1}, {20, 1, 2}, {30, 2, 3}, {40, 3, 4}, {50, 0, 1}});
  Result<PlanResult> r = PlanBest(p, {});
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(VerifyPlan(p, r->plan).ok());
  EXPECT_NE(r->planner, "linear");
  EXPECT_NE(r->planner, "best");
  for (const PlannerEntry& e : Planners()) {
    if (e.name == "best") continue;
    Result<PlanResult> other = e.run(p, {});
    ASSERT_TRUE(other.ok()) << e.name;
    EXPECT_LE(r->plan.height, other->plan.height) << e.name;
  }
  EXPECT_EQ(r->lower_bound >= 80, true);
}

TEST(Best, TiesGoToTheEarlierPlanner) {
  // Nothing overlaps in time: every planner but linear reaches 16; linear stacks them (32).
  const Problem p = MakeProblem({{16, 0, 0}, {16, 1, 1}});
  Result<PlanResult> r = PlanBest(p, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->plan.height, 16);
  EXPECT_EQ(r->planner, "tflm-greedy");
  EXPECT_EQ(r->status, PlanStatus::kOptimal);
}

TEST(Best, MatchesTheExactSolverAndIsProvenOptimal) {
  // Medium vector again: the exact solver proves the optimum; best must reach it too.
  const Problem p = MakeProblem({{10, 0, 1}, {20, 1, 2}, {30, 2, 3}, {40, 3, 4}, {50, 0, 1}});
  const PlannerEntry* optimal = FindPlanner("optimal");
  ASSERT_NE(optimal, nullptr);
  Result<PlanResult> exact = optimal->run(p, {});
  ASSERT_TRUE(exact.ok()) << exact.status().ToString();
  ASSERT_EQ(exact->status, PlanStatus::kOptimal);
  Result<PlanResult> r = PlanBest(p, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->plan.height, exact->plan.height);
  EXPECT_EQ(r->status, PlanStatus::kOptimal);
  EXPECT_EQ(r->lower_bound, exact->plan.height);
}

TEST(Best, ProvenInfeasibleCapacityIsReported) {
  // Two 16-byte buffers alive together cannot fit in 24 bytes.
  const Problem p = MakeProblem({{16, 0, 1}, {16, 1, 2}}, 24);
  Result<PlanResult> r = PlanBest(p, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->status, PlanStatus::kInfeasible);
  EXPECT_EQ(r->plan.height, 32);  // the lowest plan found, above the capacity
  EXPECT_TRUE(VerifyPlan(Problem{p.buffers, 0}, r->plan).ok());
}

TEST(Best, InvalidProblemIsAnError) {
  Result<PlanResult> r = PlanBest(MakeProblem({{16, 2, 1}}), {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("buffer 0"), std::string::npos);
}

}  // namespace
}  // namespace arenaplan::plan
