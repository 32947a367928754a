// Take-apart search for the optimal planner's block stage (internal): glued blocks
// (block_merge.h) solve many perfect packings at once, but glueing joins coincidental pieces too,
// and one wrong glue is enough to make the glued problem infeasible. Measured on the packing
// benchmark, the misses had two wrong glues among 80-110 blocks: each block taken apart alone
// still fails, the right pair solves in about 200 nodes.
//
// The stage proves the glued problem infeasible first (one skyline run), then takes each
// multi-member block apart alone. A block whose absence makes the refutation cost more nodes moved
// the contradiction deeper, so it is the likelier wrong glue; pairs of the likeliest are then
// taken apart together, in order of their rank sum. It can only find plans: a failure proves
// nothing about the buffers. Cost: one probe per block, then at most kPairRanks^2 / 2 probes, each
// within a node budget proportional to the first refutation.
//
// Every probe branches on the cell with the fewest alternatives (SkylineCell::kFewest), where a
// refutation is shortest; a pair that spends its budget so is tried again in the lowest valley,
// which finds some plans far sooner (a 120-buffer packing: 122 nodes against 71,398). Measured
// with packing_bench against the lowest valley's rule alone: perfect-800-p20-s33, -s42 and
// headroom-800-p20-s12 packed (no answer in 20 s before), and no instance of the regression sets
// was lost.
#pragma once

#include <vector>

#include "plan/block_merge.h"
#include "plan/search_model.h"

namespace arenaplan::plan::optimal_internal {

// Places `buffers` within `capacity` by taking apart blocks of `glued` (a partition of them).
// kFound fills `offsets`; kBudget when nothing was found (the glued problem was not refuted, or no
// probe found a plan); kTimeout / kCancelled from `limits`. `nodes` adds the search nodes used.
Outcome TakeApart(const std::vector<Buffer>& buffers, const std::vector<Block>& glued, Bytes capacity,
                  const Limits& limits, std::vector<Offset>* offsets, int64_t* nodes);

}  // namespace arenaplan::plan::optimal_internal
