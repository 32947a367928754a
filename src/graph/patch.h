// Patch-based execution of a model's memory-heavy prefix (or any segment), in standard builtin ops
// only (MCUNetV2's idea, written so that an unmodified TFLM runs it): ops [begin, split) of subgraph 0 end in one
// tensor S (rank 4, NHWC). S is cut into a grid of rectangles; for each, the region every prefix
// tensor must hold is found backwards through the windows (the halo), and the prefix is emitted
// once per patch: STRIDED_SLICE of the input region, PAD only where a region reaches past the
// image border (the op's own fill: a convolution's input zero point, a PAD op's value), each op
// with VALID padding on its patch, then CONCATENATION of the patches (rows, then the strips) into S.
// Every output element is computed from the same inputs in the same order as the whole-tensor
// kernel, so outputs are identical (float: padded taps add 0 * w, which leaves the sum unchanged
// for finite weights). Costs: the halos are recomputed (extra MACs), and each patch's ops add
// nodes and kernel data to TFLM's tail.
//
// AnalyzePrefix O(ops); PatchPrefix O(grid x prefix ops).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "graph/spatial_op.h"

namespace arenaplan::graph {

struct Prefix {
  int32_t begin = 0;  // ops [begin, split) of subgraph 0 (0: a prefix of the model)
  int32_t split = 0;
  int32_t tensor = -1;          // S: the one tensor the rest of the model reads from the prefix
  std::vector<SpatialOp> ops;   // per op of the segment, ops[i] is op begin + i
  std::vector<Axes> axes;       // per tensor of subgraph 0 (meaningful inside the prefix)
  std::vector<bool> in_prefix;  // per tensor: produced by a prefix op or a model input it reads
  uint64_t macs = 0;            // of the prefix as stored
};

// Whether ops [begin, split) can run patch by patch: one tensor S leaves the segment, and what
// enters it is computed before it (or is a model input); the reason (naming the op) when not.
// A segment that starts inside the model reads its inputs like model inputs: sliced per patch.
Result<Prefix> AnalyzeSegment(const model::Graph& g, int32_t begin, int32_t split);
Result<Prefix> AnalyzePrefix(const model::Graph& g, int32_t split);  // AnalyzeSegment(g, 0, split)

struct PatchGrid {
  int32_t rows = 1, cols = 1;
};

struct PatchResult {
  std::unique_ptr<model::Graph> graph;
  uint64_t prefix_macs = 0;  // MACs of all patches together
  int32_t ops_added = 0;     // slices, pads and concatenations
};

// The rewritten graph (offline-plan metadata removed: its tensor count no longer matches).
// Fails when the grid is finer than S or a patch's concatenation would exceed TFLM's 10 inputs.
Result<PatchResult> PatchPrefix(const model::Graph& g, const Prefix& prefix, PatchGrid grid);

}  // namespace arenaplan::graph
