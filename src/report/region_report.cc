#include "report/region_report.h"

#include <cstdio>

#include "plan/lower_bound.h"
#include "report/plan_report.h"
#include "report/printable.h"

namespace arenaplan::report {
namespace {

using plan::RegionPlan;

std::string Gap(int64_t value, int64_t base) {
  if (base <= 0) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f %%", 100.0 * static_cast<double>(value - base) / static_cast<double>(base));
  return buf;
}

nlohmann::json BaselineToJson(const plan::RegionProblem& rp, const plan::RegionBaseline& b) {
  nlohmann::json used = nlohmann::json::object();
  if (b.fits) {
    for (size_t r = 0; r < rp.regions.size(); ++r) used[rp.regions[r].name] = b.plan.used[r];
  }
  return {
      {"fits", b.fits}, {"cost", b.fits ? nlohmann::json(b.plan.cost) : nlohmann::json(nullptr)}, {"used_bytes", used}};
}

// "dtcm 61440 B, sram 3072 B" over the regions a plan uses.
std::string UsedList(const plan::RegionProblem& rp, const RegionPlan& plan) {
  std::string out;
  for (size_t r = 0; r < rp.regions.size(); ++r) {
    if (plan.used[r] == 0) continue;
    out += (out.empty() ? "" : ", ") + rp.regions[r].name + " " + std::to_string(plan.used[r]) + " B";
  }
  return out;
}

std::string BaselineLine(const plan::RegionProblem& rp, const plan::RegionBaseline& b, const char* what, int64_t cost) {
  char line[256];
  if (!b.fits) {
    std::snprintf(line, sizeof line, "  %-34s does not fit\n", what);
  } else {
    std::snprintf(line, sizeof line, "  %-34s cost %12lld, ours %s; %s\n", what, static_cast<long long>(b.plan.cost),
                  Gap(cost, b.plan.cost).c_str(), UsedList(rp, b.plan).c_str());
  }
  return line;
}

// How many buffers region r holds and the bytes they move.
std::pair<int64_t, int64_t> RegionTotals(const plan::RegionProblem& rp, const RegionPlan& plan, size_t r) {
  int64_t count = 0, traffic = 0;
  for (size_t i = 0; i < plan.region.size(); ++i) {
    if (plan.region[i] != r) continue;
    ++count;
    traffic += rp.traffic[i];
  }
  return {count, traffic};
}

void RegionTable(const RegionPlannedModel& pm, std::string* out) {
  const auto& rp = *pm.problem;
  const auto& plan = pm.result->plan;
  char line[256];
  std::snprintf(line, sizeof line, "\n  %-12s %12s %6s %12s %8s %14s %16s\n", "region", "capacity", "cost", "used",
                "buffers", "traffic B", "access cost");
  *out += line;
  for (size_t r = 0; r < rp.regions.size(); ++r) {
    const auto [count, traffic] = RegionTotals(rp, plan, r);
    std::snprintf(line, sizeof line, "  %-12s %12lld %6lld %12lld %8lld %14lld %16lld\n", rp.regions[r].name.c_str(),
                  static_cast<long long>(rp.regions[r].capacity), static_cast<long long>(rp.regions[r].cost),
                  static_cast<long long>(plan.used[r]), static_cast<long long>(count), static_cast<long long>(traffic),
                  static_cast<long long>(traffic * rp.regions[r].cost));
    *out += line;
  }
}

}  // namespace

nlohmann::json RegionPlanToJson(const RegionPlannedModel& pm) {
  const auto& rp = *pm.problem;
  const auto& res = *pm.result;
  const auto& bufs = pm.lifetimes->buffers;
  nlohmann::json j;
  j["model"] = pm.model;
  j["alignment"] = pm.alignment;
  j["status"] = plan::PlanStatusName(res.status);
  j["method"] = res.method;
  j["fits"] = res.fits;
  j["cost"] = res.fits ? nlohmann::json(res.plan.cost) : nlohmann::json(nullptr);
  j["cost_lower_bound"] = res.cost_lower_bound;
  j["exact_ran"] = res.exact_ran;
  j["exact_finished"] = res.exact_finished;
  j["seconds"] = res.seconds;
  j["nodes"] = res.nodes;
  j["lower_bound_bytes"] = plan::LiveBytesLowerBound(rp.problem);
  j["peak"] = PeakToJson(PeakOf(rp.problem));
  j["offline_plan_ignored"] = pm.offline_plan_ignored;
  nlohmann::json regions = nlohmann::json::array();
  for (size_t r = 0; r < rp.regions.size(); ++r) {
    const auto [count, traffic] = RegionTotals(rp, res.plan, r);
    regions.push_back({{"name", rp.regions[r].name},
                       {"capacity", rp.regions[r].capacity},
                       {"cost", rp.regions[r].cost},
                       {"used_bytes", res.fits ? res.plan.used[r] : 0},
                       {"buffers", count},
                       {"traffic_bytes", traffic},
                       {"access_cost", traffic * rp.regions[r].cost}});
  }
  j["regions"] = std::move(regions);
  j["baselines"] = {{"naive", BaselineToJson(rp, res.naive)}, {"fastest_first", BaselineToJson(rp, res.fastest_first)}};
  j["shortfall"] = res.fits ? nlohmann::json(nullptr)
                            : nlohmann::json({{"min_bytes", res.shortfall_min}, {"max_bytes", res.shortfall_max}});
  nlohmann::json arr = nlohmann::json::array();
  for (size_t i = 0; i < bufs.size(); ++i) {
    nlohmann::json b = BufferToJson(bufs[i], rp.problem.buffers[i].size);
    b["traffic"] = rp.traffic[i];
    b["region"] = res.fits ? nlohmann::json(rp.regions[res.plan.region[i]].name) : nlohmann::json(nullptr);
    b["offset"] = res.fits ? nlohmann::json(res.plan.offsets[i]) : nlohmann::json(nullptr);
    arr.push_back(std::move(b));
  }
  j["buffers"] = std::move(arr);
  return j;
}

std::string RegionPlanToText(const RegionPlannedModel& pm) {
  const auto& rp = *pm.problem;
  const auto& res = *pm.result;
  const auto& bufs = pm.lifetimes->buffers;
  std::string out;
  char line[256];
  int64_t traffic = 0;
  for (int64_t t : rp.traffic) traffic += t;
  std::snprintf(line, sizeof line, "model        %s\n", pm.model.c_str());
  out += line;
  std::snprintf(line, sizeof line, "placement    %s (%s, %.3f s%s)\n", res.method.c_str(),
                plan::PlanStatusName(res.status), res.seconds,
                res.exact_ran ? (", exact search " + std::string(res.exact_finished ? "finished" : "stopped") + ", " +
                                 std::to_string(res.nodes) + " nodes")
                                    .c_str()
                              : "");
  out += line;
  std::snprintf(line, sizeof line, "buffers      %zu planned (alignment %u), %lld bytes of traffic per inference\n",
                bufs.size(), pm.alignment, static_cast<long long>(traffic));
  out += line;
  std::snprintf(line, sizeof line, "cost         %lld (traffic x region cost); lower bound %lld; gap %s\n",
                static_cast<long long>(res.plan.cost), static_cast<long long>(res.cost_lower_bound),
                Gap(res.plan.cost, res.cost_lower_bound).c_str());
  out += line;
  if (pm.offline_plan_ignored)
    out += "note         the model's offline plan is ignored: its offsets are for one arena\n";
  RegionTable(pm, &out);
  out += "\nagainst:\n";
  out += BaselineLine(rp, res.naive, "everything in the largest (naive)", res.plan.cost);
  out += BaselineLine(rp, res.fastest_first, "fastest first (ExecuTorch banked)", res.plan.cost);
  out += "\nbuffers:\n";
  std::snprintf(line, sizeof line, "  %-10s %-30s %9s %6s %6s %11s %-10s %9s\n", "id", "name", "size", "first", "last",
                "traffic", "region", "offset");
  out += line;
  for (size_t i = 0; i < bufs.size(); ++i) {
    std::snprintf(line, sizeof line, "  %-10s %-30s %9lld %6lld %6lld %11lld %-10s %9lld\n", bufs[i].id.c_str(),
                  Printable(bufs[i].name, 30).c_str(), static_cast<long long>(rp.problem.buffers[i].size),
                  static_cast<long long>(bufs[i].first), static_cast<long long>(bufs[i].last),
                  static_cast<long long>(rp.traffic[i]), rp.regions[res.plan.region[i]].name.c_str(),
                  static_cast<long long>(res.plan.offsets[i]));
    out += line;
  }
  return out;
}

}  // namespace arenaplan::report
