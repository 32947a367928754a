// Text and JSON reports of a planned model (`arenaplan plan`). The JSON layout is a stable
// contract documented in the README:
//   {"model", "planner", "alignment", "arena_bytes", "lower_bound_bytes", "status", "seconds",
//    "nodes", "peak": {"step", "live_bytes"}, "buffers": [{"id", "subgraph", "tensor", "name", "size", "first", "last",
//    "offset", "fixed"}]}
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lifetime/lifetimes.h"
#include "plan/planner.h"
#include "plan/problem.h"

namespace arenaplan::report {

struct PlannedModel {
  std::string model;    // as given on the command line
  std::string planner;  // the planner asked for ("best" reports the winner too)
  uint32_t alignment = 16;
  const lifetime::Lifetimes* lifetimes = nullptr;
  const plan::Problem* problem = nullptr;  // built from lifetimes, same order
  const plan::PlanResult* result = nullptr;
  plan::Bytes lower_bound = 0;
};

// The first time step with the most bytes alive at once (sum of sizes, fixed buffers included), and
// those bytes: what the text report, the JSON "peak" and the HTML report's peak marker show. O(n log n).
struct LivePeak {
  plan::Step step = 0;
  int64_t bytes = 0;
};
LivePeak PeakOf(const plan::Problem& problem);
nlohmann::json PeakToJson(const LivePeak& peak);  // {"step", "live_bytes"}

// One buffer's identity and lifetime as the JSON documents print it: {"id", "subgraph", "tensor",
// "name", "size", "first", "last"} (subgraph and tensor null for scratch); `size` as planned.
nlohmann::json BufferToJson(const lifetime::BufferLifetime& buffer, plan::Bytes size);

nlohmann::json PlanToJson(const PlannedModel& planned);
// Summary, what is alive at the peak, the buffer table and the timeline; lines fit 100 columns.
std::string PlanToText(const PlannedModel& planned);

}  // namespace arenaplan::report
