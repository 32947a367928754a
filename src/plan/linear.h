// TFLM's LinearMemoryPlanner: no reuse at all. Online buffers are stacked in add order, each at
// the running sum of the sizes before it (rounded up to its alignment); fixed buffers sit at their
// fixed offsets and the stack starts above the highest fixed end (TFLM's linear planner rejects
// offline offsets; with none this is exactly its plan). O(n).
#pragma once

#include "plan/planner.h"

namespace arenaplan::plan {

Result<PlanResult> PlanLinear(const Problem& problem, const PlannerOptions& options);

}  // namespace arenaplan::plan
