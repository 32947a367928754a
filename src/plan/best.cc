#include "plan/best.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "plan/lower_bound.h"
#include "plan/peak_anchor.h"
#include "plan/peak_repair.h"
#include "plan/search_model.h"
#include "plan/target_sweep.h"
#include "plan/verify.h"

namespace arenaplan::plan {

// The exact search's share of `best` when the caller gives no time limit: enough to prove every
// model in the corpus optimal (each takes milliseconds), short enough to stay interactive.
constexpr double kBestExactSearchSeconds = 2.0;
// When the caller's limit is spent before a plan exists, the next planner still gets this long
// (0 would mean the planner's default).
constexpr double kMinPlannerSeconds = 1e-3;
constexpr size_t kSkipTflmGreedyAbove = 20000;  // and linear
// Above this many buffers the exact search gets kLargeExactShare of the time left, peak repair
// the rest.
constexpr size_t kLargeForExactSearch = 4000;
// Above this many buffers, when minimising, the exact search is skipped: on such problems it
// only re-ran best-fit as its seed (3 s at 1M buffers, which then overran a 10 s limit by about
// 2 s) and improved nothing on the 1M-buffer benchmark problems; the stages after the portfolio
// get the time instead.
constexpr size_t kSkipExactAbove = 250000;
constexpr double kLargeExactShare = 0.5;
// Of the time left after the portfolio, peak anchoring may use this share, target sweeps this
// share of what is left then, and peak repair the rest. Anchoring settles the real traces within
// 2.6 s of a 10 s limit (IOPDDL S, the slowest) and on evenly loaded problems gives up after 30 %
// of its share (its first window's search times out); the sweeps need about a second per target
// on 100k random buffers.
constexpr double kAnchorShare = 0.5;
constexpr double kSweepShare = 0.6;
// Verifying a plan takes about this long per buffer (a second at 1M buffers) before one has been
// timed; the repair stages then keep back what the slowest verification so far took, plus a
// quarter: at 1M buffers one took 1.5 s, and the fixed second let `best` end 0.25-0.7 s late.
constexpr auto kVerifyPerBuffer = std::chrono::nanoseconds(1000);
constexpr double kVerifyMargin = 1.25;

namespace {

using Clock = std::chrono::steady_clock;

// The portfolio's progress: the lowest height and highest bound over the planners so far, merged
// with what the planner under way reports.
struct Progress {
  const ProgressFn& out;
  Clock::time_point start;
  Bytes height = 0;  // 0: no plan yet
  Bytes bound = 0;
  int64_t nodes = 0;  // of the planners that finished
  void Report(const std::string& stage, Bytes h, Bytes lb, int64_t run_nodes) const {
    if (!out) return;
    PlanProgress p;
    p.stage = stage;
    p.height = height == 0 ? h : h == 0 ? height : std::min(height, h);
    p.lower_bound = std::max(bound, lb);
    p.nodes = nodes + run_nodes;
    p.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    out(p);
  }
  ProgressFn For(const std::string& stage) const {
    if (!out) return {};
    return [this, stage](const PlanProgress& p) { Report(stage, p.height, p.lower_bound, p.nodes); };
  }
};

// Verifies `p` and keeps it in `best` when it is lower; `stage` names it in the planner column
// and in the error.
Status KeepIfLower(const Problem& unbounded, Plan p, const std::string& stage, PlanResult* best) {
  if (p.offsets.empty() || p.height >= best->plan.height) return Status::Ok();
  const VerifyReport report = VerifyPlan(unbounded, p, 1);
  if (!report.ok()) return Internal(stage + " returned an invalid plan: " + report.errors[0].message);
  best->plan = std::move(p);
  best->planner += "+" + stage;
  return Status::Ok();
}

// What time is left goes to the stages that lower a plan the exact search could not close, each
// only while the plan is above the bound: the exact core at the busiest step with first fit around
// it (plan/peak_anchor.h: settles traces whose peak is one zero-slack step), sweeps within falling
// targets (plan/target_sweep.h: evenly loaded problems), then local repair of whatever peak is
// left (plan/peak_repair.h). Lowers `best` in place.
Status RepairWithTimeLeft(const Problem& unbounded, Bytes bound, Clock::time_point limit, Clock::duration verify_cost,
                          const PlannerOptions& options, const Progress& progress, PlanResult* best) {
  // The stages end early enough for the verification of what they return to fit in the limit.
  const auto reserve = verify_cost > Clock::duration::zero()
                           ? std::chrono::duration_cast<Clock::duration>(verify_cost * kVerifyMargin)
                           : std::chrono::duration_cast<Clock::duration>(
                                 kVerifyPerBuffer * static_cast<int64_t>(unbounded.buffers.size()));
  const Clock::time_point deadline = limit - reserve;
  auto open = [&] { return best->plan.height > bound && Clock::now() < deadline; };
  if (best->status == PlanStatus::kOptimal || !open()) return Status::Ok();
  AnchorOptions ao;
  ao.deadline = optimal_internal::ShareOfTimeLeft(deadline, kAnchorShare);
  ao.cancel = options.cancel;
  ao.target = bound;
  ARENAPLAN_RETURN_IF_ERROR(KeepIfLower(unbounded, AnchorPeak(unbounded, best->plan, ao), "peak-anchor", best));
  if (!open()) return Status::Ok();
  ARENAPLAN_RETURN_IF_ERROR(
      KeepIfLower(unbounded,
                  TargetSweeps(unbounded, bound, best->plan.height,
                               optimal_internal::ShareOfTimeLeft(deadline, kSweepShare), options.cancel),
                  "target-sweep", best));
  progress.Report("target-sweep", best->plan.height, 0, 0);
  if (!open()) return Status::Ok();
  RepairOptions ro;
  ro.deadline = deadline;
  ro.cancel = options.cancel;
  ro.target = bound;
  if (options.progress) {
    ro.progress = [&](const Plan& p) { progress.Report("peak-repair", p.height, 0, 0); };
  }
  return KeepIfLower(unbounded, RepairPeaks(unbounded, best->plan, ro), "peak-repair", best);
}

}  // namespace

Result<PlanResult> PlanBest(const Problem& problem, const PlannerOptions& options) {
  const auto start = Clock::now();
  ARENAPLAN_RETURN_IF_ERROR(ValidateProblem(problem));
  Progress progress{options.progress, start};
  std::optional<PlanResult> best;
  std::optional<Status> first_error;
  Bytes bound = LiveBytesLowerBound(problem);
  int64_t nodes = 0;
  bool proven_infeasible = false;
  std::optional<Bytes> proven_optimum;  // height some planner proved minimal
  Problem unbounded = problem;
  unbounded.capacity = 0;
  Clock::duration verify_cost{0};  // the slowest verification of a planner's plan
  for (const PlannerEntry& entry : Planners()) {
    if (entry.name == "best") continue;
    // best-fit's first run is tflm-greedy's exact plan, and linear's stack is no contender: on
    // large problems running (and verifying: 4 s at 1M buffers) them too is only time lost.
    if ((entry.name == "tflm-greedy" || entry.name == "linear") && problem.buffers.size() > kSkipTflmGreedyAbove) {
      continue;
    }
    const bool exact = entry.name == "optimal";
    // Heuristics run first (registry order); the exact search only when they left a gap.
    if (exact && best && best->plan.height <= bound && problem.capacity == 0) continue;
    if (exact && problem.capacity == 0 && problem.buffers.size() > kSkipExactAbove) continue;
    PlannerOptions entry_options = options;
    if (options.time_limit_seconds > 0) {
      // The caller's limit covers the whole portfolio: each planner gets what is left.
      const std::chrono::duration<double> used = Clock::now() - start;
      entry_options.time_limit_seconds = options.time_limit_seconds - used.count();
      // Out of time: only best-fit still runs, for its first run (TFLM's plan, which always
      // finishes), so that the plan is never just linear's stack.
      if (entry_options.time_limit_seconds <= 0 && best && entry.name != "best-fit") continue;
      entry_options.time_limit_seconds = std::max(entry_options.time_limit_seconds, kMinPlannerSeconds);
      // On large problems the exact search rarely closes a gap: peak repair gets the other half.
      if (exact && problem.buffers.size() > kLargeForExactSearch) {
        entry_options.time_limit_seconds *= kLargeExactShare;
      }
    } else if (exact) {
      entry_options.time_limit_seconds = kBestExactSearchSeconds;
    }
    entry_options.progress = progress.For(entry.name);
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
    const auto verify_start = Clock::now();
    const VerifyReport report = VerifyPlan(unbounded, r->plan, 1);
    verify_cost = std::max(verify_cost, Clock::now() - verify_start);
    if (!report.ok()) {
      return Internal("planner " + entry.name + " returned an invalid plan: " + report.errors[0].message);
    }
    if (!best || r->plan.height < best->plan.height) best = std::move(r.value());
    progress.height = best->plan.height;
    progress.bound = bound;
    progress.nodes = nodes;
    progress.Report(entry.name, 0, 0, 0);
  }
  if (!best) {
    if (first_error) return *first_error;
    return Internal("no planner is registered besides 'best'");
  }
  // A capacity proven too small is the answer: lowering the plan shown beside it would only spend
  // the rest of the time limit (a gadget packing took 20 s instead of 0.04 s).
  const double repair_s = TimeLimitOr(options, kBestExactSearchSeconds);
  if (!proven_infeasible) {
    ARENAPLAN_RETURN_IF_ERROR(RepairWithTimeLeft(
        unbounded, bound, start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(repair_s)),
        verify_cost, options, progress, &*best));
  }
  // A proven optimum is also a lower bound, whoever found the plan of that height first.
  if (proven_optimum) bound = std::max(bound, *proven_optimum);
  best->lower_bound = bound;
  if (best->plan.height <= bound) best->status = PlanStatus::kOptimal;
  if (proven_infeasible) best->status = PlanStatus::kInfeasible;  // the plan shown exceeds the capacity
  best->nodes = nodes;
  best->verified = true;  // each entry's plan when it came, each repair's in KeepIfLower
  const std::chrono::duration<double> took = Clock::now() - start;
  best->seconds = took.count();
  return std::move(*best);
}

}  // namespace arenaplan::plan
