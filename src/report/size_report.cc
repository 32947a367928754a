#include "report/size_report.h"

#include "report/printable.h"

namespace arenaplan::report {
namespace {

nlohmann::json CategoriesJson(const std::vector<tflm::TailCategory>& categories) {
  nlohmann::json cats = nlohmann::json::object();
  for (const auto& c : categories) cats[c.name] = c.bytes;
  return cats;
}

nlohmann::json OpsJson(const std::vector<tflm::OpTail>& ops) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& o : ops) {
    out.push_back({{"subgraph", o.subgraph},
                   {"op", o.op},
                   {"name", o.name},
                   {"option_bytes", o.option_bytes},
                   {"kernel_bytes", o.kernel_bytes}});
  }
  return out;
}

nlohmann::json ErrorJson(const std::string& error) {
  return error.empty() ? nlohmann::json(nullptr) : nlohmann::json(Printable(error));
}

}  // namespace

nlohmann::json SizeToJson(const std::string& model, const tflm::ArenaSize& s) {
  nlohmann::json j;
  j["model"] = model;
  j["target"] = s.target;
  j["planner"] = s.planner;
  j["supported"] = s.supported;
  j["allocates"] = s.allocates;
  j["error"] = ErrorJson(s.error);
  if (s.allocates) {
    j["head_bytes"] = s.head_bytes;
    j["tail_bytes"] = s.tail_bytes;
    j["arena_used_bytes"] = s.arena_used_bytes;
    j["min_arena_bytes"] = s.supported ? nlohmann::json(s.min_arena_bytes) : nlohmann::json(nullptr);
    j["safe_arena_bytes"] = s.supported ? nlohmann::json(s.safe_arena_bytes) : nlohmann::json(nullptr);
    j["planned_buffers"] = s.planned_buffers;
    j["scratch_requests"] = s.scratch_requests;
    j["tail_breakdown"] = CategoriesJson(s.tail_breakdown);
    j["ops"] = OpsJson(s.ops);
  } else {
    for (const char* k : {"head_bytes", "tail_bytes", "arena_used_bytes", "min_arena_bytes", "safe_arena_bytes"})
      j[k] = nullptr;
    j["tail_breakdown"] = nlohmann::json::object();
  }
  j["notes"] = s.notes;
  return j;
}

nlohmann::json SharedSizeToJson(const std::vector<std::string>& models, const tflm::SharedArenaSize& s) {
  nlohmann::json j;
  j["target"] = s.target;
  j["planner"] = s.planner;
  j["supported"] = s.supported;
  j["allocates"] = s.allocates;
  j["error"] = ErrorJson(s.error);
  const auto figure = [&](uint64_t v, bool valid) { return valid ? nlohmann::json(v) : nlohmann::json(nullptr); };
  j["head_bytes"] = figure(s.head_bytes, s.allocates);
  j["tail_bytes"] = figure(s.tail_bytes, s.allocates);
  j["arena_used_bytes"] = figure(s.arena_used_bytes, s.allocates);
  j["min_arena_bytes"] = figure(s.min_arena_bytes, s.supported);
  j["safe_arena_bytes"] = figure(s.safe_arena_bytes, s.supported);
  j["allocator_object_bytes"] = figure(s.allocator_object_bytes, s.allocates);
  j["planned_buffers"] = s.planned_buffers;
  j["scratch_requests"] = s.scratch_requests;
  j["tail_breakdown"] = CategoriesJson(s.tail_breakdown);
  nlohmann::json per_model = nlohmann::json::array();
  for (size_t i = 0; i < s.models.size() && i < models.size(); ++i) {
    const tflm::ArenaSize& m = s.models[i];
    per_model.push_back({{"model", models[i]},
                         {"supported", m.supported},
                         {"error", ErrorJson(m.error)},
                         {"head_bytes", m.head_bytes},
                         {"tail_bytes", m.tail_bytes},
                         {"arena_used_bytes", m.arena_used_bytes},
                         {"planned_buffers", m.planned_buffers},
                         {"scratch_requests", m.scratch_requests},
                         {"tail_breakdown", CategoriesJson(m.tail_breakdown)},
                         {"ops", OpsJson(m.ops)}});
  }
  j["models"] = per_model;
  nlohmann::json order = {{"searched", s.cheapest.searched}};
  if (s.cheapest.searched) {
    nlohmann::json best = nlohmann::json::array();
    for (size_t i : s.cheapest.best) best.push_back(models.at(i));
    order["cheapest"] = best;
    order["min_arena_bytes"] = s.cheapest.best_min_arena_bytes;
    order["arena_used_bytes"] = s.cheapest.best_arena_used_bytes;
    order["orders_tried"] = s.cheapest.orders_tried;
  }
  j["order"] = order;
  j["notes"] = s.notes;
  return j;
}

}  // namespace arenaplan::report
