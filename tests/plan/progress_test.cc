// Anytime reports (PlannerOptions::progress): `best` and `optimal` report a best height that only
// goes down, a proven bound that only goes up and never passes it, and end on the plan returned.
#include <gtest/gtest.h>

#include <vector>

#include "plan/best.h"
#include "plan/optimal.h"
#include "plan/packing_problem.h"

namespace arenaplan::plan {
namespace {

void ExpectConsistent(const std::vector<PlanProgress>& seen, const PlanResult& r) {
  ASSERT_FALSE(seen.empty());
  Bytes height = 0, bound = 0;
  double seconds = 0;
  for (const PlanProgress& p : seen) {
    if (p.height > 0) {
      if (height > 0) { EXPECT_LE(p.height, height) << p.stage; }
      height = p.height;
      EXPECT_LE(p.lower_bound, p.height) << p.stage;
    }
    EXPECT_GE(p.lower_bound, bound) << p.stage;
    EXPECT_GE(p.seconds, seconds) << p.stage;
    bound = p.lower_bound;
    seconds = p.seconds;
  }
  EXPECT_EQ(height, r.plan.height);
  EXPECT_LE(bound, r.lower_bound);
}

// A small perfect packing: the heuristics leave a gap, the exact search closes it (in about a
// millisecond; the limit only bounds a failure).
Problem Tight() {
  PackingOptions o;
  o.buffers = 40;
  o.seed = 2;
  Problem p = MakePackingProblem(o).problem;
  p.capacity = 0;
  return p;
}

TEST(Progress, BestReportsEveryPlannerAndEndsOnItsPlan) {
  std::vector<PlanProgress> seen;
  PlannerOptions o;
  o.time_limit_seconds = 60;
  o.progress = [&](const PlanProgress& p) { seen.push_back(p); };
  auto r = PlanBest(Tight(), o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectConsistent(seen, *r);
  bool heuristic = false, exact = false;
  for (const PlanProgress& p : seen) {
    heuristic = heuristic || p.stage == "best-fit";
    exact = exact || p.stage == "optimal";
  }
  EXPECT_TRUE(heuristic);
  EXPECT_TRUE(exact);  // the heuristics leave a gap on this instance
  EXPECT_EQ(r->status, PlanStatus::kOptimal);
}

TEST(Progress, OptimalReportsItsSeedAndProbes) {
  std::vector<PlanProgress> seen;
  PlannerOptions o;
  o.time_limit_seconds = 60;
  o.progress = [&](const PlanProgress& p) { seen.push_back(p); };
  auto r = PlanOptimal(Tight(), o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectConsistent(seen, *r);
  for (const PlanProgress& p : seen) EXPECT_EQ(p.stage, "optimal");
  EXPECT_EQ(seen.back().nodes, r->nodes);
}

}  // namespace
}  // namespace arenaplan::plan
