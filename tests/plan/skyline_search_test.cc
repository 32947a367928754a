// The skyline search (the optimal planner's perfect-packing search, plan/skyline_search.h) on its
// own, against an independent brute force: small random perfect packings (a grid rectangle cut by
// random guillotine cuts), the same with pieces removed (slack) and with the capacity one below
// (infeasible), and random tight problems. A pruning rule that cuts off real packings makes a
// "fits" come out refuted here; every plan found is checked by VerifyPlan.
#include "plan/skyline_search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "plan/lower_bound.h"
#include "plan/packing_problem.h"
#include "plan/verify.h"

namespace arenaplan::plan::optimal_internal {
namespace {

// Exhaustive: is there a placement of every buffer within `capacity` (offsets 0..capacity - size)?
struct Brute {
  const std::vector<Buffer>& b;
  Bytes capacity;
  std::vector<size_t> order{};
  std::vector<Offset> off{};
  bool Fits(size_t k) {
    if (k == order.size()) return true;
    const size_t i = order[k];
    for (Offset o = 0; o + b[i].size <= capacity; ++o) {
      bool clash = false;
      for (size_t m = 0; m < k && !clash; ++m) {
        const size_t j = order[m];
        clash = b[i].first <= b[j].last && b[j].first <= b[i].last && o < off[j] + b[j].size && off[j] < o + b[i].size;
      }
      if (clash) continue;
      off[i] = o;
      if (Fits(k + 1)) return true;
    }
    return false;
  }
  bool Run() {
    for (size_t i = 0; i < b.size(); ++i) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return b[x].size > b[y].size; });
    off.assign(b.size(), 0);
    return Fits(0);
  }
};

struct Rect {
  int t0, t1, a0, a1;  // [t0, t1) x [a0, a1)
};

// A width x height grid rectangle cut by random guillotine cuts into `pieces` rectangles.
std::vector<Buffer> RandomPerfect(std::mt19937& rng, int width, int height, int pieces) {
  std::vector<Rect> rects{{0, width, 0, height}};
  for (int tries = 0; static_cast<int>(rects.size()) < pieces && tries < 200; ++tries) {
    const size_t k = rng() % rects.size();
    Rect r = rects[k];
    const bool in_time = rng() % 2 == 0;
    if (in_time && r.t1 - r.t0 >= 2) {
      const int c = r.t0 + 1 + static_cast<int>(rng() % (r.t1 - r.t0 - 1));
      rects[k] = {r.t0, c, r.a0, r.a1};
      rects.push_back({c, r.t1, r.a0, r.a1});
    } else if (!in_time && r.a1 - r.a0 >= 2) {
      const int c = r.a0 + 1 + static_cast<int>(rng() % (r.a1 - r.a0 - 1));
      rects[k] = {r.t0, r.t1, r.a0, c};
      rects.push_back({r.t0, r.t1, c, r.a1});
    }
  }
  std::shuffle(rects.begin(), rects.end(), rng);
  std::vector<Buffer> out;
  for (const Rect& r : rects) {
    Buffer b;
    b.first = r.t0;
    b.last = r.t1 - 1;
    b.size = r.a1 - r.a0;
    out.push_back(b);
  }
  return out;
}

std::string Dump(const std::vector<Buffer>& bs) {
  std::string s;
  for (const Buffer& b : bs)
    s += "{" + std::to_string(b.size) + "," + std::to_string(b.first) + "," + std::to_string(b.last) + "} ";
  return s;
}

// Three of the portfolio's orders, each under every cell rule, must agree with the brute force.
void ExpectAgrees(const std::vector<Buffer>& bs, Bytes capacity, const std::string& what) {
  SCOPED_TRACE(what + " capacity " + std::to_string(capacity) + ": " + Dump(bs));
  if (bs.empty() || !SkylineSearch::Applicable(bs)) return;
  Brute brute{bs, capacity};
  const bool fits = brute.Run();
  SkylineSearch sky(bs);
  for (const char* keys : {"WAZ", "OWA", "CWA"}) {
    for (const SkylineCell cell : {SkylineCell::kLowestValley, SkylineCell::kFewest, SkylineCell::kFewestElseLowest}) {
      SCOPED_TRACE("cell rule " + std::to_string(static_cast<int>(cell)));
      SkylineOrder o;
      o.keys = keys;
      o.cell = cell;
      Limits limits;
      limits.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
      std::vector<Offset> off;
      const Outcome r = sky.Run(capacity, o, 0, limits, &off);
      ASSERT_TRUE(r == Outcome::kFound || r == Outcome::kNotFound) << OutcomeName(r);
      EXPECT_EQ(r == Outcome::kFound, fits) << keys;
      if (r == Outcome::kFound) {
        Problem p;
        p.buffers.insert(p.buffers.end(), bs.begin(), bs.end());
        p.capacity = capacity;
        Plan plan{off, PlanHeight(p, off)};
        EXPECT_TRUE(VerifyPlan(p, plan).ok()) << keys;
        EXPECT_LE(plan.height, capacity) << keys;
      }
    }
  }
}

