// How `optimize --for tflm` measures and finishes a candidate: stock TFLM's smallest working arena
// on the target (tflm/arena_size.h: head + tail with every node, option struct and per-channel
// array the added ops bring), ranked with the best-fit planner; the result carries an
// OfflineMemoryAllocation plan from `best` (tflm/export.h, verified, re-planned by TFLM's greedy
// to the same head). O(evaluation of tflm/).
#pragma once

#include "graph/optimize.h"
#include "tflm/target.h"

namespace arenaplan::graph {

// `final`: the model as stock TFLM plans it (its offline plan, else TFLM's greedy); otherwise the
// best-fit head without offline plan (a fast, good estimate of what `best` will find).
Evaluator TflmEvaluator(const tflm::Target& target);

// The bytes with a verified offline plan from `best` for the target.
std::function<Result<std::vector<uint8_t>>(const std::vector<uint8_t>&)> TflmFinish(const tflm::Target& target);

}  // namespace arenaplan::graph
