// Chronological best fit, the cheap pass of the best-fit portfolio (plan/best_fit.h): buffers in
// order of first step (then size descending, then index), each into the smallest free block left
// between the buffers alive at its first step (ties: the lowest), else just above them. When no
// buffer is fixed this is exactly PlaceInOrder(that order, GapRule::kBestFit) (plan/placement.h):
// the placed buffers sharing a step with the next one are precisely those alive at its first step,
// and the free blocks are the gaps between them. An address-ordered map of free blocks and a
// size-ordered set find and update a block in O(log n); O(n log n) in all.
#pragma once

#include <functional>

#include "plan/problem.h"

namespace arenaplan::plan {

// Requires a problem that passes ValidateProblem and has no fixed buffers. When `stop` (asked
// every few thousand buffers) says so, returns a plan without offsets (no plan).
Plan SweepBestFit(const Problem& problem, const std::function<bool()>& stop = {});

}  // namespace arenaplan::plan
