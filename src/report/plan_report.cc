#include "report/plan_report.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <utility>
#include <vector>

#include "report/printable.h"
#include "report/timeline.h"

namespace arenaplan::report {
namespace {

std::string Percent(int64_t value, int64_t base) {
  if (base <= 0) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f %%", 100.0 * (value - base) / base);
  return buf;
}

}  // namespace

LivePeak PeakOf(const plan::Problem& p) {
  // Starts and ends as (step, +-size) sorted by step: a sorted vector, not a map of steps (at 100k
  // buffers the map took 0.1 s of solve --format json).
  std::vector<std::pair<plan::Step, int64_t>> events;
  events.reserve(2 * p.buffers.size());
  for (const auto& b : p.buffers) {
    events.emplace_back(b.first, b.size);
    events.emplace_back(b.last + 1, -b.size);
  }
  std::sort(events.begin(), events.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  int64_t live = 0, peak = -1;
  plan::Step at = 0;
  for (size_t k = 0; k < events.size();) {
    const plan::Step t = events[k].first;
    for (; k < events.size() && events[k].first == t; ++k) live += events[k].second;
    if (live > peak) {
      peak = live;
      at = t;
    }
  }
  return {at, std::max<int64_t>(peak, 0)};
}

nlohmann::json PeakToJson(const LivePeak& peak) { return {{"step", peak.step}, {"live_bytes", peak.bytes}}; }

nlohmann::json BufferToJson(const lifetime::BufferLifetime& b, plan::Bytes size) {
  const bool is_tensor = b.tensor >= 0;
  return {{"id", b.id},
          {"subgraph", is_tensor ? nlohmann::json(b.subgraph) : nlohmann::json(nullptr)},
          {"tensor", is_tensor ? nlohmann::json(b.tensor) : nlohmann::json(nullptr)},
          {"name", b.name},
          {"size", size},
          {"first", b.first},
          {"last", b.last}};
}

nlohmann::json PlanToJson(const PlannedModel& pm) {
  const auto& bufs = pm.lifetimes->buffers;
  const auto& plan = pm.result->plan;
  nlohmann::json j;
  j["model"] = pm.model;
  j["planner"] = pm.planner;
  j["chosen_planner"] = pm.result->planner;
  j["alignment"] = pm.alignment;
  j["arena_bytes"] = plan.height;
  j["lower_bound_bytes"] = pm.lower_bound;
  j["status"] = plan::PlanStatusName(pm.result->status);
  j["seconds"] = pm.result->seconds;
  j["nodes"] = pm.result->nodes;
  j["peak"] = PeakToJson(PeakOf(*pm.problem));
  nlohmann::json arr = nlohmann::json::array();
  for (size_t i = 0; i < bufs.size(); ++i) {
    nlohmann::json b = BufferToJson(bufs[i], pm.problem->buffers[i].size);
    b["offset"] = plan.offsets[i];
    b["fixed"] = pm.problem->buffers[i].fixed();
    arr.push_back(std::move(b));
  }
  j["buffers"] = std::move(arr);
  return j;
}

std::string PlanToText(const PlannedModel& pm) {
  const auto& bufs = pm.lifetimes->buffers;
  const auto& problem = *pm.problem;
  const auto& plan = pm.result->plan;
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "model        %s\n", pm.model.c_str());
  out += line;
  std::snprintf(line, sizeof line, "planner      %s%s (%s, %.3f s%s)\n", pm.planner.c_str(),
                pm.planner != pm.result->planner ? (" -> " + pm.result->planner).c_str() : "",
                plan::PlanStatusName(pm.result->status), pm.result->seconds,
                pm.result->nodes ? (", " + std::to_string(pm.result->nodes) + " nodes").c_str() : "");
  out += line;
  std::snprintf(line, sizeof line, "buffers      %zu planned (alignment %u)\n", bufs.size(), pm.alignment);
  out += line;
  std::snprintf(line, sizeof line, "arena (head) %lld bytes\n", static_cast<long long>(plan.height));
  out += line;
  std::snprintf(line, sizeof line, "lower bound  %lld bytes (max live bytes at one step); gap %s\n",
                static_cast<long long>(pm.lower_bound), Percent(plan.height, pm.lower_bound).c_str());
  out += line;

  // What is alive at the peak step, largest first: the buffers a user must shrink to go lower.
  const auto [peak_step, peak_bytes] = PeakOf(problem);
  std::vector<size_t> alive;
  for (size_t i = 0; i < bufs.size(); ++i) {
    if (problem.buffers[i].first <= peak_step && peak_step <= problem.buffers[i].last) alive.push_back(i);
  }
  std::stable_sort(alive.begin(), alive.end(),
                   [&](size_t a, size_t b) { return problem.buffers[a].size > problem.buffers[b].size; });
  std::snprintf(line, sizeof line, "\nalive at the peak (step %lld, %lld bytes):\n", static_cast<long long>(peak_step),
                static_cast<long long>(peak_bytes));
  out += line;
  for (size_t k = 0; k < alive.size() && k < 10; ++k) {
    const size_t i = alive[k];
    std::snprintf(line, sizeof line, "  %-10s %-44s %10lld B  [%lld, %lld]\n", bufs[i].id.c_str(),
                  Printable(bufs[i].name, 44).c_str(), static_cast<long long>(problem.buffers[i].size),
                  static_cast<long long>(bufs[i].first), static_cast<long long>(bufs[i].last));
    out += line;
  }
  if (alive.size() > 10) out += "  ... and " + std::to_string(alive.size() - 10) + " more\n";

  out += "\nbuffers:\n";
  std::snprintf(line, sizeof line, "  %-10s %-36s %10s %6s %6s %10s %s\n", "id", "name", "size", "first", "last",
                "offset", "");
  out += line;
  for (size_t i = 0; i < bufs.size(); ++i) {
    std::snprintf(line, sizeof line, "  %-10s %-36s %10lld %6lld %6lld %10lld %s\n", bufs[i].id.c_str(),
                  Printable(bufs[i].name, 36).c_str(), static_cast<long long>(problem.buffers[i].size),
                  static_cast<long long>(bufs[i].first), static_cast<long long>(bufs[i].last),
                  static_cast<long long>(plan.offsets[i]), problem.buffers[i].fixed() ? "fixed" : "");
    out += line;
  }

  out += "\n";
  std::vector<std::string> labels;
  labels.reserve(bufs.size());
  for (const auto& b : bufs) labels.push_back(Printable(b.id + " " + b.name, 28));  // the legend shows 28
  out += RenderTimeline(problem, plan, labels);
  return out;
}

}  // namespace arenaplan::report
