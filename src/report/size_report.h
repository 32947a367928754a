// The JSON document of `arenaplan size --format json` (stable, documented in the README):
//   {"model", "target", "planner", "supported", "allocates", "error", "head_bytes", "tail_bytes",
//    "arena_used_bytes", "min_arena_bytes", "safe_arena_bytes", "planned_buffers", "scratch_requests",
//    "tail_breakdown": {category: bytes}, "ops": [{"subgraph", "op", "name", "option_bytes",
//    "kernel_bytes"}], "notes"}
// Figures are null when TFLM cannot allocate the model.
// Several models on one allocator (SharedSizeToJson): the same top-level keys for the whole arena
// (no "model", "ops"), plus "allocator_object_bytes", "models": [{"model", "supported", "error",
// "head_bytes" (its plan), "tail_bytes" and "tail_breakdown" (what it added), "arena_used_bytes"
// (right after its AllocateTensors), "planned_buffers", "scratch_requests", "ops"}] in allocation
// order, and "order": {"searched", "cheapest": [model...], "min_arena_bytes", "arena_used_bytes",
// "orders_tried"}.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tflm/arena_size.h"
#include "tflm/shared_arena.h"

namespace arenaplan::report {

nlohmann::json SizeToJson(const std::string& model, const tflm::ArenaSize& size);
// `models` names the tenants in the order given to ComputeSharedArenaSize.
nlohmann::json SharedSizeToJson(const std::vector<std::string>& models, const tflm::SharedArenaSize& size);

}  // namespace arenaplan::report
