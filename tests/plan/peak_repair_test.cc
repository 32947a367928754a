// Peak repair must return a valid plan never higher than the one it was given, lower it where a
// hand-worked example leaves obvious room, and leave a plan at the target alone.
#include "plan/peak_repair.h"

#include <gtest/gtest.h>

#include <chrono>

#include "plan/lower_bound.h"
#include "plan/random_problem.h"
#include "plan/tflm_greedy.h"
#include "plan/verify.h"

namespace arenaplan::plan {
namespace {

RepairOptions Until(Bytes target, std::chrono::milliseconds budget) {
  RepairOptions o;
  o.deadline = std::chrono::steady_clock::now() + budget;
  o.target = target;
  return o;
}

TEST(PeakRepair, LowersAStackedPlanToItsBound) {
  // Three buffers that never share a step, stacked: each fits at 0, so the optimum is the largest.
  Problem p;
  p.buffers = {Buffer{10, 0, 1}, Buffer{30, 2, 3}, Buffer{20, 4, 5}};
  Plan stacked{{0, 10, 40}, 60};
  RepairStats stats;
  // The budget only bounds a failure: reaching the target (30) ends the repair at once.
  const Plan got = RepairPeaks(p, stacked, Until(30, std::chrono::seconds(30)), &stats);
  EXPECT_TRUE(VerifyPlan(p, got).ok());
  EXPECT_EQ(got.height, 30);
  EXPECT_GE(stats.kept, 1);
}

TEST(PeakRepair, KeepsFixedBuffersAndAlignment) {
  Problem p;
  p.buffers = {Buffer{16, 0, 3, 0, 1}, Buffer{24, 1, 2, kUnfixed, 8}, Buffer{8, 3, 5, kUnfixed, 8}};
  Plan plan{{0, 32, 64}, 72};
  const Plan got = RepairPeaks(p, plan, Until(LiveBytesLowerBound(p), std::chrono::seconds(30)));
  EXPECT_TRUE(VerifyPlan(p, got).ok());
  EXPECT_EQ(got.offsets[0], 0);
  EXPECT_LE(got.height, 40);  // 16 + 24 at steps 1..2, both placements aligned
}

TEST(PeakRepair, NeverHigherAndAlwaysValidOnRandomProblems) {
  for (RandomStyle style : {RandomStyle::kAdversarial, RandomStyle::kTrace, RandomStyle::kUniform}) {
    for (uint64_t seed = 0; seed < 40; ++seed) {
      const size_t n = style == RandomStyle::kAdversarial ? 20 : 300;
      const Problem p = RandomProblem({style, n, seed});
      auto start = PlanTflmGreedy(p, PlannerOptions{});
      ASSERT_TRUE(start.ok()) << start.status().ToString();
      // Short budgets: what is checked holds whatever the machine's load lets the repair do.
      const Plan got = RepairPeaks(p, start->plan, Until(LiveBytesLowerBound(p), std::chrono::milliseconds(5)));
      const VerifyReport report = VerifyPlan(p, got);
      ASSERT_TRUE(report.ok()) << "seed " << seed << ": " << report.errors[0].message;
      EXPECT_LE(got.height, start->plan.height) << "seed " << seed;
      EXPECT_GE(got.height, LiveBytesLowerBound(p)) << "seed " << seed;
    }
  }
}

TEST(PeakRepair, PlanAtTheTargetIsReturnedUnchanged) {
  const Problem p = RandomProblem({RandomStyle::kTrace, 200, 3});
  auto start = PlanTflmGreedy(p, PlannerOptions{});
  ASSERT_TRUE(start.ok());
  RepairStats stats;
  const Plan got = RepairPeaks(p, start->plan, Until(start->plan.height, std::chrono::seconds(30)), &stats);
  EXPECT_EQ(got.offsets, start->plan.offsets);
  EXPECT_EQ(stats.moves, 0);
}

}  // namespace
}  // namespace arenaplan::plan
