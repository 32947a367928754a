#include "report/size_report.h"

#include "report/printable.h"

namespace arenaplan::report {

nlohmann::json SizeToJson(const std::string& model, const tflm::ArenaSize& s) {
  nlohmann::json j;
  j["model"] = model;
  j["target"] = s.target;
  j["planner"] = s.planner;
  j["supported"] = s.supported;
  j["allocates"] = s.allocates;
  j["error"] = s.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(Printable(s.error));
  if (s.allocates) {
    j["head_bytes"] = s.head_bytes;
    j["tail_bytes"] = s.tail_bytes;
    j["arena_used_bytes"] = s.arena_used_bytes;
    j["min_arena_bytes"] = s.supported ? nlohmann::json(s.min_arena_bytes) : nlohmann::json(nullptr);
    j["safe_arena_bytes"] = s.supported ? nlohmann::json(s.safe_arena_bytes) : nlohmann::json(nullptr);
    j["planned_buffers"] = s.planned_buffers;
    j["scratch_requests"] = s.scratch_requests;
    nlohmann::json cats = nlohmann::json::object();
    for (const auto& c : s.tail_breakdown) cats[c.name] = c.bytes;
    j["tail_breakdown"] = cats;
    nlohmann::json ops = nlohmann::json::array();
    for (const auto& o : s.ops) {
      ops.push_back({{"subgraph", o.subgraph},
                     {"op", o.op},
                     {"name", o.name},
                     {"option_bytes", o.option_bytes},
                     {"kernel_bytes", o.kernel_bytes}});
    }
    j["ops"] = ops;
  } else {
    for (const char* k : {"head_bytes", "tail_bytes", "arena_used_bytes", "min_arena_bytes", "safe_arena_bytes"})
      j[k] = nullptr;
    j["tail_breakdown"] = nlohmann::json::object();
  }
  j["notes"] = s.notes;
  return j;
}

}  // namespace arenaplan::report
