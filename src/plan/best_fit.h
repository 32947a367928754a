// Best-fit planning: each online buffer goes into the smallest free gap (between time-overlapping
// placed buffers) that fits, else on top (plan/placement.h, kBestFit), or in some runs into the
// lowest gap that fits (kFirstFit). Which order the buffers come in matters more than the gap
// rule, so several static orders are tried and the lowest plan kept (ties: the earlier run). In
// run order:
//   first step asc with best fit (chronological, plan/sweep_fit.h when nothing is fixed; this run
//   always finishes, so there is a plan); size desc in TFLM's tie order with first fit (exactly
//   tflm-greedy's plan; it gives up only once it reaches the best height so far, so the portfolio
//   is never worse than tflm-greedy, whatever the time limit); "breadth" (peak live
//   bytes over the buffer's lifetime) desc; size x log(lifetime + 1) desc, first fit; buffers
//   alive over 10 % of the horizon first (in add order), then size desc, first fit; long-lived
//   first over 5 % and over 30 % of the horizon, first fit; size desc in TFLM's tie order; size desc (longer first)
//   with first fit and with best fit; lifetime length desc; size x length desc; first fit under
//   breadth and area.
// Every order helps somewhere (the MiniMalloc suite favours first-fit/first-step, real traces
// long-lived-first, breadth and size, uniform random problems first-step). Above 20000 buffers only
// the first seven run, above 50000 the first five, above 65536 the first two; above 20000 the
// long-lived-first orders are skipped when no buffer is that long (TFLM's order but for ties).
// Every run after the first gives up once it reaches the best height so far (it cannot win).
// Stops early when a run meets the live-bytes lower bound, or at the time limit or cancel flag,
// checked between runs and every 4096 buffers inside one (a stopped run is dropped; neither the
// first nor TFLM's run is stopped). Then,
// up to 10000 buffers, a critical-first repair: 20 rounds (per gap rule) of "place, move the
// buffers that reach the top to the front of the order, place again", starting from size order.
// Fixed buffers are placed first in every run.
// Cost: up to 14 (+40 below 10000 buffers) runs of PlaceInOrder (plan/placement.h); above 65536
// buffers one O(n log n + n f) chronological pass and at most one TFLM run.
#pragma once

#include <string>

#include "plan/planner.h"

namespace arenaplan::plan {

Result<PlanResult> PlanBestFit(const Problem& problem, const PlannerOptions& options);

// One strategy of the portfolio above, by name ("tflm-order/first-fit", "first-step", "breadth",
// "size-log-length/first-fit", "long10/first-fit", "long5/first-fit",
// "long30/first-fit", "tflm-order", "size/first-fit", "size", "length", "area",
// "breadth/first-fit", "area/first-fit"); for tests and benchmarks. kInvalidArgument otherwise.
Result<Plan> PlanBestFitStrategy(const Problem& problem, const std::string& strategy);

}  // namespace arenaplan::plan
