// The portfolio planner: runs every other registered planner (optimal too, once registered) on
// the same problem, verifies each plan, and keeps the lowest (ties: the earlier planner in the
// registry). PlanResult::planner names the winner; lower_bound is the best bound any of them
// proved (a proven optimum counts as one), and the status is kOptimal when the winning height
// meets it. When the exact search proves that nothing fits under Problem::capacity the status is
// kInfeasible and the plan is the lowest one found (above the capacity). Planners that fail
// (timeout, cancelled) are skipped; if all fail, the first error is returned. A time limit covers
// the whole portfolio: each planner gets what is left; once none is, only best-fit still runs (its
// first run, TFLM's plan, always finishes), and tflm-greedy and linear are skipped above 20000
// buffers (best-fit's first run is tflm-greedy's plan; a stack of every buffer is no contender there). Time left after
// them (of the time limit, or of the exact search's default share) goes, while a gap remains, to
// peak anchoring (plan/peak_anchor.h, up to 80 % of it) and then peak repair
// (plan/peak_repair.h); PlanResult::planner then ends in "+peak-anchor" and/or "+peak-repair".
#pragma once

#include "plan/planner.h"

namespace arenaplan::plan {

Result<PlanResult> PlanBest(const Problem& problem, const PlannerOptions& options);

}  // namespace arenaplan::plan
