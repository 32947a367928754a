// Several memories: the plain multi-region placement problem, its cost model and its bounds.
// Knows nothing of .tflite: the caller says how many bytes each buffer moves.
//
// Cost model. Each buffer i has a traffic t_i (bytes accessed per inference; arenaplan's CLI uses
// the bytes written once by the producer plus the bytes read once per consumer op) and each region
// r a cost c_r per byte accessed. A placement puts every buffer in one region at one offset; its
// cost is sum_i t_i * c_{region(i)}. The planner only multiplies: where the traffic comes from is
// the caller's business. A placement is valid when, within each region, no two time-overlapping
// buffers share a byte, offsets are aligned and every buffer ends at or below the region's
// capacity (plan/verify.h: VerifyRegionPlan).
//
// Cost lower bound (RegionCostLowerBound), the larger of two relaxations:
//  * each buffer alone: sum_i t_i * (cheapest cost among the regions at least size_i large);
//  * one step at a time: every buffer pays at least the cheapest cost c_0; at a step p the buffers
//    alive there must share the regions' capacities, so their extra over c_0 is at least the
//    fractional optimum that gives the cheapest bytes to the buffers of highest traffic per byte
//    (a greedy that is exact for the fractional problem, whose costs are density x region cost).
//    Total extra >= the extra of the buffers alive at p, for every p; the bound takes the best p.
// Only steps where some buffer starts matter (live sets only grow there). O(P n log n) for P such
// steps.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan/problem.h"
#include "util/result.h"

namespace arenaplan::plan {

using Cost = int64_t;  // traffic bytes x cost per byte

struct Region {
  std::string name;    // unique, non-empty
  Bytes capacity = 0;  // > 0
  Cost cost = 1;       // per byte accessed, > 0
};

struct RegionProblem {
  Problem problem;             // the buffers (Problem::capacity is ignored; no fixed offsets)
  std::vector<Bytes> traffic;  // one per buffer: bytes accessed per inference, >= 0
  std::vector<Region> regions;
};

struct RegionPlan {
  std::vector<uint32_t> region;  // one per buffer: index into RegionProblem::regions
  std::vector<Offset> offsets;   // one per buffer: offset within its region
  std::vector<Bytes> used;       // one per region: max(offset + size) of its buffers (0 if none)
  Cost cost = 0;                 // sum of traffic x region cost
};

inline constexpr Cost kMaxRegionCost = 1000000;  // per byte; keeps every cost sum below 2^62
inline constexpr size_t kMaxRegions = 64;

// Checks the buffers (ValidateProblem, no fixed offsets), the traffic (one per buffer, >= 0) and
// the regions (1..kMaxRegions, unique non-empty names, capacity > 0, 0 < cost <= kMaxRegionCost)
// and that sum(traffic) x max cost fits an int64. The error names the buffer or region. O(n + R^2).
Status ValidateRegionProblem(const RegionProblem& rp);

// sum traffic_i x cost of region_i (the assignment must have one valid region per buffer).
Cost AssignmentCost(const RegionProblem& rp, const std::vector<uint32_t>& region);

// The indices of the buffers assigned to region r, ascending. O(n).
std::vector<uint32_t> RegionMembers(const std::vector<uint32_t>& region, uint32_t r);

// The buffers `members` (indices into rp.problem) as a plain problem with region r's capacity.
Problem RegionSubproblem(const RegionProblem& rp, const std::vector<uint32_t>& members, uint32_t r);

// Fills plan->used and plan->cost from plan->region and plan->offsets. O(n).
void FinishRegionPlan(const RegionProblem& rp, RegionPlan* plan);

// The relaxation bound in the header. Infeasible relaxations (a step whose live bytes exceed the
// total capacity, a buffer larger than every region) give the bound of the buffers that fit.
Cost RegionCostLowerBound(const RegionProblem& rp);

// How many bytes are missing when the regions cannot hold the buffers, from two necessary
// conditions: the largest buffer must fit the largest region, and the bytes alive at any one step
// must fit the regions together. 0 when neither is violated (the buffers may still not pack).
// `largest_buffer` receives the index of a largest buffer. O(n log n).
Bytes RegionShortfallLowerBound(const RegionProblem& rp, size_t* largest_buffer = nullptr);

// The steps where some buffer starts, and which of them each buffer is alive at: the live set at
// any step is contained in the live set at the latest start before it, so capacity checks and the
// per-step bound only look at these P points. O(n log n).
struct StartPoints {
  std::vector<Step> steps;                          // distinct first steps, ascending
  std::vector<std::pair<uint32_t, uint32_t>> span;  // per buffer: [lo, hi] indices into steps
  std::vector<std::vector<uint32_t>> alive;         // per point: buffers alive there
};
StartPoints BuildStartPoints(const Problem& problem);

// Sorts buffer indices by traffic per byte, descending (ties: lower index first).
void SortByDensity(const RegionProblem& rp, std::vector<uint32_t>* ids);

// The fractional extra cost (over the cheapest region's) of giving the bytes `free[r]` of each
// region to the buffers `alive` (in traffic-per-byte descending order), cheapest bytes to the
// densest buffers; `order` lists regions by cost ascending. Returns -1 when the buffers do not fit
// the free bytes together. O(|alive| + R).
Cost FractionalExtraCost(const RegionProblem& rp, const std::vector<uint32_t>& alive, const std::vector<Bytes>& free,
                         const std::vector<uint32_t>& order);

// Regions by cost ascending (ties: larger first, then given order).
std::vector<uint32_t> RegionsByCost(const RegionProblem& rp);

}  // namespace arenaplan::plan
