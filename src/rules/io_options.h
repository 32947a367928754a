// Buffers the application owns and tensors it keeps, as a change of the planning problem (never
// inside a planner), written once for the host (lifetime/) and the runtime (head_planning):
//   external I/O  subgraph 0's inputs and/or outputs leave the planned head: the application binds
//                 its own buffer to each before Invoke (zero copies). Only tensors TFLM would plan
//                 (rules::NeedsAllocating) become external; a constant input stays in the model.
//   kept tensors  a planned tensor of subgraph 0 whose lifetime is extended to the end of the run
//                 (last = the counter's final value), so its bytes are still valid after Invoke.
// The time counter and every other lifetime are unchanged. O(inputs + outputs) per tensor asked,
// O(keep x log planned) to extend.
#pragma once

#include <cstdint>

#include "rules/model.h"
#include "rules/plan_buffer.h"
#include "rules/status.h"

namespace arenaplan::rules {

// Which of subgraph 0's inputs / outputs the application owns (bit 0: inputs, bit 1: outputs).
enum class ExternalIo : uint8_t { kNone = 0, kInputs = 1, kOutputs = 2, kBoth = 3 };

// True when tensor `tensor` of subgraph 0 is an input (io has kInputs) or an output (io has
// kOutputs) of it. The caller applies it to planned tensors only.
bool IsExternalTensor(const tfl::SubGraph& subgraph0, uint32_t tensor, ExternalIo io);

// Sets last = steps for every buffer b < num_planned whose tensor planned[b] (global index,
// ascending) is in keep[0..num_keep) (subgraph-0 tensor indices = global indices); kept tensors
// that are not planned (constants, external I/O, zero bytes) need nothing. A buffer no step
// touches keeps first = -1. kBadArgument when a kept index is not a tensor of subgraph 0.
StatusCode ExtendKeptLifetimes(const ModelIndex& index, const uint32_t* planned, uint32_t num_planned,
                               const uint32_t* keep, uint32_t num_keep, int32_t steps, PlanBuffer* buffers,
                               ErrorText* error);

}  // namespace arenaplan::rules
