// Which operators a patch can run through, and how an output region maps to input regions:
//   window     CONV_2D, DEPTHWISE_CONV_2D (padding read as the input's zero point, as TFLM's
//              reference kernels skip those taps), MAX/AVERAGE_POOL_2D only where they read no
//              padding (TFLM averages over the taps inside the image, and a pad would change it);
//   pad        PAD / PADV2 on the two spatial axes only;
//   pointwise  ops whose output element depends on the same element of each input of the output's
//              shape (activations, QUANTIZE / DEQUANTIZE, ADD / SUB / MUL / ...), constants of
//              other shapes passed through (per-channel broadcast);
//   transpose  TRANSPOSE with a constant permutation (NCHW model inputs).
// Batch must be 1 and the spatial axes of the output known (NHWC: 1, 2). O(inputs) per op.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/edit.h"
#include "graph/geometry.h"
#include "util/result.h"

namespace arenaplan::graph {

enum class SpatialKind { kWindow, kPad, kPointwise, kTranspose };

struct Axes {
  int32_t h = 1, w = 2;
  bool operator==(const Axes& o) const { return h == o.h && w == o.w; }
};

struct SpatialOp {
  SpatialKind kind = SpatialKind::kPointwise;
  std::vector<int32_t> region_inputs;  // positions in op.inputs that carry the activation
  Axes in_axes;                        // spatial axes of those inputs
  Window h, w;                         // kWindow: the windows; kPad: pad_before = explicit pad
  bool same = false;                   // kWindow: the op's own padding was SAME
  uint64_t macs = 0;                   // multiply-accumulates of the whole op (0 for non-MAC ops)
};

// Classifies op `op` of `sg`, whose output has spatial axes `out_axes`. Unsupported: an op
// outside the list, batch != 1, a non-constant input of another shape, a pool that pads, a
// padding on a non-spatial axis... with the reason.
Result<SpatialOp> ClassifySpatial(const Graph& g, const tflo::SubGraphT& sg, const tflo::OperatorT& op, Axes out_axes);

// Multiply-accumulates of any op (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV,
// BATCH_MATMUL; 0 for the others): output elements x window taps x input channels per group.
uint64_t OpMacs(const Graph& g, const tflo::SubGraphT& sg, const tflo::OperatorT& op);

}  // namespace arenaplan::graph
