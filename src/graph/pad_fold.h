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

// PAD folding for arenaplan's runtime (`optimize --for arenaplan`): every PAD / PADV2 that pads
// with the zero point (0 for float), only on the spatial axes of an NHWC tensor, without changing
// quantization, and whose only reader is a VALID CONV_2D / DEPTHWISE_CONV_2D, is removed; the
// convolution reads the PAD's input and the amounts it reads (top, bottom, left, right, each
// below the window's extent) go into the model's arenaplan_schedule metadata (schedule.h), which
// the runtime's convolutions apply. Any amounts, so PyTorch's symmetric stride-2 pads and the
// border PADs of every patch fold too. Same values at the same taps: identical outputs. Stock
// TFLM does not read the schedule, so the result is for arenaplan's runtime only. A graph that
// already has a schedule is left alone. O(ops^2) (readers by scan).
PassReport FoldPadsExplicit(model::Graph& g);

}  // namespace arenaplan::graph
