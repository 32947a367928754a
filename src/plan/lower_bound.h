// Lower bounds on the arena height of any valid plan of a problem.
#pragma once

#include "plan/problem.h"

namespace arenaplan::plan {

// max over time steps of the sum of sizes alive at that step (sweep, O(n log n)). Fixed buffers
// count like any other; when fixed buffers overlap each other the bound is still valid for the
// online part. Also at least max(fixed_offset + size) over fixed buffers.
Bytes LiveBytesLowerBound(const Problem& problem);

}  // namespace arenaplan::plan
