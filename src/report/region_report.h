// Text and JSON reports of a multi-region plan (`arenaplan plan --region ...`). JSON (stable, in
// the README): the plan document's keys that still mean one thing ("model", "alignment", "status",
// "seconds", "nodes", "lower_bound_bytes", "peak") plus
//   "method", "fits", "cost", "cost_lower_bound", "exact_ran", "exact_finished",
//   "regions": [{"name", "capacity", "cost", "used_bytes", "buffers", "traffic_bytes", "access_cost"}],
//   "baselines": {"naive": {"fits", "cost", "used_bytes": {name: bytes}}, "fastest_first": {same}},
//   "shortfall": null | {"min_bytes", "max_bytes"},
//   "buffers": [{"id", "subgraph", "tensor", "name", "size", "first", "last", "traffic", "region",
//                "offset"}]   (region and offset null when nothing fits)
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "lifetime/lifetimes.h"
#include "plan/region_planner.h"

namespace arenaplan::report {

struct RegionPlannedModel {
  std::string model;
  uint32_t alignment = 16;
  const lifetime::Lifetimes* lifetimes = nullptr;
  const plan::RegionProblem* problem = nullptr;  // built from lifetimes, same order
  const plan::RegionResult* result = nullptr;
  bool offline_plan_ignored = false;
};

nlohmann::json RegionPlanToJson(const RegionPlannedModel& planned);
// Summary, the regions, the two baselines and the buffer table; lines fit 100 columns.
std::string RegionPlanToText(const RegionPlannedModel& planned);

}  // namespace arenaplan::report
