// PAD folding for stock TFLM: a PAD (or PADV2 whose value is the zero point) whose only reader is a
// VALID CONV_2D / DEPTHWISE_CONV_2D becomes that convolution with SAME padding reading the PAD's
// input, when SAME pads exactly as the PAD did in front (TFLM's rule, geometry.h) and yields the
// same output size: the convolution reads the same values at the same taps, and the taps that
// fell on padding (zero point: a zero contribution) are the ones TFLM's SAME kernel skips. The
// PAD's input and output must share scale and zero point. Pads of other amounts (PyTorch's
// symmetric stride-2 pads) are left, with the reason. O(ops).
#pragma once

#include <string>
#include <vector>

#include "graph/edit.h"
#include "graph/spatial_op.h"

namespace arenaplan::graph {

struct PassReport {
  int32_t applied = 0;
  std::vector<std::string> done;     // one line per rewrite
  std::vector<std::string> skipped;  // one line per candidate left alone, with the reason
};

PassReport FoldPads(model::Graph& g);

}  // namespace arenaplan::graph
