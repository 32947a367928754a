// Target sweep: plans a large problem within a given height, for `best` on problems too large for
// the exact search and too evenly loaded for peak anchoring (random problems of 100k buffers,
// where every greedy order stays 5 % above the live-bytes bound and local repair stalls at 3 %).
//
// A plan within height H fails only where the live bytes come close to H; elsewhere any
// reasonable placement fits. So, for one target H:
//  1. Hot windows. The steps whose live bytes reach `hot_share` x H are grouped into windows
//     (hot steps closer than two reaches apart share one; each widened by a reach on both sides,
//     a reach being 1.5 median lifetimes). Busiest window first, the buffers alive in a window
//     (whole lifetimes) are packed by the exact decision search within H, around the buffers of
//     earlier windows and the fixed buffers, and stay there. A window the search cannot settle in
//     its time is left to step 2.
//  2. Sweep. Every other buffer, in order of first step, goes to the smallest gap within H among
//     the placed buffers it meets (best fit). Placed in time order, a buffer only meets buffers
//     alive at its first step. When none is wide enough, the buffers that started in the last R
//     steps are lifted and put back with it, largest first (then by first step, then by area),
//     for R = 1/8 .. 2 median lifetimes; if no order fits within H, the target fails.
// `TargetSweeps` runs this over a schedule of targets: 2 % above the bound first, then the excess
// halved after each success (doubled after a failure until one succeeds), each target with hot
// shares 0.93, 0.88 and 0.83 in turn (more windows, fewer deferred buffers), while time lasts.
// Every plan returned is within its target by construction and is verified by the caller.
// Cost per target: sorting, one exact search per window (bounded by the time), and per buffer a
// scan of the placed buffers in the time buckets its lifetime touches (buckets of one median
// lifetime): O(n log n + n * alive) on problems of short lifetimes.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>

#include "plan/problem.h"

namespace arenaplan::plan {

struct TargetSweepOptions {
  Bytes target = 0;         // every buffer must end at or below this
  double hot_share = 0.93;  // steps with at least this share of `target` live get an exact window
  std::chrono::steady_clock::time_point deadline;
  const std::atomic<bool>* cancel = nullptr;
};

struct TargetSweepStats {
  int windows = 0;         // hot windows found
  int windows_packed = 0;  // ... that the exact search packed within the target
  size_t repacks = 0;      // sweep placements that needed recent buffers lifted and put back
  int targets = 0;         // TargetSweeps: targets tried (one sweep per hot share)
  int sweeps = 0;          // TargetSweeps: sweeps run
};

// A plan of `problem` (which passed ValidateProblem) with height <= options.target, or a plan
// without offsets when some buffer found no place within the target or the time ran out.
Plan SweepWithinTarget(const Problem& problem, const TargetSweepOptions& options, TargetSweepStats* stats = nullptr);

// The lowest plan the schedule above finds strictly below `ceiling`, or a plan without offsets.
// `bound`: a lower bound on the height (the live bytes), > 0.
Plan TargetSweeps(const Problem& problem, Bytes bound, Bytes ceiling, std::chrono::steady_clock::time_point deadline,
                  const std::atomic<bool>* cancel, TargetSweepStats* stats = nullptr);

}  // namespace arenaplan::plan
