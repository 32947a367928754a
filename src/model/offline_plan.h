// The OfflineMemoryAllocation metadata (docs/tflm-arena.md §6) on host data: decoding and checking
// are rules/offline_plan.h's (the runtime's too), wrapped to give Status values; encoding (for
// export) is here. Words: int32 little-endian [version, subgraphs, N, offset_0 .. offset_N-1],
// one offset per tensor over all subgraphs in subgraph order, -1 = plan online. O(N).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "model/model.h"
#include "rules/limits.h"
#include "util/result.h"

namespace arenaplan::model {

inline constexpr std::string_view kOfflinePlanMetadataName = rules::kOfflinePlanMetadataName;

// Index into Model::metadata of the OfflineMemoryAllocation entry (the first one, as TFLM).
std::optional<size_t> FindOfflinePlanMetadata(const Model& model);

// Decodes the words of a metadata buffer; InvalidArgument when shorter than its own count says.
Result<OfflinePlan> DecodeOfflinePlan(const uint8_t* data, uint64_t size);

// The words of an offline plan (version 1, subgraphs word 0 as TFLM's tests write it).
std::vector<uint8_t> EncodeOfflinePlan(const std::vector<int32_t>& offsets, int32_t version = 1,
                                       int32_t subgraphs_word = 0);

// OK when the model has no offline plan or a well-formed one: decodable, N equal to the total tensor
// count, every offset >= 0 or exactly -1, data 4-byte aligned in the file (TFLM reads it in place).
Status ValidateOfflinePlan(const Model& model);

}  // namespace arenaplan::model
