// The common engine of the gap-search planners: fixed buffers first at their fixed offsets (add
// order, no checks: they may overlap each other), then the given online buffers one at a time at
// a gap among the already-placed buffers that share a time step with it.
//   kFirstFit: TFLM's walk — placed neighbours in ascending offset order, candidate starts at 0,
//              stop at the first neighbour starting at least `size` above the candidate, else
//              move the candidate to that neighbour's end. Lowest fitting position.
//   kBestFit:  the smallest free gap between merged neighbours that fits (ties: lowest), else
//              just above the highest neighbour.
// Both walks depend only on the union of the neighbours' byte ranges (a walk stops at the first /
// smallest hole of that union), so they run over TimeIndex's merged ranges instead of over every
// neighbour; TFLM's offsets come out unchanged. Candidates are rounded up to the buffer's
// alignment. Cost per buffer O(log T * m + r log r) for r ranges returned (TimeIndex).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "plan/problem.h"
#include "plan/time_index.h"

namespace arenaplan::plan {

enum class GapRule { kFirstFit, kBestFit };

// Asked every few thousand placements whether to give up (a time limit, a cancel flag).
using StopFn = std::function<bool()>;

// `order` lists every online buffer exactly once; the problem must pass ValidateProblem.
// `index` must be built for `problem`; it is cleared first. When `stop` is set and says so, the
// run ends early and returns a plan without offsets (no plan); so it does, when `give_up_at` > 0,
// as soon as the online buffers placed reach that height (a portfolio's best so far: the run can
// no longer beat it, heights only grow).
Plan PlaceInOrder(const Problem& problem, const std::vector<uint32_t>& order, GapRule rule, TimeIndex* index,
                  const StopFn& stop = {}, Bytes give_up_at = 0);

// The smallest free gap of `placed` (ascending offsets) that holds `size` bytes at `alignment`
// (ties: the lowest), else the aligned end of the highest. O(placed).
Offset BestFitOffset(const std::vector<Span>& placed, Bytes size, Bytes alignment);

// TFLM's first-fit walk over `placed` (ascending offsets, as SortedOccupied gives): the lowest
// aligned offset where `size` bytes fit. O(placed).
Offset FirstFitOffset(const std::vector<Span>& placed, Bytes size, Bytes alignment);

// The online buffers of `problem` in add order (fixed ones left out).
std::vector<uint32_t> OnlineBuffers(const Problem& problem);

}  // namespace arenaplan::plan
