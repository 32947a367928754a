// How `optimize --for arenaplan` (and `run --optimize`) measures a candidate: AllocateTensors in
// arenaplan's runtime (best-fit planner) with the given kernels on a large arena, reading head,
// tail and the exact smallest arena from its memory record. The kernels matter: the Cortex-M fast
// ones (rt::DspOpsResolver) request their own scratch. Models stay without an offline plan: the
// runtime plans them itself. O(one AllocateTensors).
#pragma once

#include "graph/optimize.h"
#include "runtime/op_resolver.h"

namespace arenaplan::graph {

Evaluator RuntimeEvaluator(const rt::OpResolver& kernels = rt::AllOpsResolver());

// Optimizes `bytes` for the runtime with `kernels` (no offline plan added; PADs folded into
// explicit convolution padding, which only arenaplan's runtime reads).
Result<OptimizeResult> OptimizeForRuntime(const std::vector<uint8_t>& bytes, const OptimizeOptions& options,
                                          const rt::OpResolver& kernels = rt::AllOpsResolver());

}  // namespace arenaplan::graph
