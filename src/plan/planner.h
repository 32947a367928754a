// Planners are free functions from a Problem to a Plan; the registry maps CLI names to them.
// Every plan a planner returns has to pass VerifyPlan (plan/verify.h); callers verify before
// printing anything.
//
// Contract shared by all planners: the problem is checked with ValidateProblem first (bad input
// -> kInvalidArgument naming the buffer); fixed buffers sit at their fixed offsets even when they
// overlap each other; every offset is a multiple of its buffer's alignment. Capacity: heuristics
// (linear, tflm-greedy, best-fit) ignore Problem::capacity and return their plan even when it is
// higher; a heuristic exceeding the capacity proves nothing, so it is not an error — the caller
// compares Plan::height with the capacity. Only an exact search may answer kInfeasible.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "plan/problem.h"
#include "util/result.h"

namespace arenaplan::plan {

// How a plan's height relates to the optimum.
enum class PlanStatus {
  kHeuristic,   // no claim
  kOptimal,     // proven minimal (equals the lower bound or every smaller height refuted)
  kFeasible,    // exact search ran out of time; best found, gap remains
  kInfeasible,  // proven: nothing fits under Problem::capacity
};
const char* PlanStatusName(PlanStatus status);

// A snapshot of a planner at work, for anytime reporting (see PlannerOptions::progress).
struct PlanProgress {
  Bytes height = 0;       // best plan so far (0: none yet)
  Bytes lower_bound = 0;  // best proven lower bound so far
  int64_t nodes = 0;      // exact-search nodes so far
  double seconds = 0;     // since the planner started
  std::string stage;      // what runs now ("best-fit", "optimal", "peak-repair", ...)
};
using ProgressFn = std::function<void(const PlanProgress&)>;

struct PlannerOptions {
  double time_limit_seconds = 0;              // 0 = planner's default
  const std::atomic<bool>* cancel = nullptr;  // set to true to stop a planner early
  bool minimize = true;                       // exact search: minimise height (false: fit capacity)
  // `optimal` only: the time limit counts search work (a microsecond per search step; a step
  // takes 1.5-2.7 us in Release here) instead of wall time, so the same problem gets the same plan and
  // answer on any machine, loaded or not, and under sanitizers. The cancel flag still stops it.
  bool work_time = false;
  // `optimal` (also within `best`): the threads its exact search may use; 0 = 2 where the machine
  // has two cores or more, else 1. With 2, each decision near a perfect packing searches the
  // problem and its mirror image in time at once (one direction after the other with 1). Work
  // time always searches on one thread, so that its answers repeat.
  int threads = 0;
  // Optional. Called on the planner's thread with each new best plan or bound and, during long
  // searches, about every 100 ms (kProgressInterval); it must be cheap and must not throw.
  ProgressFn progress;
};
inline constexpr double kProgressInterval = 0.1;  // seconds between heartbeats of a long search

// The longest time limit a planner honours (about four months): a longer one is taken as this, so
// that every deadline stays a representable time point (1e30 s used to overflow into a deadline
// that had passed).
inline constexpr double kMaxTimeLimitSeconds = 1e7;
// options.time_limit_seconds, or `default_seconds` when it is not positive; at most
// kMaxTimeLimitSeconds.
double TimeLimitOr(const PlannerOptions& options, double default_seconds);
// options.threads, or what 0 stands for on this machine.
int SearchThreads(const PlannerOptions& options);

struct PlanResult {
  Plan plan;
  PlanStatus status = PlanStatus::kHeuristic;
  Bytes lower_bound = 0;  // best proven lower bound known to the planner
  double seconds = 0;
  int64_t nodes = 0;    // search nodes (exact search), 0 otherwise
  std::string planner;  // the name of the planner that produced the plan
  // VerifyPlan passed on `plan` inside the planner (against the problem without its capacity), so
  // a caller need not check it again: 1 us per buffer (`best` checks every plan it keeps).
  bool verified = false;
};

using PlannerFn = std::function<Result<PlanResult>(const Problem&, const PlannerOptions&)>;

struct PlannerEntry {
  std::string name;         // CLI name: "linear", "tflm-greedy", "best-fit", "optimal", "best"
  std::string description;  // one line for --help
  PlannerFn run;
};

// Builds the result of a heuristic: lower_bound = LiveBytesLowerBound(problem); status kOptimal
// when the height meets that bound, else kHeuristic.
PlanResult HeuristicResult(const Problem& problem, Plan plan, std::string planner, double seconds);
// The same with the bound already computed (it costs an O(n log n) sweep on large problems).
PlanResult HeuristicResult(Bytes lower_bound, Plan plan, std::string planner, double seconds);

// All registered planners, in --help order (plan/planner_registry.cc).
const std::vector<PlannerEntry>& Planners();

// An old spelling accepted everywhere a planner is named; it runs exactly `planner`.
struct PlannerAlias {
  std::string alias;
  std::string planner;
};
const std::vector<PlannerAlias>& PlannerAliases();

// The planner registered under `name` or one of its aliases; nullptr when unknown
// (plan/plan_and_verify.h refuses unknown names with the list of valid ones).
const PlannerEntry* FindPlanner(const std::string& name);

}  // namespace arenaplan::plan
