// Chronological best fit, the cheap pass of the best-fit portfolio (plan/best_fit.h): buffers in
// order of first step (then size descending, then index), each into the smallest free block left
// between the buffers alive at its first step (ties: the lowest), else just above them. When no
// buffer is fixed this is exactly PlaceInOrder(that order, GapRule::kBestFit) (plan/placement.h):
// the placed buffers sharing a step with the next one are precisely those alive at its first step,
// and the free blocks are the gaps between them. The free blocks (at most one more than the
// buffers alive) live in an address-ordered array, scanned per buffer: O(n log n + n f) for f free
// blocks at a time, f <= k buffers alive (and f << k once neighbours merge); TFLM's walk is
// O(k) per buffer as well.
#pragma once

#include <functional>

#include "plan/problem.h"

namespace arenaplan::plan {

// Requires a problem that passes ValidateProblem and has no fixed buffers. When `stop` (asked
// every few thousand buffers) says so, returns a plan without offsets (no plan).
Plan SweepBestFit(const Problem& problem, const std::function<bool()>& stop = {});

}  // namespace arenaplan::plan
