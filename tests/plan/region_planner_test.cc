// Several memories (plan/region_planner.h): hand-worked placements whose optimal cost is computed
// below by hand, a brute force over every assignment with its own packing check on small random
// problems, the baselines, "does not fit" with its shortfall, and the region verifier.
#include "plan/region_planner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>

#include "plan/verify.h"
#include "plan_testutil.h"

namespace arenaplan::plan {
namespace {

using testing::MakeProblem;

RegionProblem Make(Problem p, std::vector<Bytes> traffic, std::vector<Region> regions) {
  return {std::move(p), std::move(traffic), std::move(regions)};
}

TEST(RegionPlanner, HotterBufferGetsTheFastMemory) {
  // Two 64-byte buffers alive together; the fast region holds one. Hand-worked: the hot one (1000
  // bytes of traffic) in fast (cost 1), the cold one (10) in slow (cost 10): 1000 + 100 = 1100.
  auto rp = Make(MakeProblem({{64, 0, 1}, {64, 1, 2}}), {10, 1000}, {{"fast", 64, 1}, {"slow", 1024, 10}});
  auto r = PlanRegions(rp);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_TRUE(r->fits);
  EXPECT_EQ(r->plan.cost, 1100);
  EXPECT_EQ(r->plan.region, (std::vector<uint32_t>{1, 0}));
  EXPECT_EQ(r->status, PlanStatus::kOptimal);
  EXPECT_EQ(r->plan.used, (std::vector<Bytes>{64, 64}));
  // Naive: both in slow, (10 + 1000) x 10.
  ASSERT_TRUE(r->naive.fits);
  EXPECT_EQ(r->naive.plan.cost, 10100);
}

TEST(RegionPlanner, DensityBeatsSizeAndFastestFirstDoesNot) {
  // All alive at once. A: 128 B, traffic 256 (2 per byte); B, C: 64 B, 192 each (3 per byte).
  // fast 128 B at cost 1, slow at cost 4. By hand: A fast = 256 + 4 x 384 = 1792;
  // B + C fast = 384 + 4 x 256 = 1408 (optimal). Fastest-first (size order) puts A in fast: 1792.
  auto rp = Make(MakeProblem({{128, 0, 2}, {64, 0, 2}, {64, 0, 2}}), {256, 192, 192},
                 {{"fast", 128, 1}, {"slow", 4096, 4}});
  auto r = PlanRegions(rp);
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->fits);
  EXPECT_EQ(r->plan.cost, 1408);
  EXPECT_EQ(r->status, PlanStatus::kOptimal);
  ASSERT_TRUE(r->fastest_first.fits);
  EXPECT_EQ(r->fastest_first.plan.cost, 1792);
  EXPECT_EQ(r->naive.plan.cost, 4 * 640);
  EXPECT_LE(r->cost_lower_bound, 1408);
}

TEST(RegionPlanner, TimeSharingLetsEverythingIntoTheFastMemory) {
  // Three 100-byte buffers one after another: they share the 112-byte fast region (aligned 16:
  // 112 B each), so the cost is the traffic itself: 3 x 300 at cost 1, the lower bound.
  auto rp = Make(MakeProblem({{112, 0, 0}, {112, 1, 1}, {112, 2, 2}}), {300, 300, 300},
                 {{"slow", 1 << 20, 20}, {"fast", 112, 1}});
  auto r = PlanRegions(rp);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->plan.cost, 900);
  EXPECT_EQ(r->cost_lower_bound, 900);
  EXPECT_EQ(r->status, PlanStatus::kOptimal);
  EXPECT_EQ(r->plan.used, (std::vector<Bytes>{0, 112}));
  EXPECT_EQ(r->naive.plan.cost, 900 * 20);  // naive = the largest region, slow
}

TEST(RegionPlanner, LargestBufferFitsNoRegion) {
  auto rp = Make(MakeProblem({{200, 0, 1}, {16, 0, 0}}), {400, 32}, {{"a", 128, 1}, {"b", 64, 2}});
  auto r = PlanRegions(rp);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->fits);
  EXPECT_EQ(r->status, PlanStatus::kInfeasible);
  EXPECT_EQ(r->shortfall_min, 72);  // 200 - 128
  // Everything in a: best-fit stacks them (200 + 16 alive together at step 0) = 216 - 128.
  EXPECT_EQ(r->shortfall_max, 88);
  EXPECT_FALSE(r->naive.fits);
  EXPECT_FALSE(r->fastest_first.fits);
}

