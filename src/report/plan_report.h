// Text and JSON reports of a planned model (`arenaplan plan`). The JSON layout is a stable
// contract documented in the README:
//   {"model", "planner", "alignment", "arena_bytes", "lower_bound_bytes", "status", "seconds",
//    "nodes", "buffers": [{"id", "subgraph", "tensor", "name", "size", "first", "last", "offset",
//    "fixed"}]}
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lifetime/lifetimes.h"
#include "plan/planner.h"
#include "plan/problem.h"

namespace arenaplan::report {

struct PlannedModel {
  std::string model;                       // as given on the command line
  std::string planner;                     // the planner asked for ("best" reports the winner too)
  uint32_t alignment = 16;
  const lifetime::Lifetimes* lifetimes = nullptr;
  const plan::Problem* problem = nullptr;  // built from lifetimes, same order
  const plan::PlanResult* result = nullptr;
  plan::Bytes lower_bound = 0;
};

nlohmann::json PlanToJson(const PlannedModel& planned);
// Summary, what is alive at the peak, the buffer table and the timeline; lines fit 100 columns.
std::string PlanToText(const PlannedModel& planned);

}  // namespace arenaplan::report
