// The chronological best fit must give exactly the plan of the general placement engine under the
// same order and gap rule (PlaceInOrder, first step asc / size desc / index, kBestFit) on every
// problem without fixed buffers, and pass the verifier.
#include "plan/sweep_fit.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "plan/placement.h"
#include "plan/random_problem.h"
#include "plan/verify.h"

namespace arenaplan::plan {
namespace {

Plan Reference(const Problem& p) {
  std::vector<uint32_t> order(p.buffers.size());
  std::iota(order.begin(), order.end(), 0u);
  const auto& b = p.buffers;
  std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
    if (b[x].first != b[y].first) return b[x].first < b[y].first;
    if (b[x].size != b[y].size) return b[x].size > b[y].size;
    return x < y;
  });
  TimeIndex index(p);
  return PlaceInOrder(p, order, GapRule::kBestFit, &index);
}

void ExpectSame(Problem p, const std::string& what) {
  for (Buffer& b : p.buffers) b.fixed_offset = kUnfixed;
  const Plan got = SweepBestFit(p), want = Reference(p);
  ASSERT_EQ(got.offsets, want.offsets) << what;
  EXPECT_EQ(got.height, want.height) << what;
  EXPECT_TRUE(VerifyPlan(p, got).ok()) << what;
}

TEST(SweepBestFit, EqualsThePlacementEngineOnRandomProblems) {
  for (uint64_t seed = 0; seed < 2000; ++seed) {
    ExpectSame(RandomProblem({RandomStyle::kAdversarial, 30, seed}), "adversarial seed " + std::to_string(seed));
  }
  for (uint64_t seed = 0; seed < 20; ++seed) {
    ExpectSame(RandomProblem({RandomStyle::kTrace, 3000, seed}), "trace seed " + std::to_string(seed));
    ExpectSame(RandomProblem({RandomStyle::kUniform, 3000, seed}), "uniform seed " + std::to_string(seed));
  }
}

TEST(SweepBestFit, EmptyProblem) {
  const Plan p = SweepBestFit(Problem{});
  EXPECT_TRUE(p.offsets.empty());
  EXPECT_EQ(p.height, 0);
}

}  // namespace
}  // namespace arenaplan::plan
