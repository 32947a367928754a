// The `best` portfolio (plan/best.h) under a capacity: a capacity the exact search proves too small
// is the answer, and the stages that lower the plan shown beside it (peak anchoring, target
// sweeps, peak repair) do not run; the progress reports show which stages ran.
#include "plan/best.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "plan/optimal.h"
#include "plan/packing_problem.h"
#include "plan/verify.h"

namespace arenaplan::plan {
namespace {

TEST(Best, StopsAtACapacityProvenTooSmall) {
  PackingOptions o;
  o.variant = PackingVariant::kGadget;
  o.buffers = 150;
  const Problem p = MakePackingProblem(o).problem;  // lower bound = capacity, nothing fits
  std::vector<std::string> stages;
  PlannerOptions po;
  po.time_limit_seconds = 60;
  po.progress = [&](const PlanProgress& r) { stages.push_back(r.stage); };
  auto r = PlanBest(p, po);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->status, PlanStatus::kInfeasible);
  EXPECT_GT(r->lower_bound, p.capacity);
  for (const std::string& s : stages) {
    EXPECT_NE(s, "peak-anchor");
    EXPECT_NE(s, "target-sweep");
    EXPECT_NE(s, "peak-repair");
  }
}

// `best` verifies every plan it keeps, and says so (solve then does not verify it again); the
// exact search alone does not.
TEST(Best, SaysItVerifiedItsPlan) {
  PackingOptions o;
  o.buffers = 150;
  o.variant = PackingVariant::kSlack;
  Problem p = MakePackingProblem(o).problem;
  p.capacity = 0;
  PlannerOptions po;
  po.time_limit_seconds = 1;
  auto r = PlanBest(p, po);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->verified);
  EXPECT_TRUE(VerifyPlan(p, r->plan).ok());
  po.work_time = true;
  auto exact = PlanOptimal(p, po);
  ASSERT_TRUE(exact.ok()) << exact.status().ToString();
  EXPECT_FALSE(exact->verified);
}

}  // namespace
}  // namespace arenaplan::plan
