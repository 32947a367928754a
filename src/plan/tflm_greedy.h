// TFLM's GreedyMemoryPlanner, bit-exact (docs/tflm-arena.md §4): fixed buffers first in add order
// at their offsets without checks; then the online buffers by size descending, equal sizes with
// the later-added buffer first (TFLM bubble-sorts a list filled in reverse add order); each at the
// lowest position found by TFLM's first-fit walk over the time-overlapping placed buffers in
// ascending offset order (plan/placement.h). TFLM's order comes from a sort on (size desc, index
// desc) and its O(n) walk over all placed buffers from a TimeIndex query over the overlapping ones
// only, which visits the same buffers in the same offset order: O(n log n + sum k log k) instead
// of TFLM's O(n^2). Alignment > 1 rounds candidates up (TFLM itself only sees 16-rounded sizes).
#pragma once

#include "plan/planner.h"

namespace arenaplan::plan {

Result<PlanResult> PlanTflmGreedy(const Problem& problem, const PlannerOptions& options);

// The online buffers in TFLM's placement order (size desc, later-added first among equals).
std::vector<uint32_t> TflmGreedyOrder(const Problem& problem);

}  // namespace arenaplan::plan
