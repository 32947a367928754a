// How `optimize --for arenaplan` (and `run --optimize`) measures a candidate: AllocateTensors in
// arenaplan's runtime (best-fit planner) on a large arena, reading head, tail and the exact
// smallest arena from its memory record. Models stay without an offline plan: the runtime plans
// them itself. O(one AllocateTensors).
#pragma once

#include "graph/optimize.h"

namespace arenaplan::graph {

Evaluator RuntimeEvaluator();

// Optimizes `bytes` for the runtime (no offline plan added; PADs folded into explicit convolution
// padding, which only arenaplan's runtime reads).
Result<OptimizeResult> OptimizeForRuntime(const std::vector<uint8_t>& bytes, const OptimizeOptions& options);

}  // namespace arenaplan::graph
