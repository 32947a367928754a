#include "plan/planner.h"

#include <algorithm>
#include <thread>

#include "plan/lower_bound.h"

namespace arenaplan::plan {

const char* PlanStatusName(PlanStatus status) {
  switch (status) {
    case PlanStatus::kHeuristic: return "heuristic";
    case PlanStatus::kOptimal: return "optimal";
    case PlanStatus::kFeasible: return "feasible";
    case PlanStatus::kInfeasible: return "infeasible";
  }
  return "unknown";
}

double TimeLimitOr(const PlannerOptions& options, double default_seconds) {
  const double s = options.time_limit_seconds > 0 ? options.time_limit_seconds : default_seconds;
  return std::min(s, kMaxTimeLimitSeconds);
}

int SearchThreads(const PlannerOptions& options) {
  if (options.threads > 0) return options.threads;
  return std::thread::hardware_concurrency() >= 2 ? 2 : 1;
}

PlanResult HeuristicResult(const Problem& problem, Plan plan, std::string planner, double seconds) {
  return HeuristicResult(LiveBytesLowerBound(problem), std::move(plan), std::move(planner), seconds);
}

PlanResult HeuristicResult(Bytes lower_bound, Plan plan, std::string planner, double seconds) {
  PlanResult r;
  r.plan = std::move(plan);
  r.lower_bound = lower_bound;
  r.status = r.plan.height <= r.lower_bound ? PlanStatus::kOptimal : PlanStatus::kHeuristic;
  r.seconds = seconds;
  r.planner = std::move(planner);
  return r;
}

}  // namespace arenaplan::plan
