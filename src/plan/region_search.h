// Private to the region planner (plan/region_planner.h): packing one region's buffers, and the
// exact branch and bound over region assignments described there (step 3).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

#include "plan/region_problem.h"

namespace arenaplan::plan {

struct RegionDeadline {
  std::chrono::steady_clock::time_point end;
  const std::atomic<bool>* cancel = nullptr;
  bool Passed() const;
  double Left() const;  // seconds, may be negative
};

// Live bytes of each region at each start point, for the cheap necessary capacity check.
class RegionLoad {
 public:
  RegionLoad(const RegionProblem& rp, const StartPoints& points);
  bool Fits(uint32_t i, uint32_t r) const;     // buffer i added to region r stays within capacity
  void Add(uint32_t i, uint32_t r, int sign);  // +1 adds buffer i to region r, -1 removes it
  Bytes Free(uint32_t r, uint32_t p) const { return rp_.regions[r].capacity - live_[r][p]; }

 private:
  const RegionProblem& rp_;
  const StartPoints& points_;
  std::vector<std::vector<Bytes>> live_;  // [region][point]
};

enum class PackVerdict { kFits, kNoFit, kUnknown };
struct PackedRegion {
  PackVerdict verdict = PackVerdict::kUnknown;
  std::vector<Offset> offsets;  // one per member, when kFits
  Bytes height = 0;             // best-fit's height, also when it does not fit
};

// Packs `members` (indices into rp.problem, ascending) into region r with best-fit; with `exact`,
// the optimal planner in decision mode (at most 0.25 s) decides what best-fit could not.
PackedRegion PackRegion(const RegionProblem& rp, const std::vector<uint32_t>& members, uint32_t r, bool exact,
                        const RegionDeadline& deadline);

struct RegionSearchResult {
  bool found = false;     // a placement cheaper than `incumbent` was found (in plan)
  bool finished = false;  // the whole tree was explored with every packing check decided
  RegionPlan plan;
  int64_t nodes = 0;
};

// Branch and bound for the cheapest placement below `incumbent` (kNoCost-like max for none).
// finished && !found proves that no placement is cheaper than the incumbent (or, without one,
// that none exists).
RegionSearchResult SearchRegions(const RegionProblem& rp, Cost incumbent, const RegionDeadline& deadline);

}  // namespace arenaplan::plan
