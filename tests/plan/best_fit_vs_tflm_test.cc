// best-fit's promise: never above tflm-greedy, whatever wins its portfolio and whatever the time
// limit (its TFLM-order run only gives up once it is no better than a plan already in hand).
// The reference here is TFLM's rule written out naively, independent of TimeIndex and
// PlaceInOrder: buffers by size descending (ties: later index first), each at the lowest aligned
// offset reached by TFLM's walk over the already-placed buffers that share a step with it, fixed
// buffers as obstacles from the start. Seeded random problems of every RandomStyle, at sizes on
// both sides of the portfolio's size thresholds.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "plan/planner.h"
#include "plan/random_problem.h"
#include "plan/verify.h"

namespace arenaplan::plan {
namespace {

// The height of TFLM's greedy plan. Placed buffers are kept by first step; a buffer [f, l] meets
// those starting in [f - longest + 1, l] that end at f or later (longest: the longest lifetime),
// so large problems with short lifetimes stay cheap without any interval structure.
Bytes NaiveTflmHeight(const Problem& p) {
  struct Placed {
    Step last;
    Offset offset, end;
  };
  std::multimap<Step, Placed> by_first;
  Step longest = 0;
  Bytes height = 0;
  for (const Buffer& b : p.buffers) longest = std::max(longest, b.last - b.first + 1);
  for (const Buffer& b : p.buffers) {
    if (!b.fixed()) continue;
    by_first.insert({b.first, {b.last, b.fixed_offset, b.fixed_offset + b.size}});
    height = std::max(height, b.fixed_offset + b.size);
  }
  std::vector<size_t> order;
  for (size_t i = 0; i < p.buffers.size(); ++i) {
    if (!p.buffers[i].fixed()) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return p.buffers[a].size != p.buffers[b].size ? p.buffers[a].size > p.buffers[b].size : a > b;
  });
  std::vector<std::pair<Offset, Offset>> near;
  for (size_t i : order) {
    const Buffer& b = p.buffers[i];
    near.clear();
    for (auto it = by_first.lower_bound(b.first - longest + 1); it != by_first.end() && it->first <= b.last; ++it) {
      if (it->second.last >= b.first) near.push_back({it->second.offset, it->second.end});
    }
    std::sort(near.begin(), near.end());
    Offset cand = 0;
    for (const auto& [offset, end] : near) {
      if (offset - cand >= b.size) break;
      cand = std::max(cand, end);
      cand = (cand + b.alignment - 1) / b.alignment * b.alignment;
    }
    by_first.insert({b.first, {b.last, cand, cand + b.size}});
    height = std::max(height, cand + b.size);
  }
  return height;
}

Bytes BestFitHeight(const Problem& p, double time_limit) {
  PlannerOptions o;
  o.time_limit_seconds = time_limit;
  Result<PlanResult> r = FindPlanner("best-fit")->run(p, o);
  EXPECT_TRUE(r.ok());
  if (!r.ok()) return 0;
  EXPECT_TRUE(VerifyPlan(p, r->plan).ok());
  return r->plan.height;
}

TEST(BestFitVsTflm, NeverAboveTflmOnSmallRandomProblems) {
  int strictly_better = 0;
  for (RandomStyle style :
       {RandomStyle::kAdversarial, RandomStyle::kTrace, RandomStyle::kUniform, RandomStyle::kChain}) {
    for (uint64_t seed = 1; seed <= 80; ++seed) {
      const Problem p = RandomProblem({style, style == RandomStyle::kAdversarial ? 40u : 50 + seed * 7, seed});
      const Bytes tflm = NaiveTflmHeight(p);
      const Bytes best_fit = BestFitHeight(p, 0);
      ASSERT_LE(best_fit, tflm) << "style " << static_cast<int>(style) << " seed " << seed;
      strictly_better += best_fit < tflm;
    }
  }
  EXPECT_GT(strictly_better, 0);  // the portfolio is not just TFLM's plan
}

// With a time limit too short for anything but the first run, TFLM's run must still decide.
TEST(BestFitVsTflm, NeverAboveTflmUnderATinyTimeLimit) {
  for (RandomStyle style : {RandomStyle::kTrace, RandomStyle::kUniform, RandomStyle::kChain}) {
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      const Problem p = RandomProblem({style, 3000, seed});
      ASSERT_LE(BestFitHeight(p, 1e-9), NaiveTflmHeight(p)) << "style " << static_cast<int>(style) << " seed " << seed;
    }
  }
}

// Above 20k, 50k and 65,536 buffers the portfolio runs fewer orders.
TEST(BestFitVsTflm, NeverAboveTflmOnLargeProblems) {
  for (const auto& [style, n] : {std::pair{RandomStyle::kTrace, 25000}, std::pair{RandomStyle::kUniform, 25000},
                                 std::pair{RandomStyle::kUniform, 70000}, std::pair{RandomStyle::kChain, 70000}}) {
    {
      const Problem p = RandomProblem({style, static_cast<size_t>(n), 7});
      ASSERT_LE(BestFitHeight(p, 0), NaiveTflmHeight(p)) << "style " << static_cast<int>(style) << " n " << n;
    }
  }
}

}  // namespace
}  // namespace arenaplan::plan
