// report::PeakOf: the first step with the most bytes alive, checked against a per-step count.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "report/plan_report.h"

namespace arenaplan::report {
namespace {

TEST(PeakOf, FirstStepWithTheMostBytesAlive) {
  EXPECT_EQ(PeakOf(plan::Problem{}).step, 0);
  EXPECT_EQ(PeakOf(plan::Problem{}).bytes, 0);
  plan::Problem p;
  p.buffers = {{4, 0, 1}, {4, 1, 2}, {8, 2, 2}, {12, 5, 6}};  // steps 2 and 5 both hold 12
  const LivePeak peak = PeakOf(p);
  EXPECT_EQ(peak.step, 2);
  EXPECT_EQ(peak.bytes, 12);
}

TEST(PeakOf, MatchesAPerStepCountOnRandomProblems) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    plan::Problem p;
    const int n = 1 + static_cast<int>(rng() % 30);
    for (int i = 0; i < n; ++i) {
      const plan::Step first = static_cast<plan::Step>(rng() % 20);
      p.buffers.push_back(
          {static_cast<plan::Bytes>(1 + rng() % 64), first, first + static_cast<plan::Step>(rng() % 6)});
    }
    int64_t best = -1;
    plan::Step at = 0;
    for (plan::Step t = 0; t < 30; ++t) {
      int64_t live = 0;
      for (const plan::Buffer& b : p.buffers) live += b.first <= t && t <= b.last ? b.size : 0;
      if (live > best) {
        best = live;
        at = t;
      }
    }
    const LivePeak peak = PeakOf(p);
    EXPECT_EQ(peak.bytes, best) << "trial " << trial;
    EXPECT_EQ(peak.step, at) << "trial " << trial;
  }
}

}  // namespace
}  // namespace arenaplan::report
