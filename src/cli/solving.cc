#include "cli/solving.h"

#include <algorithm>

#include "plan/lower_bound.h"
#include "plan/plan_and_verify.h"
#include "plan/verify.h"
#include "report/plan_report.h"

namespace arenaplan::cli {
namespace {

nlohmann::json SolveJson(const SolveArgs& a, const plan::CsvProblem& csv, const plan::PlanResult& r,
                         plan::Bytes lower_bound, bool fits) {
  nlohmann::json j;
  j["problem"] = a.problem;
  j["planner"] = a.planner;
  j["chosen_planner"] = r.planner;
  j["status"] = plan::PlanStatusName(r.status);
  j["fits"] = fits;
  j["capacity"] = a.capacity;
  j["height"] = r.plan.height;
  j["lower_bound_bytes"] = lower_bound;
  j["seconds"] = r.seconds;
  j["nodes"] = r.nodes;
  j["peak"] = report::PeakToJson(report::PeakOf(csv.problem));
  nlohmann::json bufs = nlohmann::json::array();
  for (size_t i = 0; i < csv.problem.buffers.size() && i < r.plan.offsets.size(); ++i) {
    const auto& b = csv.problem.buffers[i];
    bufs.push_back({{"id", csv.ids[i]},
                    {"lower", b.first},
                    {"upper", b.last + 1},
                    {"size", b.size},
                    {"offset", r.plan.offsets[i]}});
  }
  j["buffers"] = std::move(bufs);
  return j;
}

// The planner's share of --time-limit, which covers the whole solve: what reading took is spent,
// and what follows the planner's deadline costs about as much again three times over (best's check
// of its last plan, solve's own check, writing the CSV; measured on the real traces: read 23-91 ms,
// verify 29-54 ms, write 18-24 ms), so that is held back too, and 2 us per buffer more (freeing
// the planner's memory and the process exit: 0.2 s at 100k buffers, which overran a 10 s limit by
// up to 0.2 s). At least 1 ms: the planners always return a plan.
double PlannerSeconds(double limit, double spent_seconds, size_t buffers) {
  if (limit <= 0) return 0;
  return std::max(1e-3, limit - 4 * spent_seconds - 2e-6 * static_cast<double>(buffers));
}

}  // namespace

Result<SolveOutcome> SolveProblem(const SolveArgs& a, plan::CsvProblem& cp, double spent_seconds,
                                  const plan::ProgressFn& progress) {
  cp.problem.capacity = a.capacity;
  if (a.capacity > 0) {
    const Status st = plan::CheckCapacity(cp.problem, &cp.ids);
    // A capacity below a single buffer is a usage error, not a search result.
    if (!st.ok()) return InvalidArgument(st.message());
  }
  const Status known = plan::CheckPlannerName(a.planner);
  if (!known.ok()) return known;
  // The race has two sides: a third thread would have nothing to search.
  if (a.threads < 0 || a.threads > 2) {
    return InvalidArgument("--threads must be 0 (as the machine allows), 1 or 2, not " + std::to_string(a.threads));
  }
  const plan::PlannerEntry* planner = plan::FindPlanner(a.planner);
  if (a.work_time && planner->name != "optimal") {
    return InvalidArgument("--work-time applies to --planner optimal only ('" + planner->name +
                           "' runs on the wall clock)");
  }
  plan::PlannerOptions opts;
  // Work time counts the search alone: reading and writing take no share of it.
  opts.time_limit_seconds = a.work_time ? a.time_limit
                                        : PlannerSeconds(a.time_limit, spent_seconds, cp.problem.buffers.size());
  opts.work_time = a.work_time;
  opts.threads = a.threads;
  opts.progress = progress;
  opts.minimize = a.minimize || a.capacity == 0;
  auto result = planner->run(cp.problem, opts);
  if (!result.ok()) {
    const ErrorCode code = result.status().code();
    if (code == ErrorCode::kDeadlineExceeded || code == ErrorCode::kCancelled) {
      return Status(ErrorCode::kInfeasible,
                    "no plan within capacity " + std::to_string(a.capacity) +
                        " found in the time limit (not proven infeasible): " + result.status().message());
    }
    return result.status();
  }
  SolveOutcome out;
  out.result = std::move(result).value();
  out.lower_bound = std::max(plan::LiveBytesLowerBound(cp.problem), out.result.lower_bound);
  out.infeasible = out.result.status == plan::PlanStatus::kInfeasible;
  if (!out.infeasible) {
    // Verified without the capacity, so that a plan above it (printed, exit 1) is checked too;
    // `best` has checked its plan that way already.
    out.fits = a.capacity == 0 || out.result.plan.height <= a.capacity;
    if (!out.result.verified) {
      plan::Problem unbounded = cp.problem;
      unbounded.capacity = 0;
      const plan::VerifyReport verified = plan::VerifyPlan(unbounded, out.result.plan);
      if (!verified.ok()) {
        return Internal("planner '" + out.result.planner + "' returned an invalid plan: " + verified.errors[0].message);
      }
    }
  }
  if (a.document) out.doc = SolveJson(a, cp, out.result, out.lower_bound, out.fits);
  return out;
}

std::string InfeasibleMessage(const SolveArgs& a, const SolveOutcome& o) {
  return "infeasible: proven that no plan fits under capacity " + std::to_string(a.capacity) + " (lower bound " +
         std::to_string(o.lower_bound) + ")";
}

std::string OverCapacityMessage(const SolveArgs& a, const SolveOutcome& o) {
  return "the best plan found (" + std::to_string(o.result.plan.height) + ") exceeds capacity " +
         std::to_string(a.capacity) + " (not a proof)";
}

}  // namespace arenaplan::cli
