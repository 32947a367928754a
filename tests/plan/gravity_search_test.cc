// The gravity search (plan/gravity_search.h) on its own, on what the optimal planner's brute-force
// cross-checks (optimal_test.cc) are too small to reach: paths thousands of placements deep, and
// long chains where almost every placement splits the problem.
#include "plan/gravity_search.h"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "plan/lower_bound.h"
#include "plan/random_problem.h"
#include "plan/verify.h"

namespace arenaplan::plan::optimal_internal {
namespace {

Limits Generous() {
  Limits limits;
  limits.deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  return limits;
}

// n buffers of one size, buffer i alive in steps i and i + 1, capacity twice the size: each
// placement splits off the rest of the chain, so the search's path is about n / 2 levels deep
// (measured), with two buffers alive at a time.
Problem Ladder(int n) {
  Problem p;
  p.capacity = 32;
  for (int i = 0; i < n; ++i) {
    Buffer b;
    b.first = i;
    b.last = i + 1;
    b.size = 16;
    p.buffers.push_back(b);
  }
  return p;
}

TEST(GravitySearch, PlacesAPathThousandsOfLevelsDeep) {
  const Problem p = Ladder(GravitySearch::kMaxDepth);
  GravitySearch search(p.buffers);
  std::vector<Offset> off;
  ASSERT_EQ(search.Run(p.capacity, "WAT", false, 0, Generous(), &off), Outcome::kFound);
  EXPECT_TRUE(VerifyPlan(p, Plan{off, PlanHeight(p, off)}).ok());
}

// A path deeper than kMaxDepth ends the run like a spent budget: no answer, never a refutation.
TEST(GravitySearch, ADeeperPathEndsTheRunNotTheStack) {
  const Problem p = Ladder(2 * GravitySearch::kMaxDepth + 100);
  GravitySearch search(p.buffers);
  std::vector<Offset> off;
  EXPECT_EQ(search.Run(p.capacity, "WAT", false, 0, Generous(), &off), Outcome::kBudget);
}

// A sequential network: each placement that empties a section boundary splits the rest into
// groups, reordered in place inside their parent's range; every group must still hold its own
// buffers, whatever the order and re-ranking (plans verified).
TEST(GravitySearch, PlacesLongChainsThroughNestedSplits) {
  RandomProblemOptions o;
  o.style = RandomStyle::kChain;
  o.buffers = 10000;
  const Problem chain = RandomProblem(o);
  const Bytes bound = LiveBytesLowerBound(chain);
  GravitySearch search(chain.buffers);
  for (const char* order : {"WAT", "TAW"}) {
    for (bool rerank : {false, true}) {
      std::vector<Offset> off;
      ASSERT_EQ(search.Run(bound + bound / 10, order, rerank, 0, Generous(), &off), Outcome::kFound)
          << order << " rerank " << rerank;
      Problem p = chain;
      p.capacity = bound + bound / 10;
      EXPECT_TRUE(VerifyPlan(p, Plan{off, PlanHeight(p, off)}).ok()) << order << " rerank " << rerank;
    }
  }
}

}  // namespace
}  // namespace arenaplan::plan::optimal_internal
