// TFLM's OfflineMemoryAllocation metadata (docs/tflm-arena.md §6): int32 little-endian words
// [version, subgraphs, N, offset_0 .. offset_N-1], one offset per tensor over all subgraphs in
// subgraph order, -1 = planned online. Read in place (the words stay in the model), checked as
// TFLM relies on them: N equals the model's tensor count, every offset is >= 0 or exactly -1, and
// the words are 4-byte aligned in the file (TFLM reads them as int32 where they lie). The first
// metadata entry with exactly that name counts, as in TFLM. Decoding and checking are O(N).
#pragma once

#include <cstdint>

#include "rules/model.h"
#include "rules/status.h"

namespace arenaplan::rules {

inline constexpr int32_t kOnlineOffset = -1;

struct OfflinePlan {
  const uint8_t* offsets = nullptr;  // N words in the model; nullptr when the model has no plan
  uint32_t count = 0;                // N
  int32_t version = 0;
  int32_t subgraphs_word = 0;
  uint32_t buffer = 0;  // the metadata's buffer index
  bool present() const { return offsets != nullptr; }
};

// Offset i of the plan (i < count), kOnlineOffset without a plan.
int32_t OfflineOffset(const OfflinePlan& plan, uint32_t i);

// Decodes the header of a metadata buffer: at least 12 bytes, N >= 0 and N words present.
StatusCode DecodeOfflinePlan(const uint8_t* data, uint64_t size, OfflinePlan* plan, ErrorText* error);

// Index of the first metadata entry named kOfflinePlanMetadataName, or -1.
int32_t FindOfflinePlanMetadata(const tfl::Model& model);

// A decoded plan against its model: count == tensors (tensor_base has num_subgraphs + 1
// entries, as ModelIndex), every offset >= 0 or -1 (named by subgraph and tensor), the words at a
// 4-byte aligned `file_offset`.
StatusCode CheckOfflinePlan(const OfflinePlan& plan, const uint32_t* tensor_base, uint32_t num_subgraphs,
                            uint64_t file_offset, ErrorText* error);

// The model's offline plan, found, decoded and checked (plan->present() is false when it has
// none). The model must have passed CheckModel.
StatusCode ReadOfflinePlan(const ModelIndex& index, const ModelFile& file, OfflinePlan* plan, ErrorText* error);

}  // namespace arenaplan::rules