TEST(RegionPlanner, LiveBytesBeyondAllRegionsIsTheShortfall) {
  // 3 x 64 bytes alive together, 2 x 64 bytes of regions: 64 bytes short, exactly.
  auto rp = Make(MakeProblem({{64, 0, 1}, {64, 0, 1}, {64, 1, 1}}), {1, 1, 1}, {{"a", 64, 1}, {"b", 64, 1}});
  auto r = PlanRegions(rp);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->fits);
  EXPECT_EQ(r->status, PlanStatus::kInfeasible);
  EXPECT_EQ(r->shortfall_min, 64);
  EXPECT_EQ(r->shortfall_max, 128);  // all three in one 64-byte region need 192
}

TEST(RegionPlanner, RejectsBadRegions) {
  const Problem p = MakeProblem({{16, 0, 0}});
  auto msg = [&](std::vector<Region> regions, std::vector<Bytes> traffic = {16}) {
    auto r = PlanRegions(Make(p, traffic, std::move(regions)));
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : r.status().message();
  };
  EXPECT_NE(msg({{"a", 64, 1}, {"a", 128, 2}}).find("duplicate region name 'a'"), std::string::npos);
  EXPECT_NE(msg({{"a", 0, 1}}).find("size must be positive"), std::string::npos);
  EXPECT_NE(msg({{"a", 64, 0}}).find("cost must be"), std::string::npos);
  EXPECT_NE(msg({{"a", 64, -3}}).find("cost must be"), std::string::npos);
  EXPECT_NE(msg({}).find("no region"), std::string::npos);
  EXPECT_NE(msg({{"a", 64, 1}}, {}).find("traffic figures"), std::string::npos);
  EXPECT_NE(msg({{"a", 64, 1}}, {-1}).find("traffic out of range"), std::string::npos);
}

TEST(RegionPlanner, HugeRegionsDoNotOverflow) {
  // 64 regions of 2^60 bytes each sum beyond int64: the bounds must saturate (UBSan checks).
  std::vector<Region> regions;
  for (int r = 0; r < 64; ++r) regions.push_back({"r" + std::to_string(r), kMaxTotalBytes, 1 + r});
  auto r = PlanRegions(Make(MakeProblem({{16, 0, 0}}), {32}, regions));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->fits);
  EXPECT_EQ(r->plan.cost, 32);
  EXPECT_EQ(r->status, PlanStatus::kOptimal);
}

// An independent check: can these buffers share `cap` bytes? First fit over every order of the
// buffers (complete: placing an optimal packing's buffers by ascending offset with first fit puts
// each at or below its own offset), written without the planners' code.
bool PacksBrute(const std::vector<Buffer>& b, const std::vector<int>& ids, Bytes cap) {
  std::vector<int> order = ids;
  std::sort(order.begin(), order.end());
  do {
    std::vector<std::pair<int, Offset>> placed;
    bool ok = true;
    for (int i : order) {
      Offset off = 0;
      for (bool moved = true; moved;) {
        moved = false;
        for (auto [j, o] : placed) {
          const bool time = !(b[i].first > b[j].last || b[j].first > b[i].last);
          if (time && off < o + b[j].size && o < off + b[i].size) {
            off = (o + b[j].size + b[i].alignment - 1) / b[i].alignment * b[i].alignment;
            moved = true;
          }
        }
      }
      if (off + b[i].size > cap) {
        ok = false;
        break;
      }
      placed.push_back({i, off});
    }
    if (ok) return true;
  } while (std::next_permutation(order.begin(), order.end()));
  return false;
}

// The cheapest assignment of every buffer to a region whose buffers pack (brute force); -1: none.
Cost BruteForceCost(const RegionProblem& rp) {
  const int n = static_cast<int>(rp.problem.buffers.size());
  const int R = static_cast<int>(rp.regions.size());
  std::vector<std::vector<int>> packs(R, std::vector<int>(1 << n, -1));  // memo per region and subset
  Cost best = -1;
  std::vector<int> a(n, 0);
  for (;;) {
    bool ok = true;
    for (int r = 0; r < R && ok; ++r) {
      int mask = 0;
      std::vector<int> ids;
      for (int i = 0; i < n; ++i) {
        if (a[i] == r) {
          mask |= 1 << i;
          ids.push_back(i);
        }
      }
      if (packs[r][mask] < 0) packs[r][mask] = PacksBrute(rp.problem.buffers, ids, rp.regions[r].capacity);
      ok = packs[r][mask] == 1;
    }
    if (ok) {
      Cost c = 0;
      for (int i = 0; i < n; ++i) c += rp.traffic[i] * rp.regions[a[i]].cost;
      if (best < 0 || c < best) best = c;
    }
    int k = 0;
    while (k < n && ++a[k] == R) a[k++] = 0;
    if (k == n) break;
  }
  return best;
}

