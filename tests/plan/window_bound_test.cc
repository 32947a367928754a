// Closed-window refutation (plan/window_bound.h): the gadget packings are refuted at their
// capacity through a window that is really closed (checked here independently of the listing),
// feasible packings never are, and a refutable window is still found behind a long chain of
// windows that are not tight (the listing visits each start once, not every buffer per start).
#include "plan/window_bound.h"

#include <gtest/gtest.h>

#include <vector>

#include "plan/packing_problem.h"
#include "plan/packing_testutil.h"

namespace arenaplan::plan::optimal_internal {
namespace {

using testing::GenerousLimits;

PackingInstance Make(PackingVariant variant, uint64_t seed) { return testing::MakePacking(variant, 150, 0.2, seed); }

// Every buffer either spans [first, last], lies within it or misses it; `inside` lie within.
void ExpectClosed(const std::vector<Buffer>& buffers, const WindowRefutation& w) {
  size_t inside = 0;
  for (const Buffer& b : buffers) {
    const bool spans = b.first <= w.first && b.last >= w.last;
    const bool within = b.first >= w.first && b.last <= w.last;
    const bool misses = b.last < w.first || b.first > w.last;
    EXPECT_TRUE(spans || within || misses) << "buffer [" << b.first << ", " << b.last << "] crosses the window";
    inside += within && !spans;
  }
  EXPECT_EQ(inside, w.inside);
  EXPECT_GE(w.inside, 2u);
  EXPECT_LE(w.inside, 64u);
}

TEST(WindowBound, GadgetPackingsAreRefutedThroughAClosedWindow) {
  for (uint64_t seed = 0; seed < 3; ++seed) {
    const PackingInstance inst = Make(PackingVariant::kGadget, seed);
    ASSERT_FALSE(inst.feasible);
    const WindowRefutation w = RefuteByWindows(inst.problem.buffers, inst.problem.capacity, GenerousLimits());
    ASSERT_TRUE(w.refuted) << "seed " << seed;
    ExpectClosed(inst.problem.buffers, w);
  }
}

TEST(WindowBound, FeasiblePackingsAreNeverRefuted) {
  for (PackingVariant v : {PackingVariant::kPerfect, PackingVariant::kSlack, PackingVariant::kHeadroom}) {
    for (uint64_t seed = 0; seed < 3; ++seed) {
      const PackingInstance inst = Make(v, seed);
      ASSERT_TRUE(inst.feasible);
      EXPECT_FALSE(RefuteByWindows(inst.problem.buffers, inst.problem.capacity, GenerousLimits()).refuted)
          << PackingVariantName(v) << " seed " << seed;
    }
  }
}

// 50,000 chained buffers (each alive two steps, far below the capacity), then a gadget packing
// shifted behind them: the windows over the chain are closed but not tight, and the gadget's
// window is found after them. Listing them took O(starts x buffers) before.
TEST(WindowBound, RefutesBehindALongChainOfLooseWindows) {
  const PackingInstance gadget = Make(PackingVariant::kGadget, 1);
  constexpr Step kChain = 50000;
  std::vector<Buffer> buffers;
  for (Step t = 0; t < kChain; ++t) buffers.push_back(Buffer{1024, t, t + 1});
  Step shift = kChain + 2;
  for (Buffer b : gadget.problem.buffers) {
    b.first += shift;
    b.last += shift;
    buffers.push_back(b);
  }
  const WindowRefutation w = RefuteByWindows(buffers, gadget.problem.capacity, GenerousLimits());
  ASSERT_TRUE(w.refuted);
  EXPECT_GE(w.first, shift);
  ExpectClosed(buffers, w);
}

}  // namespace
}  // namespace arenaplan::plan::optimal_internal
