// TimeIndex::Occupied must cover exactly the bytes of the placed buffers that share a step with
// the queried one: compared with a brute-force union on random problems.
#include "plan/time_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "plan/plan_testutil.h"
#include "plan/random_problem.h"

namespace arenaplan::plan {
namespace {

// Sorted, disjoint, non-touching union of ranges.
std::vector<std::pair<Offset, Offset>> Union(std::vector<Span> spans) {
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.offset < b.offset; });
  std::vector<std::pair<Offset, Offset>> out;
  for (const Span& s : spans) {
    if (!out.empty() && s.offset <= out.back().second)
      out.back().second = std::max(out.back().second, s.end);
    else
      out.emplace_back(s.offset, s.end);
  }
  return out;
}

// Places every buffer of p at a random offset, checking Occupied and SortedOccupied (in offset
// order) against a brute-force union before each placement.
void ExpectExactUnions(const Problem& p, TimeIndex::Layout layout, uint64_t seed) {
  std::mt19937_64 rng(seed);
  TimeIndex index(p, layout);
  std::vector<Offset> offset(p.buffers.size());
  std::vector<size_t> placed;
  for (size_t i = 0; i < p.buffers.size(); ++i) {
    std::vector<Span> got, sorted;
    index.Occupied(i, &got);
    index.SortedOccupied(i, &sorted);
    std::vector<Span> want;
    for (size_t j : placed) {
      if (LifetimesOverlap(p.buffers[i], p.buffers[j])) want.push_back({offset[j], offset[j] + p.buffers[j].size});
    }
    ASSERT_EQ(Union(got), Union(want)) << "seed " << seed << " buffer " << i;
    ASSERT_EQ(Union(sorted), Union(want)) << "seed " << seed << " buffer " << i;
    ASSERT_TRUE(
        std::is_sorted(sorted.begin(), sorted.end(), [](const Span& a, const Span& b) { return a.offset < b.offset; }));
    offset[i] = static_cast<Offset>(rng() % 3000);
    index.Insert(i, offset[i]);
    placed.push_back(i);
  }
  index.Clear();
  std::vector<Span> none;
  index.Occupied(0, &none);
  EXPECT_TRUE(none.empty());
}

TEST(TimeIndex, OccupiedIsExactlyTheUnionOfTimeOverlappingPlacedBuffers) {
  for (TimeIndex::Layout layout : {TimeIndex::Layout::kUnionTree, TimeIndex::Layout::kBuckets}) {
    for (uint64_t seed = 0; seed < 300; ++seed) {
      ExpectExactUnions(RandomProblem({RandomStyle::kAdversarial, 40, seed}), layout, seed);
    }
    // Long horizons: many buckets, lifetimes over one to dozens of them.
    for (uint64_t seed = 0; seed < 5; ++seed) {
      ExpectExactUnions(RandomProblem({RandomStyle::kUniform, 400, seed}), layout, seed);
      ExpectExactUnions(RandomProblem({RandomStyle::kTrace, 400, seed}), layout, seed);
    }
  }
}

TEST(TimeIndex, AutoLayoutPicksBucketsForShortLifetimesAndTheTreeForDenseTraces) {
  EXPECT_EQ(TimeIndex(RandomProblem({RandomStyle::kUniform, 20000, 1})).layout(), TimeIndex::Layout::kBuckets);
  // Every buffer alive over the whole horizon: a bucket query would scan all of them.
  Problem dense;
  for (int i = 0; i < 2000; ++i) dense.buffers.push_back(Buffer{16, i % 7, 5000 + i % 11});
  EXPECT_EQ(TimeIndex(dense).layout(), TimeIndex::Layout::kUnionTree);
}

TEST(TimeIndex, ExtremeStepsAreFine) {
  const Step lo = std::numeric_limits<Step>::min(), hi = std::numeric_limits<Step>::max();
  const Problem p = testing::MakeProblem({{8, lo, hi}, {8, hi, hi}, {8, lo, lo}});
  TimeIndex index(p);
  index.Insert(0, 0);
  std::vector<Span> got;
  index.Occupied(1, &got);
  ASSERT_EQ(Union(got), (std::vector<std::pair<Offset, Offset>>{{0, 8}}));
  index.Insert(1, 8);
  got.clear();
  index.Occupied(2, &got);
  ASSERT_EQ(Union(got), (std::vector<std::pair<Offset, Offset>>{{0, 8}}));
}

TEST(RandomProblem, SameSeedSameProblem) {
  const Problem a = RandomProblem({RandomStyle::kTrace, 500, 9});
  const Problem b = RandomProblem({RandomStyle::kTrace, 500, 9});
  ASSERT_EQ(a.buffers.size(), 500u);
  for (size_t i = 0; i < a.buffers.size(); ++i) {
    EXPECT_EQ(a.buffers[i].size, b.buffers[i].size);
    EXPECT_EQ(a.buffers[i].first, b.buffers[i].first);
    EXPECT_EQ(a.buffers[i].last, b.buffers[i].last);
  }
}

}  // namespace
}  // namespace arenaplan::plan