TEST(RegionPlanner, ExactSearchMatchesBruteForceOnSmallRandomProblems) {
  std::mt19937 rng(15);
  int proven = 0, infeasible = 0;
  for (int trial = 0; trial < 150; ++trial) {
    SCOPED_TRACE(trial);
    const int n = 2 + static_cast<int>(rng() % 5);
    const int regions = 2 + static_cast<int>(rng() % 2);
    RegionProblem rp;
    for (int i = 0; i < n; ++i) {
      const Step first = rng() % 5;
      rp.problem.buffers.push_back(
          {8 * (1 + static_cast<Bytes>(rng() % 6)), first, first + static_cast<Step>(rng() % 3), kUnfixed, 8});
      rp.traffic.push_back(static_cast<Bytes>(rng() % 200));
    }
    for (int r = 0; r < regions; ++r) {
      rp.regions.push_back(
          {"r" + std::to_string(r), 8 * (1 + static_cast<Bytes>(rng() % 10)), 1 + static_cast<Cost>(rng() % 20)});
    }
    const Cost expected = BruteForceCost(rp);
    auto r = PlanRegions(rp);
    ASSERT_TRUE(r.ok()) << r.status().message();
    if (expected < 0) {
      EXPECT_FALSE(r->fits);
      EXPECT_EQ(r->status, PlanStatus::kInfeasible);
      EXPECT_GE(r->shortfall_max, r->shortfall_min);
      EXPECT_GE(r->shortfall_min, 1);
      ++infeasible;
      continue;
    }
    ASSERT_TRUE(r->fits);
    EXPECT_EQ(r->status, PlanStatus::kOptimal);
    EXPECT_EQ(r->plan.cost, expected);
    EXPECT_LE(r->cost_lower_bound, expected);
    EXPECT_TRUE(VerifyRegionPlan(rp, r->plan).ok());
    if (r->fastest_first.fits) { EXPECT_GE(r->fastest_first.plan.cost, expected); }
    ++proven;
  }
  EXPECT_GT(proven, 50);  // both kinds of instance occur
  EXPECT_GT(infeasible, 5);
}

TEST(RegionPlanner, CostLowerBoundByHand) {
  // fast 64 B at cost 1, slow at cost 3; at step 0 two 64-byte buffers (traffic 128 and 64) are
  // alive: fractionally the denser one takes fast, the other pays +2 per traffic byte: 192 + 2 x 64.
  auto rp = Make(MakeProblem({{64, 0, 0}, {64, 0, 0}}), {128, 64}, {{"fast", 64, 1}, {"slow", 256, 3}});
  EXPECT_EQ(RegionCostLowerBound(rp), 192 + 128);
}

TEST(VerifyRegionPlan, ChecksEachRegionAndTheCost) {
  auto rp = Make(MakeProblem({{64, 0, 1}, {64, 1, 2}}), {10, 20}, {{"a", 128, 1}, {"b", 64, 5}});
  RegionPlan ok{{0, 1}, {0, 0}, {64, 64}, 10 + 100};
  EXPECT_TRUE(VerifyRegionPlan(rp, ok).ok());  // same bytes, same time, different regions
  RegionPlan overlap{{0, 0}, {0, 32}, {96, 0}, 30};
  auto rep = VerifyRegionPlan(rp, overlap);
  ASSERT_FALSE(rep.ok());
  EXPECT_EQ(rep.errors[0].kind, Violation::kOverlap);
  EXPECT_NE(rep.errors[0].message.find("region 'a'"), std::string::npos);
  RegionPlan over{{0, 1}, {0, 16}, {64, 80}, 110};
  rep = VerifyRegionPlan(rp, over);
  ASSERT_FALSE(rep.ok());
  EXPECT_EQ(rep.errors[0].kind, Violation::kOverCapacity);
  EXPECT_EQ(rep.errors[0].a, 1u);
  RegionPlan bad{{0, 2}, {0, 0}, {64, 0}, 0};
  EXPECT_EQ(VerifyRegionPlan(rp, bad).errors.at(0).kind, Violation::kBadRegion);
  RegionPlan cost{{0, 1}, {0, 0}, {64, 64}, 111};
  EXPECT_EQ(VerifyRegionPlan(rp, cost).errors.at(0).kind, Violation::kCostMismatch);
  RegionPlan used{{0, 1}, {0, 0}, {64, 0}, 110};
  EXPECT_EQ(VerifyRegionPlan(rp, used).errors.at(0).kind, Violation::kHeightMismatch);
}

}  // namespace
}  // namespace arenaplan::plan
