// The one place that lists planners: adding a planner is one line in Planners() below; an old
// spelling is one line in PlannerAliases() (the same algorithm under another name, never another).
#include "plan/best.h"
#include "plan/best_fit.h"
#include "plan/linear.h"
#include "plan/optimal.h"
#include "plan/planner.h"
#include "plan/tflm_greedy.h"

namespace arenaplan::plan {

const std::vector<PlannerEntry>& Planners() {
  static const std::vector<PlannerEntry> kPlanners = {
      {"linear", "TFLM's linear planner: buffers stacked in add order, no reuse", PlanLinear},
      {"tflm-greedy", "TFLM's greedy planner, bit-exact (size-descending first fit)", PlanTflmGreedy},
      {"best-fit", "best-fit gaps under several buffer orders, lowest plan kept", PlanBestFit},
      {"optimal", "exact search: provably minimal arena (time-limited, default 10 s)", PlanOptimal},
      {"best",
       "the heuristics above, then the exact search (2 s unless --time-limit) if they left a gap; lowest plan kept",
       PlanBest},
  };
  return kPlanners;
}

const std::vector<PlannerAlias>& PlannerAliases() {
  static const std::vector<PlannerAlias> kAliases = {
      {"greedy", "tflm-greedy"},  // `run --planner greedy` before the names were unified
  };
  return kAliases;
}

const PlannerEntry* FindPlanner(const std::string& name) {
  std::string canonical = name;
  for (const PlannerAlias& a : PlannerAliases()) {
    if (a.alias == name) canonical = a.planner;
  }
  for (const PlannerEntry& p : Planners()) {
    if (p.name == canonical) return &p;
  }
  return nullptr;
}

}  // namespace arenaplan::plan
