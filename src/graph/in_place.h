// In-place depthwise for arenaplan's runtime (`optimize --for arenaplan`): every DEPTHWISE_CONV_2D
// with depth multiplier 1 whose output has its input's shape and type, and whose input is an
// activation no later op reads and not a subgraph output, is marked kInPlace in the
// arenaplan_schedule (rules/schedule.h). The runtime gives output and input one buffer where the
// lifetimes allow it (the input's ends where the output's begins) and the kernel then computes one
// channel plane at a time into scratch (TinyEngine's idea, with TFLM's exact arithmetic): the
// peak of a depthwise layer falls from input + output to input + one plane. Also ADD / SUB / MUL
// with an input of the output's shape and type that no later op reads (the runtime aliases
// input 0, else 1; the elementwise kernels read that input's element i right before writing i).
// And QUANTIZE from a float32 activation no later op reads to int8 / uint8 / int16: its output
// takes the first bytes of the input, the rest of the input's buffer dies at the QUANTIZE.
// Elementwise and QUANTIZE ops that cannot are not listed. Stock TFLM does not read the schedule. Keeps every
// other schedule record. O(ops x inputs).
#pragma once

#include "graph/pad_fold.h"

namespace arenaplan::graph {

PassReport MarkInPlace(model::Graph& g);

}  // namespace arenaplan::graph
