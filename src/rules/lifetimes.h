// When each buffer is alive, exactly as TFLM's AllocationInfoBuilder computes it
// (docs/tflm-arena.md §3), and which tensors need arena space at all.
//
// Time: one counter over the whole call tree (rules/call_graph.h). Subgraph 0's inputs are alive
// at 0; each op advances the counter by one, and by one more before each subgraph it calls (which
// is then walked at that point, its inputs and outputs touched at the counter's value there).
// An op's outputs are born when it runs (if not born before); its inputs and outputs live at
// least until the counter's value after its calls; a subgraph's outputs live until its last op.
// A scratch request lives from its op's step to the step after the op's calls.
//
//   subgraph 0:  in t0 --op0--> t1 --op1--> t2 (out)     t0 [0, 1]  t1 [1, 2]  t2 [2, 2]
//
// Which tensors are planned (AllocationInfoBuilder's needs_allocating): those without data
// (constants have data in the model; a resource handle gets its data in Prepare), not variable,
// with a non-zero size; a variable is planned only when the offline plan places it.
#pragma once

#include <cstdint>

#include "rules/model.h"
#include "rules/plan_buffer.h"
#include "rules/status.h"

namespace arenaplan::rules {

// TFLM's needs_allocating for one tensor.
inline bool NeedsAllocating(bool has_data, bool is_variable, uint64_t bytes, int32_t offline_offset) {
  if (is_variable && offline_offset != -1) return true;  // offline-placed variables live in the head
  return !has_data && !is_variable && bytes != 0;
}

// What TFLM refuses while planning: a tensor type without a fixed size (STRING, VARIANT; TFLM
// computes every tensor's byte length, constants included), and an intermediate tensor of
// non-zero size. Both kUnsupported, naming tensor and op. O(tensors + intermediates).
StatusCode CheckPlannable(const tfl::Model& model, ErrorText* error);

// The buffer of global tensor t: its index in `planned` (ascending, as below), or -1 when t is
// not planned. O(log num_planned).
int32_t PlannedBufferOf(const uint32_t* planned, uint32_t num_planned, uint32_t t);

// Marks first / last of every buffer. Buffer b < num_planned is global tensor planned[b]
// (`planned` ascending); buffer num_planned + r is scratch request r (`requests` ordered by
// op_index, as TFLM's Prepare order makes them). Every first / last starts at -1; buffers nobody
// touches keep -1. *steps (optional) gets the counter's final value. kBadArgument when
// `requests` is out of order or names an op that does not exist.
// O(visits x (arity x log planned + log requests)).
StatusCode MarkLifetimes(const ModelIndex& index, const uint32_t* planned, uint32_t num_planned,
                         const ScratchRequest* requests, uint32_t num_requests, PlanBuffer* buffers, ErrorText* error,
                         int32_t* steps = nullptr);

}  // namespace arenaplan::rules
