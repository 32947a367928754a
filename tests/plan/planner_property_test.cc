// 10,000 seeded random problems full of edge cases (equal sizes, one-step and full-length
// lifetimes, alignments, fixed buffers incl. fixed-on-fixed): every registered planner's plan must
// pass VerifyPlan and never beat the live-bytes lower bound; TFLM greedy must agree offset for
// offset with a literal O(n^2) transcription of TFLM's algorithm (docs/tflm-arena.md §4).
// The exact solver (and "best", which runs it) only gets every 10th problem: it is the slow one
// and has its own brute-force property tests (optimal_test.cc).
#include <gtest/gtest.h>

#include <algorithm>

#include "plan/lower_bound.h"
#include "plan/planner.h"
#include "plan/random_problem.h"
#include "plan/tflm_greedy.h"
#include "plan/verify.h"

namespace arenaplan::plan {
namespace {

constexpr int kProblems = 10000;

// TFLM's GreedyMemoryPlanner as written: bubble sort over reverse add order, a linked list kept in
// offset order, a walk over every placed buffer skipping those not alive at the same time.
std::vector<Offset> ReferenceTflmGreedy(const Problem& p) {
  const auto& b = p.buffers;
  const int n = static_cast<int>(b.size());
  std::vector<int> order;
  std::vector<int> online;
  for (int i = 0; i < n; ++i) {
    if (b[i].fixed()) order.push_back(i);
  }
  for (int i = n - 1; i >= 0; --i) {
    if (!b[i].fixed()) online.push_back(i);
  }
  for (size_t pass = 0; pass + 1 < online.size(); ++pass) {  // stable bubble sort, size descending
    for (size_t j = 0; j + 1 < online.size() - pass; ++j) {
      if (b[online[j]].size < b[online[j + 1]].size) std::swap(online[j], online[j + 1]);
    }
  }
  order.insert(order.end(), online.begin(), online.end());
  std::vector<Offset> offset(n, -1);
  std::vector<int> list;  // placed buffers in offset order
  for (int id : order) {
    Offset cand = 0;
    if (b[id].fixed()) {
      cand = b[id].fixed_offset;
    } else {
      for (int other : list) {
        if (!LifetimesOverlap(b[id], b[other])) continue;
        if (offset[other] - cand >= b[id].size) break;
        cand = AlignUp(std::max(cand, offset[other] + b[other].size), b[id].alignment);
      }
    }
    offset[id] = cand;
    auto pos = list.begin();
    while (pos != list.end() && offset[*pos] <= cand) ++pos;
    list.insert(pos, id);
  }
  return offset;
}

TEST(PlannerProperty, EveryPlannerValidAndNeverBelowTheBound) {
  PlannerOptions options;
  options.time_limit_seconds = 0.05;  // keeps the exact solver quick here
  size_t with_fixed_overlaps = 0, optimal_hits = 0;
  for (int seed = 0; seed < kProblems; ++seed) {
    const Problem p = RandomProblem({RandomStyle::kAdversarial, 20, static_cast<uint64_t>(seed)});
    ASSERT_TRUE(ValidateProblem(p).ok()) << "seed " << seed;
    const Bytes bound = LiveBytesLowerBound(p);
    for (const PlannerEntry& e : Planners()) {
      if ((e.name == "optimal" || e.name == "best") && seed % 10 != 0) continue;
      Result<PlanResult> r = e.run(p, options);
      if (!r.ok() && (r.status().code() == ErrorCode::kDeadlineExceeded)) continue;
      ASSERT_TRUE(r.ok()) << e.name << " seed " << seed << ": " << r.status().ToString();
      if (r->status == PlanStatus::kInfeasible) continue;
      const VerifyReport report = VerifyPlan(p, r->plan);
      ASSERT_TRUE(report.ok()) << e.name << " seed " << seed << ": " << report.errors[0].message;
      ASSERT_GE(r->plan.height, bound) << e.name << " seed " << seed;
      ASSERT_LE(r->lower_bound, r->plan.height) << e.name << " seed " << seed;
      if (e.name == "best-fit") {
        optimal_hits += r->plan.height == bound;
        with_fixed_overlaps += !report.fixed_overlaps.empty();
      }
    }
    Result<PlanResult> greedy = PlanTflmGreedy(p, {});
    ASSERT_TRUE(greedy.ok());
    ASSERT_EQ(greedy->plan.offsets, ReferenceTflmGreedy(p)) << "seed " << seed;
  }
  // The generator must really produce the edge cases this test is about.
  EXPECT_GT(with_fixed_overlaps, 100u);
  EXPECT_GT(optimal_hits, 1000u);
}

}  // namespace
}  // namespace arenaplan::plan
