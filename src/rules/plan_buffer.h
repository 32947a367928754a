// The device-grade planning problem, shared by the lifetime walk (rules/lifetimes.h), TFLM's
// greedy placement (rules/greedy.h) and the runtime, which keeps it in its arena's temp region
// while planning: 16 bytes per buffer. Buffers come in TFLM's AddBuffer order: the planned
// tensors of subgraph 0, 1, ... in tensor order, then the scratch requests in request order.
#pragma once

#include <cstdint>

namespace arenaplan::rules {

inline constexpr int32_t kOnline = -1;  // PlanBuffer::offset before planning: place me

struct PlanBuffer {
  uint32_t size;  // bytes, rounded up to the plan's alignment
  int32_t first;  // inclusive lifetime on TFLM's one time counter (-1 = never set)
  int32_t last;
  int32_t offset;  // in: a fixed (offline) offset or kOnline; out: offset from the head start
};

// A kernel scratch buffer requested while preparing one op (TFLM numbers requests 0..n-1 in
// Prepare order: subgraph 0, 1, ..., op order within each).
struct ScratchRequest {
  uint32_t bytes;     // as requested (rounded up when planned)
  uint32_t op_index;  // the requesting op, numbered over all subgraphs (ModelIndex::op_base)
};

}  // namespace arenaplan::rules
