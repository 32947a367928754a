// The portfolio planner: runs every other registered planner (optimal too, once registered) on
// the same problem, verifies each plan, and keeps the lowest (ties: the earlier planner in the
// registry). PlanResult::planner names the winner; lower_bound is the best bound any of them
// proved, and the status is kOptimal when the winning height meets it. Planners that fail
// (timeout, cancelled) are skipped; if all fail, the first error is returned.
#pragma once

#include "plan/planner.h"

namespace arenaplan::plan {

Result<PlanResult> PlanBest(const Problem& problem, const PlannerOptions& options);

}  // namespace arenaplan::plan
