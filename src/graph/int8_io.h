// int8 model I/O (asked for with --int8-io; it changes the model's interface): a float32 model
// input read only by a QUANTIZE becomes the QUANTIZE's output (the caller quantizes), and a model
// output written only by a DEQUANTIZE becomes that DEQUANTIZE's input (the caller dequantizes).
// The float tensor and the op disappear; signature defs follow. Bit-exact when the caller applies
// the same QUANTIZE / DEQUANTIZE arithmetic. O(ops x inputs).
#pragma once

#include "graph/pad_fold.h"

namespace arenaplan::graph {

PassReport QuantizedIo(model::Graph& g);

}  // namespace arenaplan::graph
