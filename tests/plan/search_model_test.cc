// The exact search's shared model (plan/search_model.h): mirroring a problem in time.
#include "plan/search_model.h"

#include <gtest/gtest.h>

#include <chrono>
#include <limits>

#include "plan/best_fit.h"
#include "plan/plan_testutil.h"
#include "plan/random_problem.h"
#include "plan/verify.h"

namespace arenaplan::plan::optimal_internal {
namespace {

using testing::MakePlan;
using testing::MakeProblem;

TEST(MirroredInTime, ReversesEachLifetimeWithinTheProblemsSpan) {
  const Problem p = MakeProblem({{8, 2, 4}, {16, 3, 9}, {4, 9, 9}});
  const std::vector<Buffer> m = MirroredInTime(p.buffers);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].first, 7);  // 2 + (9 - 4)
  EXPECT_EQ(m[0].last, 9);
  EXPECT_EQ(m[1].first, 2);
  EXPECT_EQ(m[1].last, 8);
  EXPECT_EQ(m[2].first, 2);
  EXPECT_EQ(m[2].last, 2);
  EXPECT_EQ(m[1].size, 16);
}

// The same offsets are a valid plan of a problem and of its mirror image (the time overlaps are
// the same pairs), and mirroring twice gives the problem back.
TEST(MirroredInTime, KeepsEveryPlanValidAndIsItsOwnInverse) {
  for (RandomStyle style : {RandomStyle::kAdversarial, RandomStyle::kTrace, RandomStyle::kChain}) {
    for (uint64_t seed = 0; seed < 20; ++seed) {
      const Problem p = RandomProblem({style, 60, seed});
      ASSERT_TRUE(CanMirrorInTime(p.buffers));
      Problem mirrored = p;
      mirrored.buffers = MirroredInTime(p.buffers);
      auto plan = PlanBestFit(mirrored, PlannerOptions{});
      ASSERT_TRUE(plan.ok()) << plan.status().ToString();
      EXPECT_TRUE(VerifyPlan(mirrored, plan->plan).ok()) << "seed " << seed;
      EXPECT_TRUE(VerifyPlan(p, MakePlan(p, plan->plan.offsets)).ok()) << "seed " << seed;
      const std::vector<Buffer> twice = MirroredInTime(mirrored.buffers);
      for (size_t i = 0; i < p.buffers.size(); ++i) {
        EXPECT_EQ(twice[i].first, p.buffers[i].first);
        EXPECT_EQ(twice[i].last, p.buffers[i].last);
      }
    }
  }
}

TEST(MirroredInTime, IsRefusedWhenTheSpanDoesNotFitAStep) {
  const Problem p = MakeProblem({{8, -1, 0}, {8, 5, std::numeric_limits<Step>::max()}});
  EXPECT_FALSE(CanMirrorInTime(p.buffers));
  EXPECT_FALSE(CanMirrorInTime({}));
  const Problem q = MakeProblem({{8, 0, 0}, {8, 5, std::numeric_limits<Step>::max()}});
  EXPECT_TRUE(CanMirrorInTime(q.buffers));
  EXPECT_EQ(MirroredInTime(q.buffers)[0].first, std::numeric_limits<Step>::max());
}

TEST(BuildEndsBefore, StartsABuildOnlyWhenItsEstimateFitsTheTimeLeft) {
  const auto now = std::chrono::steady_clock::now();
  EXPECT_FALSE(BuildEndsBefore(0, now - std::chrono::seconds(1)));  // past: nothing starts
  EXPECT_TRUE(BuildEndsBefore(1000, now + std::chrono::seconds(10)));
  // 100 ms fit about 3.3 M ints at 30 ns each: 10 M do not (IOPDDL S's second window, 0.3 s),
  // 100 k do (3 ms).
  EXPECT_FALSE(BuildEndsBefore(10'000'000, now + std::chrono::milliseconds(100)));
  EXPECT_TRUE(BuildEndsBefore(100'000, now + std::chrono::milliseconds(100)));
  EXPECT_FALSE(BuildEndsBefore(std::numeric_limits<uint64_t>::max(), now + std::chrono::hours(1)));
}

}  // namespace
}  // namespace arenaplan::plan::optimal_internal
