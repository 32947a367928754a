#include "plan/best.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "plan/lower_bound.h"
#include "plan/peak_repair.h"
#include "plan/verify.h"

namespace arenaplan::plan {

// The exact search's share of `best` when the caller gives no time limit: enough to prove every
// model in the corpus optimal (each takes milliseconds), short enough to stay interactive.
constexpr double kBestExactSearchSeconds = 2.0;
constexpr size_t kSkipTflmGreedyAbove = 20000;

Result<PlanResult> PlanBest(const Problem& problem, const PlannerOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  ARENAPLAN_RETURN_IF_ERROR(ValidateProblem(problem));
  std::optional<PlanResult> best;
  std::optional<Status> first_error;
  Bytes bound = LiveBytesLowerBound(problem);
  int64_t nodes = 0;
  bool proven_infeasible = false;
  std::optional<Bytes> proven_optimum;  // height some planner proved minimal
  Problem unbounded = problem;
  unbounded.capacity = 0;
  for (const PlannerEntry& entry : Planners()) {
    if (entry.name == "best") continue;
    // best-fit's first runs include tflm-greedy's exact plan: on large problems running it twice
    // is only time lost.
    if (entry.name == "tflm-greedy" && problem.buffers.size() > kSkipTflmGreedyAbove) continue;
    const bool exact = entry.name == "optimal";
    // Heuristics run first (registry order); the exact search only when they left a gap.
    if (exact && best && best->plan.height <= bound && problem.capacity == 0) continue;
    PlannerOptions entry_options = options;
    if (options.time_limit_seconds > 0) {
      // The caller's limit covers the whole portfolio: each planner gets what is left.
      const std::chrono::duration<double> used = std::chrono::steady_clock::now() - start;
      entry_options.time_limit_seconds = options.time_limit_seconds - used.count();
      if (entry_options.time_limit_seconds <= 0 && best) break;
      entry_options.time_limit_seconds = std::max(entry_options.time_limit_seconds, 1e-3);
    } else if (exact) {
      entry_options.time_limit_seconds = kBestExactSearchSeconds;
    }
    Result<PlanResult> r = entry.run(problem, entry_options);
    if (!r.ok()) {
      if (!first_error) first_error = r.status();
      continue;
    }
    nodes += r->nodes;
    bound = std::max(bound, r->lower_bound);
    if (r->status == PlanStatus::kInfeasible) {  // no plan inside the capacity; others still give one
      proven_infeasible = true;
      continue;
    }
    if (r->status == PlanStatus::kOptimal) proven_optimum = r->plan.height;
    // Checked without the capacity: a heuristic may miss the capacity (not a proof), and a plan
    // that fits beats one that does not whatever their heights.
    const VerifyReport report = VerifyPlan(unbounded, r->plan, 1);
    if (!report.ok()) {
      return Internal("planner " + entry.name + " returned an invalid plan: " + report.errors[0].message);
    }
    if (!best || r->plan.height < best->plan.height) best = std::move(r.value());
  }
  if (!best) {
    if (first_error) return *first_error;
    return Internal("no planner is registered besides 'best'");
  }
  // What time is left goes to local repair around the peak (plan/peak_repair.h), which helps
  // where the exact search could not be built or did not close the gap.
  const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(options.time_limit_seconds > 0 ? options.time_limit_seconds
                                                                                              : kBestExactSearchSeconds));
  if (best->plan.height > bound && best->status != PlanStatus::kOptimal && std::chrono::steady_clock::now() < deadline) {
    RepairOptions ro;
    ro.deadline = deadline;
    ro.cancel = options.cancel;
    ro.target = bound;
    Plan repaired = RepairPeaks(unbounded, best->plan, ro);
    if (repaired.height < best->plan.height) {
      const VerifyReport report = VerifyPlan(unbounded, repaired, 1);
      if (!report.ok()) return Internal("peak repair returned an invalid plan: " + report.errors[0].message);
      best->plan = std::move(repaired);
      best->planner += "+peak-repair";
    }
  }
  // A proven optimum is also a lower bound, whoever found the plan of that height first.
  if (proven_optimum) bound = std::max(bound, *proven_optimum);
  best->lower_bound = bound;
  if (best->plan.height <= bound) best->status = PlanStatus::kOptimal;
  if (proven_infeasible) best->status = PlanStatus::kInfeasible;  // the plan shown exceeds the capacity
  best->nodes = nodes;
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  best->seconds = took.count();
  return std::move(*best);
}

}  // namespace arenaplan::plan
