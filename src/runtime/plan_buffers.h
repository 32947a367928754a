// The runtime's planning problem, laid out to live in the arena's temp region during
// AllocateTensors: 16 bytes per buffer plus two uint16 index arrays (20 bytes per buffer in all,
// against TFLM's 32-byte AllocationInfo + 40-byte greedy working memory).
#pragma once

#include <cstdint>

#include "runtime/status.h"
#include "schema/tflite_generated.h"

namespace arenaplan::rt {

inline constexpr int32_t kOnline = -1;          // PlanBuffer::offset before planning: place me
inline constexpr uint32_t kNoBuffer = 0xFFFFFFFFu;  // tensor has no planned buffer
inline constexpr uint32_t kMaxPlanBuffers = 0xFFFEu;  // indices are uint16

struct PlanBuffer {
  uint32_t size;   // bytes, rounded up to 16
  int32_t first;   // inclusive lifetime in TFLM's time counter (-1 = never set)
  int32_t last;
  int32_t offset;  // in: fixed offset or kOnline; out: offset from the head start
};

struct ScratchRequest {
  uint32_t bytes;     // as requested (rounded up to 16 when planned)
  uint32_t op_index;  // requesting op in subgraph 0
};

// TFLM's lifetime rules (docs/tflm-arena.md §3) for subgraph 0 of a model without control flow:
// inputs live from 0, op i runs at time i+1, outputs of the subgraph live to the op count, a
// scratch buffer lives only at its op's time. `buffer_of_tensor[t]` is the plan buffer of tensor
// t or kNoBuffer; scratch request r is plan buffer `first_scratch + r`. O(ops x op arity).
void MarkLifetimes(const tfl::SubGraph& subgraph, const uint32_t* buffer_of_tensor,
                   const ScratchRequest* requests, uint32_t num_requests, uint32_t first_scratch,
                   PlanBuffer* buffers);

enum class PlannerKind : uint8_t {
  kGreedy,   // TFLM's GreedyMemoryPlanner, offset for offset (docs §4)
  kBestFit,  // same order, but each buffer takes the smallest gap that fits instead of the first
};

// Places every kOnline buffer; fixed ones stay. `order` and `next` are working arrays of n entries.
// Algorithm: fixed buffers first (add order), then online by size descending, later-added first
// among equal sizes; each online buffer walks the placed buffers in offset order, considering only
// lifetime-overlapping ones, and takes the first (greedy) or smallest (best-fit) gap, else the top.
// O(n^2) time, no memory beyond the arrays given. *head_bytes = max(offset + size).
StatusCode PlanOnline(PlanBuffer* buffers, uint32_t n, uint16_t* order, uint16_t* next, PlannerKind kind,
                  uint32_t* head_bytes, ErrorText* error);

}  // namespace arenaplan::rt
