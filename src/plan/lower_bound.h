// Lower bounds on the arena height of any valid plan of a problem.
#pragma once

#include "plan/problem.h"

namespace arenaplan::plan {

// max over time steps of (sum of sizes of the online buffers alive at that step + bytes covered
// by the union of the fixed buffers alive then), and at least max(fixed_offset + size). Online
// buffers can share no byte with each other or with a fixed buffer, so both terms add up; fixed
// buffers may overlap each other, hence the union (not the sum) of their ranges. Sweep over time
// with a cover-count segment tree over fixed offsets: O(n log n). Malformed buffers are ignored.
Bytes LiveBytesLowerBound(const Problem& problem);

}  // namespace arenaplan::plan
