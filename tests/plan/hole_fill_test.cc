// Filler choices (plan/hole_fill.h): hand-made free profiles whose rectangles are known, and on
// the generator's slack packings the property every way must have (the fillers make the load equal
// to the capacity at every step of their segment) plus the construction's own holes among each
// segment's first ways. LowestPicks on hand-made scores.
#include "plan/hole_fill.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "plan/packing_problem.h"
#include "plan/search_model.h"

namespace arenaplan::plan::optimal_internal {
namespace {

using Box = std::tuple<Step, Step, Bytes>;  // first, last, size

std::vector<Box> Boxes(const std::vector<Buffer>& fillers) {
  std::vector<Box> out;
  for (const Buffer& b : fillers) out.emplace_back(b.first, b.last, b.size);
  std::sort(out.begin(), out.end());
  return out;
}

// A wall of 5 over steps 0-9 and, per two-step section, the load that leaves `free` of 10 units.
std::vector<Buffer> Profile(const std::vector<Bytes>& free) {
  std::vector<Buffer> b{Buffer{5, 0, 2 * static_cast<Step>(free.size()) - 1}};
  for (size_t s = 0; s < free.size(); ++s) {
    if (5 - free[s] > 0) b.push_back(Buffer{5 - free[s], 2 * static_cast<Step>(s), 2 * static_cast<Step>(s) + 1});
  }
  return b;
}

// The ways of the only segment.
std::vector<Fillers> Ways(const std::vector<FillerSegment>& segments) {
  EXPECT_EQ(segments.size(), 1u);
  return segments.empty() ? std::vector<Fillers>{} : segments[0].ways;
}

TEST(FillerChoices, NothingToFillInAPerfectPacking) {
  EXPECT_TRUE(FillerChoices(Profile({0, 0, 0, 0, 0}), 10, 1, 10, 1000).empty());
}

TEST(FillerChoices, RoomOnTopIsOneFillerOverEverything) {
  const auto ways = Ways(FillerChoices(Profile({0, 0, 0}), 13, 1, 10, 1000));
  ASSERT_FALSE(ways.empty());
  EXPECT_EQ(Boxes(ways[0]), (std::vector<Box>{{0, 5, 3}}));
}

TEST(FillerChoices, OverlappingHolesOfDifferentHeightsComeFirst) {
  // Holes [2, 6) x 2 and [4, 8) x 3: free 0, 2, 5, 3, 0.
  const auto ways = Ways(FillerChoices(Profile({0, 2, 5, 3, 0}), 10, 1, 10, 1000));
  ASSERT_FALSE(ways.empty());
  EXPECT_EQ(Boxes(ways[0]), (std::vector<Box>{{2, 5, 2}, {4, 7, 3}}));
}

TEST(FillerChoices, TwoHolesOpeningTogetherAreFoundByAPartialClose) {
  // Holes [2, 6) x 2 and [2, 8) x 3: free 0, 5, 5, 3, 0. No way without a coincidence exists; with
  // one, the 5 opened at step 2 either closes at 6 where a 3 opens, or closes there in part.
  const auto ways = Ways(FillerChoices(Profile({0, 5, 5, 3, 0}), 10, 1, 10, 1000));
  ASSERT_GE(ways.size(), 2u);
  EXPECT_EQ(Boxes(ways[0]), (std::vector<Box>{{2, 5, 5}, {6, 7, 3}}));
  EXPECT_EQ(Boxes(ways[1]), (std::vector<Box>{{2, 5, 2}, {2, 7, 3}}));
}

TEST(FillerChoices, AFullAndAPartialCloseAtOneStepAreOneWay) {
  // Holes [2, 8) x 1, [2, 6) x 2 and [4, 6) x 1 (slack-600-p20-s17's pattern): free 0, 3, 4, 1, 0.
  // At step 6 the 1 opened at 4 closes in full and 2 of the 3 opened at 2 close in part.
  const auto ways = Ways(FillerChoices(Profile({0, 3, 4, 1, 0}), 10, 1, 100, 100000));
  EXPECT_TRUE(std::any_of(ways.begin(), ways.end(), [](const Fillers& f) {
    return Boxes(f) == std::vector<Box>{{2, 5, 2}, {2, 7, 1}, {4, 5, 1}};
  }));
}

TEST(FillerChoices, TheProfileSplitsWhereItIsZero) {
  // Free 0, 2, 0, 5, 5, 3, 0: a hole [2, 4) x 2, then the two of the partial-close case.
  const auto segments = FillerChoices(Profile({0, 2, 0, 5, 5, 3, 0}), 10, 1, 10, 1000);
  ASSERT_EQ(segments.size(), 2u);
  EXPECT_EQ(segments[0].first, 2);
  EXPECT_EQ(segments[0].last, 3);
  ASSERT_EQ(segments[0].ways.size(), 1u);
  EXPECT_EQ(Boxes(segments[0].ways[0]), (std::vector<Box>{{2, 3, 2}}));
  EXPECT_EQ(segments[1].first, 6);
  EXPECT_EQ(segments[1].last, 11);
  // Each segment's ways are its own: the second has both of its explanations, not multiplied by
  // the first's.
  ASSERT_GE(segments[1].ways.size(), 2u);
  EXPECT_EQ(Boxes(segments[1].ways[0]), (std::vector<Box>{{6, 9, 5}, {10, 11, 3}}));
  EXPECT_EQ(Boxes(segments[1].ways[1]), (std::vector<Box>{{6, 9, 2}, {6, 11, 3}}));
}

TEST(FillerChoices, SizesAreInUnitsOfGAndTheCapacityRoundsDown) {
  std::vector<Buffer> b = Profile({0, 2, 0});
  for (Buffer& x : b) x.size *= 4;
  const auto ways = Ways(FillerChoices(b, 43, 4, 10, 1000));  // 43 -> 40 = 10 units of 4
  ASSERT_FALSE(ways.empty());
  EXPECT_EQ(Boxes(ways[0]), (std::vector<Box>{{2, 3, 8}}));
}

TEST(FillerChoices, OverloadedProblemsGetNoWays) {
  EXPECT_TRUE(FillerChoices(Profile({0, 0}), 9, 1, 10, 1000).empty());
}

TEST(FillerChoices, CapsBoundTheWays) {
  const auto ways = Ways(FillerChoices(Profile({1, 2, 3, 2, 1}), 10, 1, 3, 100000));
  EXPECT_LE(ways.size(), 3u);
}

TEST(LowestPicks, PicksComeInOrderOfTheirSumEachOnce) {
  const std::vector<std::vector<int64_t>> scores = {{5, 1, 3}, {0, 2}, {4}};
  const auto picks = LowestPicks(scores, 10);
  ASSERT_EQ(picks.size(), 6u);  // 3 x 2 x 1, all of them
  int64_t before = INT64_MIN;
  std::vector<std::vector<size_t>> seen;
  for (const auto& p : picks) {
    ASSERT_EQ(p.size(), 3u);
    const int64_t sum = scores[0][p[0]] + scores[1][p[1]] + scores[2][p[2]];
    EXPECT_GE(sum, before);
    before = sum;
    EXPECT_EQ(std::count(seen.begin(), seen.end(), p), 0);
    seen.push_back(p);
  }
  EXPECT_EQ(picks[0], (std::vector<size_t>{1, 0, 0}));      // 1 + 0 + 4
  EXPECT_EQ(picks.back(), (std::vector<size_t>{0, 1, 0}));  // 5 + 2 + 4
}

TEST(LowestPicks, EqualSumsPreferLowerIndicesAndTheCountCaps) {
  const auto picks = LowestPicks({{0, 0, 0}, {0, 0}}, 4);
  ASSERT_EQ(picks.size(), 4u);
  EXPECT_EQ(picks[0], (std::vector<size_t>{0, 0}));
  // Index sum 1 before index sum 2.
  EXPECT_EQ(picks[1][0] + picks[1][1], 1u);
  EXPECT_EQ(picks[2][0] + picks[2][1], 1u);
  EXPECT_EQ(picks[3][0] + picks[3][1], 2u);
  EXPECT_TRUE(LowestPicks({{1}}, 0).empty());
}

// Boxes with the same lifetime merged into one (the profile cannot tell stacked holes apart, and
// one filler of their total height fits where they were).
std::vector<Box> Merged(const std::vector<Buffer>& fillers) {
  std::map<std::pair<Step, Step>, Bytes> by_span;
  for (const Buffer& b : fillers) by_span[{b.first, b.last}] += b.size;
  std::vector<Box> out;
  for (const auto& [span, size] : by_span) out.emplace_back(span.first, span.second, size);
  return out;
}

// Every way of every segment of a slack packing fills the profile there exactly, and the pieces
// the generator took out are among each segment's first ways.
TEST(FillerChoices, SlackPackingsAreFilledExactly) {
  for (uint64_t seed = 0; seed < 4; ++seed) {
    PackingOptions o;
    o.variant = PackingVariant::kSlack;
    o.buffers = 300;
    o.seed = seed;
    const PackingInstance inst = MakePackingProblem(o);
    const auto segments = FillerChoices(inst.problem.buffers, inst.problem.capacity, kPackingGrid, 20, 200000);
    ASSERT_FALSE(segments.empty()) << "seed " << seed;
    size_t holes = 0;
    for (const FillerSegment& segment : segments) {
      std::vector<Buffer> inside;
      for (const Buffer& h : inst.removed) {
        if (h.first >= segment.first && h.last <= segment.last) inside.push_back(h);
      }
      holes += inside.size();
      EXPECT_TRUE(std::any_of(segment.ways.begin(), segment.ways.end(),
                              [&](const Fillers& f) { return Merged(f) == Merged(inside); }))
          << "seed " << seed << " segment from " << segment.first;
      for (const Fillers& fillers : segment.ways) {
        std::vector<Buffer> all = inst.problem.buffers;
        all.insert(all.end(), fillers.begin(), fillers.end());
        const Sections sec = BuildSections(all);
        for (int s = 0; s < sec.num_sections; ++s) {
          if (sec.points[s] < segment.first || sec.points[s] > segment.last) continue;
          ASSERT_EQ(sec.online_load[s], inst.problem.capacity) << "seed " << seed << " section " << s;
        }
        for (const Buffer& f : fillers) {
          EXPECT_GT(f.size, 0);
          EXPECT_EQ(f.size % kPackingGrid, 0);
          EXPECT_GE(f.first, segment.first);
          EXPECT_LE(f.last, segment.last);
          EXPECT_LE(f.first, f.last);
        }
      }
    }
    EXPECT_EQ(holes, inst.removed.size()) << "seed " << seed;  // every hole inside one segment
  }
}

}  // namespace
}  // namespace arenaplan::plan::optimal_internal
