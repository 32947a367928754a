// The JSON document of `arenaplan size --format json` (stable, documented in the README):
//   {"model", "target", "planner", "supported", "allocates", "error", "head_bytes", "tail_bytes",
//    "arena_used_bytes", "min_arena_bytes", "safe_arena_bytes", "planned_buffers", "scratch_requests",
//    "tail_breakdown": {category: bytes}, "ops": [{"subgraph", "op", "name", "option_bytes",
//    "kernel_bytes"}], "notes"}
// Figures are null when TFLM cannot allocate the model.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "tflm/arena_size.h"

namespace arenaplan::report {

nlohmann::json SizeToJson(const std::string& model, const tflm::ArenaSize& size);

}  // namespace arenaplan::report
