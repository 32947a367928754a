// Control flow between subgraphs: which subgraphs an op calls (WHILE: cond, body; IF: then, else;
// CALL_ONCE: init), a check that every call chain from subgraph 0 is finite and shallow, and
// TFLM's lifetimes over all subgraphs on one time counter (docs/tflm-arena.md §3).
// Recursion is explicit and bounded by kMaxSubgraphDepth; visits are bounded by kMaxSubgraphVisits
// (a DAG of calls can expand exponentially), so a hostile model fails cleanly instead of hanging.
#pragma once

#include <cstdint>

#include "runtime/plan_buffers.h"
#include "runtime/status.h"
#include "schema/tflite_generated.h"

namespace arenaplan::rt {

inline constexpr uint32_t kMaxSubgraphDepth = 16;      // nested control-flow calls below subgraph 0
inline constexpr uint32_t kMaxSubgraphVisits = 4096;   // subgraph visits while marking lifetimes

// The builtin code of an operator code (the larger of the two fields, as TFLite reads them).
int32_t BuiltinCode(const tfl::OperatorCode& code);

// Subgraphs called by `op` (whose builtin code is `builtin`), in TFLM's order, into out[0..1];
// returns how many (0 for ops without control flow). Missing options read as index 0 (TFLite's
// default), which the call-graph check then rejects as a cycle. O(1).
uint32_t CalledSubgraphs(int32_t builtin, const tfl::Operator& op, int32_t out[2]);

// Every called index is a subgraph, no call chain from subgraph 0 returns to a subgraph on it
// (cyclic), none is deeper than kMaxSubgraphDepth, and the expansion stays within
// kMaxSubgraphVisits. Opcode indices must already be valid. O(visits x ops).
StatusCode CheckSubgraphCalls(const tfl::Model& model, ErrorText* error);

// TFLM's lifetimes over every subgraph reachable from 0: tensor t of subgraph s is plan buffer
// buffer_of_tensor[tensor_base[s] + t] (or kNoBuffer); scratch request r (op_index = op_base[s] + op)
// is plan buffer first_scratch + r. Entries >= kMaxPlanBuffers (kNoBuffer, or a tensor pointed at
// persistent data) are not planned. Requires CheckSubgraphCalls to have passed.
// O(visits x ops x (arity + requests)).
void MarkModelLifetimes(const tfl::Model& model, const uint32_t* tensor_base, const uint32_t* op_base,
                        const uint32_t* buffer_of_tensor, const ScratchRequest* requests, uint32_t num_requests,
                        uint32_t first_scratch, PlanBuffer* buffers);

}  // namespace arenaplan::rt
