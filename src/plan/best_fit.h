// Best-fit planning: each online buffer goes into the smallest free gap (between time-overlapping
// placed buffers) that fits, else on top (plan/placement.h, kBestFit). Which order the buffers
// come in matters more than the gap rule, so several static orders are tried and the lowest plan
// kept (ties: the earlier order):
//   size desc; size desc in TFLM's tie order; lifetime length desc; size x length desc;
//   first step asc; "breadth" (peak live bytes over the buffer's lifetime) desc;
// plus first-fit under the size, breadth and area orders (cheap, sometimes lower).
// Fixed buffers are placed first in every run. Cost: 9 runs of O(n log n + sum k log k);
// 100k short-lived buffers take well under a second.
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