TEST(SkylineSearch, MatchesBruteForceOnSmallPerfectPackings) {
  for (uint32_t seed = 1; seed <= 2000; ++seed) {
    std::mt19937 rng(seed);
    const int width = 2 + static_cast<int>(rng() % 9), height = 2 + static_cast<int>(rng() % 8);
    const std::vector<Buffer> bs = RandomPerfect(rng, width, height, 3 + static_cast<int>(rng() % 10));
    ExpectAgrees(bs, height, "perfect seed " + std::to_string(seed));
    ExpectAgrees(bs, height - 1, "below seed " + std::to_string(seed));
  }
}

TEST(SkylineSearch, MatchesBruteForceWithSlack) {
  for (uint32_t seed = 1; seed <= 1500; ++seed) {
    std::mt19937 rng(seed * 7919u);
    const int width = 2 + static_cast<int>(rng() % 7), height = 2 + static_cast<int>(rng() % 7);
    std::vector<Buffer> bs = RandomPerfect(rng, width, height, 4 + static_cast<int>(rng() % 7));
    bs.erase(bs.begin());  // shuffled: a random piece leaves a hole
    if (rng() % 2 == 0 && bs.size() > 2) bs.erase(bs.begin());
    Problem p;
    p.buffers.insert(p.buffers.end(), bs.begin(), bs.end());
    const Bytes lb = LiveBytesLowerBound(p);
    ExpectAgrees(bs, height, "slack seed " + std::to_string(seed));
    ExpectAgrees(bs, lb, "slack at bound seed " + std::to_string(seed));
  }
}

TEST(SkylineSearch, MatchesBruteForceOnRandomTightProblems) {
  for (uint32_t seed = 1; seed <= 2000; ++seed) {
    std::mt19937 rng(seed * 104729u);
    std::vector<Buffer> bs;
    const int n = 2 + static_cast<int>(rng() % 8), steps = 1 + static_cast<int>(rng() % 6);
    for (int i = 0; i < n; ++i) {
      Buffer b;
      b.size = 1 + static_cast<int>(rng() % 5);
      b.first = static_cast<Step>(rng() % steps);
      b.last = b.first + static_cast<Step>(rng() % (steps - b.first));
      bs.push_back(b);
    }
    Problem p;
    p.buffers.insert(p.buffers.end(), bs.begin(), bs.end());
    const Bytes lb = LiveBytesLowerBound(p);
    ExpectAgrees(bs, lb, "random seed " + std::to_string(seed));
    ExpectAgrees(bs, lb + 1, "random +1 seed " + std::to_string(seed));
  }
}

// A slack packing with one extra buffer of 1 byte: g becomes 1, so every byte of the slack is a
// wasted cell and a decision of its own (about 20,000 per hole). A path that long ends the run
// like a spent budget (no answer, never a refutation) instead of recursing once per decision;
// without the limit the search went 26,000 levels deep on a real window and overflowed the stack.
TEST(SkylineSearch, ALongPathOfWastedCellsEndsTheRunNotTheStack) {
  PackingOptions o;
  o.variant = PackingVariant::kSlack;
  o.buffers = 150;
  Problem p = MakePackingProblem(o).problem;
  Buffer tiny;
  tiny.first = tiny.last = 0;
  tiny.size = 1;
  p.buffers.push_back(tiny);
  p.capacity += 1;
  SkylineSearch search(p.buffers);
  std::vector<Offset> off;
  Limits limits;
  limits.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  const Outcome r = search.Run(p.capacity, SkylineOrder{}, 0, limits, &off);
  ASSERT_TRUE(r == Outcome::kFound || r == Outcome::kBudget) << static_cast<int>(r);
  if (r == Outcome::kFound) { EXPECT_TRUE(VerifyPlan(p, Plan{off, PlanHeight(p, off)}).ok()); }
}

}  // namespace
}  // namespace arenaplan::plan::optimal_internal
