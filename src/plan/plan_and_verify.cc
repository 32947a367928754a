#include "plan/plan_and_verify.h"

#include "plan/verify.h"

namespace arenaplan::plan {

std::string PlannerNames() {
  std::string names;
  for (const PlannerEntry& p : Planners()) names += (names.empty() ? "" : ", ") + p.name;
  return names;
}

Status CheckPlannerName(const std::string& planner) {
  if (FindPlanner(planner) != nullptr) return Status::Ok();
  return InvalidArgument("unknown planner '" + planner + "' (valid: " + PlannerNames() + ")");
}

Result<PlanResult> PlanAndVerify(const Problem& problem, const std::string& planner, const PlannerOptions& options) {
  ARENAPLAN_RETURN_IF_ERROR(CheckPlannerName(planner));
  auto result = FindPlanner(planner)->run(problem, options);
  if (!result.ok()) return result.status();
  const VerifyReport report = VerifyPlan(problem, result->plan);
  if (!report.ok()) {
    return Internal("planner '" + result->planner + "' returned an invalid plan: " + report.errors.front().message);
  }
  return result;
}

}  // namespace arenaplan::plan
