// Best-fit planning: each online buffer goes into the smallest free gap (between time-overlapping
// placed buffers) that fits, else on top (plan/placement.h, kBestFit). Which order the buffers
// come in matters more than the gap rule, so several static orders are tried and the lowest plan
// kept (ties: the earlier run). In run order (most often the winner first):
//   "breadth" (peak live bytes over the buffer's lifetime) desc; size desc with first fit;
//   size desc in TFLM's tie order; size desc (longer first); first step asc; lifetime length
//   desc; size x length desc; first fit under breadth and area.
// Every order helps somewhere (the MiniMalloc suite favours first-fit/first-step, real traces
// favour breadth). Above 20000 buffers only the first three run, above 50000 the first two. Stops early when a run meets
// the live-bytes lower bound. Then, up to 10000 buffers, a critical-first repair: 20 rounds
// (per gap rule) of "place, move the buffers that reach the top to the front of the order, place
// again", starting from size order. Fixed buffers are placed first in every run.
// Cost: up to 9 (+40 below 10000 buffers) runs of PlaceInOrder (plan/placement.h).
#pragma once

#include <string>

#include "plan/planner.h"

namespace arenaplan::plan {

Result<PlanResult> PlanBestFit(const Problem& problem, const PlannerOptions& options);

// One strategy of the portfolio above, by name ("size", "tflm-order", "length", "area",
// "first-step", "breadth", "size/first-fit", "breadth/first-fit", "area/first-fit"); for tests
// and benchmarks. kInvalidArgument for an unknown name.
Result<Plan> PlanBestFitStrategy(const Problem& problem, const std::string& strategy);

}  // namespace arenaplan::plan
