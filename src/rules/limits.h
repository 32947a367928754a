// Every number that bounds what arenaplan accepts, in one place: TFLM's own constants, and the
// limits arenaplan sets so that hostile models fail cleanly (fixed-width arithmetic cannot wrap, a
// call graph cannot expand without end) with the same verdict from every command and the runtime.
// A model beyond a limit is valid but unsupported (StatusCode::kUnsupported, exit code 1);
// nothing here depends on the host or the target.
#pragma once

#include <cstdint>

#include "util/align.h"

namespace arenaplan::rules {

// --- TFLM's constants ---------------------------------------------------------------------------
// MicroArenaBufferAlignment(): every planned size is rounded up to it, the arena start aligned.
inline constexpr uint32_t kBufferAlignment = 16;
// kMaxScratchBuffersPerOp: scratch requests one node may make in Prepare.
inline constexpr uint32_t kMaxScratchPerNode = 12;
// The metadata entry TFLM reads offline offsets from (docs/tflm-arena.md §6).
inline constexpr const char kOfflinePlanMetadataName[] = "OfflineMemoryAllocation";

// --- arenaplan's limits -------------------------------------------------------------------------
// The flatbuffers Verifier: nesting depth and number of tables (its defaults are 64 and 10^6;
// 10^7 admits every model whose tensors and operators fit the counts below).
inline constexpr uint32_t kMaxFlatbufferDepth = 64;
inline constexpr uint32_t kMaxFlatbufferTables = 10'000'000;
// Subgraphs in a model.
inline constexpr uint32_t kMaxSubgraphs = 65'535;
// Tensors and operators over all subgraphs.
inline constexpr uint32_t kMaxTensors = 32'768;
inline constexpr uint32_t kMaxOperators = 65'536;
// Bytes of one tensor or scratch buffer (element count x element size); rounded up to
// kBufferAlignment it still fits an int32 offset, as in TFLM's planner.
inline constexpr uint32_t kMaxBufferBytes = 0x7FFF'FFF0u;
// Nested control-flow calls (IF / WHILE / CALL_ONCE) below subgraph 0: the walk and Invoke
// recurse this deep at most (each level costs stack on the device).
inline constexpr uint32_t kMaxCallDepth = 16;
// Operator visits of TFLM's lifetime walk, which enters a subgraph once per call site: a DAG of
// calls can expand exponentially, so the expansion is bounded.
inline constexpr uint32_t kMaxOperatorVisits = 1'000'000;
// Buffers one plan may hold (the runtime's planner indexes them with uint16): tensors and
// scratch requests together always fit.
inline constexpr uint32_t kMaxPlanBuffers = 65'534;
inline constexpr uint32_t kMaxScratchRequests = kMaxPlanBuffers - kMaxTensors;
static_assert(kMaxTensors + kMaxScratchRequests <= kMaxPlanBuffers, "every plan fits uint16 indices");

}  // namespace arenaplan::rules
