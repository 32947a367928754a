// Peak repair: lowers a valid plan by repacking around its peak, for problems too large for the
// exact search (large neighbourhood search with greedy re-insertion).
//
// Each move takes a buffer at the plan's height and a time window around its lifetime, frees the
// highest buffers living entirely inside the window (at most a neighbourhood size), keeps every
// other buffer where it is, and puts the freed ones back with the placement engine under a few
// orders (size descending with first fit and with best fit, then shuffles). The move is kept when
// the freed buffers' highest top goes down (or stays and fewer reach it), so the plan's height never
// rises; failures widen the window and the neighbourhood, successes reset them. Stops at the
// deadline (no move starts that the longest so far says would end past it), the cancel flag, or
// the target height. Every kept plan is valid by construction (the
// fixed buffers are obstacles of the re-insertion), and verified by the caller.
// Cost per move: O(n) to collect the window plus PlaceInOrder on it (plan/placement.h).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>

#include "plan/planner.h"
#include "plan/problem.h"

namespace arenaplan::plan {

struct RepairOptions {
  std::chrono::steady_clock::time_point deadline;
  const std::atomic<bool>* cancel = nullptr;
  Bytes target = 0;  // stop once the height is at or below this
  uint64_t seed = 1;
  // Called with the current plan after each lower height and about every kProgressInterval (may
  // be empty).
  std::function<void(const Plan&)> progress;
};

struct RepairStats {
  int64_t moves = 0, kept = 0;
};

// `plan` must be a valid plan of `problem` (ValidateProblem passed). Returns the lowest plan found.
Plan RepairPeaks(const Problem& problem, Plan plan, const RepairOptions& options, RepairStats* stats = nullptr);

}  // namespace arenaplan::plan
