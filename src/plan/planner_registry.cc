// The one place that lists planners: adding a planner is one line in Planners() below.
#include "plan/best.h"
#include "plan/best_fit.h"
#include "plan/linear.h"
#include "plan/planner.h"
#include "plan/optimal.h"
#include "plan/tflm_greedy.h"

namespace arenaplan::plan {

const std::vector<PlannerEntry>& Planners() {
  static const std::vector<PlannerEntry> kPlanners = {
      {"linear", "TFLM's linear planner: buffers stacked in add order, no reuse", PlanLinear},
      {"tflm-greedy", "TFLM's greedy planner, bit-exact (size-descending first fit)", PlanTflmGreedy},
      {"best-fit", "best-fit gaps under several buffer orders, lowest plan kept", PlanBestFit},
      {"optimal", "exact search: provably minimal arena (time-limited, default 10 s)", PlanOptimal},
      {"best", "the heuristics above, then the exact search (2 s unless --time-limit) if they left a gap; lowest plan kept", PlanBest},
  };
  return kPlanners;
}

const PlannerEntry* FindPlanner(const std::string& name) {
  for (const PlannerEntry& p : Planners()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

}  // namespace arenaplan::plan
