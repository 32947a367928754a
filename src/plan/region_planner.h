// Several memories: every buffer in one region at one offset, minimising the modelled access cost
// (plan/region_problem.h). The single-region planners do all packing; this layer only decides
// which buffers share a region.
//
// Algorithm:
//  1. Baselines. "naive": everything in the largest region (ties: the cheapest), packed by
//     best-fit. "fastest-first" (ExecuTorch's banked greedy, as in its Cadence backend): buffers
//     by size descending in TFLM's order, each at TFLM's first fit in the cheapest region where it
//     ends within the capacity, else the next cheapest.
//  2. Heuristic: the same banked first fit with buffers by traffic per byte descending, then an
//     improvement pass: each buffer, densest first, moves to the cheapest region whose buffers
//     plus it still pack under best-fit (a cheap live-bytes check first). Removing a buffer never
//     invalidates a region's offsets, so every step keeps a valid plan. O(n) best-fit runs.
//  3. Exact search, up to kExactMaxBuffers buffers: depth-first branch and bound over region
//     assignments, buffers by traffic descending, cheapest region first. A node is cut when a
//     region's live bytes exceed its capacity at a start point, or when cost so far + the
//     relaxation bound of the unassigned buffers (region_problem.h, with the capacity left at each
//     point) reaches the best cost found. A leaf is accepted when every region packs: best-fit,
//     else the optimal planner in decision mode (capacity = the region's), whose answers are
//     cached per set of buffers. Finishing the tree proves the best cost optimal for the cost
//     model (or, with no leaf accepted, that nothing fits); a packing check that timed out leaves
//     the result unproven. Exponential in the worst case; bounded by the time limit.
//  4. Every returned plan (chosen and baselines) is checked by VerifyRegionPlan; one that fails is
//     an internal error.
// When nothing fits, the result says by how much: at least RegionShortfallLowerBound bytes, and at
// most what putting everything in the largest region would need beyond its capacity.
#pragma once

#include <string>

#include "plan/planner.h"
#include "plan/region_problem.h"

namespace arenaplan::plan {

inline constexpr size_t kExactMaxBuffers = 400;  // larger problems get the heuristic and its gap
inline constexpr double kDefaultRegionSeconds = 2;

struct RegionBaseline {
  bool fits = false;  // false: the strategy found no placement (plan empty)
  RegionPlan plan;
};

struct RegionResult {
  bool fits = false;
  RegionPlan plan;                             // the cheapest placement found (empty when !fits)
  PlanStatus status = PlanStatus::kHeuristic;  // kOptimal: proven minimal cost; kInfeasible: proven
                                               // that nothing fits; kHeuristic: no proof
  std::string method;                          // "fastest-first", "density", "exact", "naive"
  Cost cost_lower_bound = 0;                   // RegionCostLowerBound (the optimum's cost when kOptimal)
  bool exact_ran = false;                      // the exact search ran (small enough, time left)
  bool exact_finished = false;                 // ... and explored its whole tree
  Bytes shortfall_min = 0;                     // !fits: at least this many more bytes are needed
  Bytes shortfall_max = 0;                     // !fits: this many more in the largest region certainly do
  RegionBaseline naive;                        // everything in the largest region
  RegionBaseline fastest_first;                // ExecuTorch's banked greedy
  int64_t nodes = 0;                           // exact-search nodes
  double seconds = 0;
};

// time_limit_seconds = 0 means kDefaultRegionSeconds (for the whole call); cancel stops early.
// Errors: kInvalidArgument (ValidateRegionProblem), kInternal (a plan failed verification).
Result<RegionResult> PlanRegions(const RegionProblem& rp, const PlannerOptions& options = {});

}  // namespace arenaplan::plan
