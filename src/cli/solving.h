// The pipeline behind `solve` (and the Python package's arenaplan.solve): a parsed MiniMalloc
// problem, the capacity check, the planner, the verifier and the `solve --format json` document.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "plan/csv.h"
#include "plan/planner.h"
#include "util/result.h"

namespace arenaplan::cli {

struct SolveArgs {
  std::string problem;  // the name in the document (the CSV path for the CLI)
  std::string planner = "best";
  int64_t capacity = 0;  // 0 = unbounded (the height is minimised)
  double time_limit = 0;
  bool minimize = false;   // with a capacity: minimise instead of only fitting
  bool work_time = false;  // optimal only: time_limit counts search steps (PlannerOptions::work_time)
  int threads = 0;         // PlannerOptions::threads (0: 2 where the machine has the cores)
  // Build SolveOutcome::doc. `solve` writing CSV without a report skips it: it costs about 0.2 s
  // at 100k buffers (whole process 0.89-0.95 s against 0.72 s), after the planner's deadline.
  bool document = true;
};

struct SolveOutcome {
  plan::PlanResult result;
  plan::Bytes lower_bound = 0;  // the live-bytes bound, raised by what the planner proved
  bool infeasible = false;      // proven: nothing fits under the capacity
  bool fits = false;            // a verified plan within the capacity
  nlohmann::json doc;           // the `solve --format json` document (when args.document)
};

// Errors: bad problems (kInvalidArgument), a capacity below one buffer, no plan found within the
// time limit (kDeadlineExceeded, "no plan within capacity ... (not proven infeasible)"), a plan
// failing verification (kInternal). Infeasible and over-capacity results are outcomes, not errors.
// `spent_seconds`: what the caller already used of --time-limit (reading the problem); `progress`:
// the planner's anytime reports (empty: none).
Result<SolveOutcome> SolveProblem(const SolveArgs& args, plan::CsvProblem& problem, double spent_seconds = 0,
                                  const plan::ProgressFn& progress = {});

// The one-line messages `solve` prints for an infeasible and an over-capacity outcome.
std::string InfeasibleMessage(const SolveArgs& args, const SolveOutcome& outcome);
std::string OverCapacityMessage(const SolveArgs& args, const SolveOutcome& outcome);

}  // namespace arenaplan::cli
