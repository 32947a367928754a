// The one way every command gets a plan: look the planner up by name (unknown names are refused
// with the list of valid ones), run it, and check the result with the independent verifier
// (plan/verify.h). A plan that does not verify is an internal error and never reaches the user.
// Cost: the planner's, plus O(n log n) for the verifier.
#pragma once

#include <string>

#include "plan/planner.h"

namespace arenaplan::plan {

// "linear, tflm-greedy, best-fit, optimal, best" (the registry's order).
std::string PlannerNames();

// OK for a registered planner or alias; else InvalidArgument "unknown planner 'x' (valid: ...)".
Status CheckPlannerName(const std::string& planner);

Result<PlanResult> PlanAndVerify(const Problem& problem, const std::string& planner,
                                 const PlannerOptions& options = {});

}  // namespace arenaplan::plan
