// `arenaplan solve`: plan a generic problem in MiniMalloc's CSV format.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/model_file.h"
#include "cli/planning.h"
#include "cli/progress.h"
#include "plan/csv.h"
#include "plan/lower_bound.h"
#include "plan/plan_and_verify.h"
#include "report/printable.h"
#include "plan/verify.h"

namespace arenaplan::cli {
namespace {

struct SolveArgs {
  std::string problem;
  std::string planner = "best";
  int64_t capacity = 0;
  double time_limit = 0;
  bool minimize = false;
  std::string format = "csv";
  std::string output;  // empty: stdout
};

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
  j["lower_bound_bytes"] = std::max(lower_bound, r.lower_bound);
  j["seconds"] = r.seconds;
  j["nodes"] = r.nodes;
  nlohmann::json bufs = nlohmann::json::array();
  for (size_t i = 0; i < csv.problem.buffers.size() && i < r.plan.offsets.size(); ++i) {
    const auto& b = csv.problem.buffers[i];
    bufs.push_back({{"id", csv.ids[i]}, {"lower", b.first}, {"upper", b.last + 1}, {"size", b.size},
                    {"offset", r.plan.offsets[i]}});
  }
  j["buffers"] = std::move(bufs);
  return j;
}

// The planner's share of --time-limit, which covers the whole solve: what reading took is spent,
// and what follows the planner's deadline costs about as much again three times over (best's check
// of its last plan, solve's own check, writing the CSV; measured on the real traces: read 23-91 ms,
// verify 29-54 ms, write 18-24 ms), so that is held back too. At least 1 ms: the planners always
// return a plan.
double PlannerSeconds(double limit, std::chrono::steady_clock::time_point start) {
  if (limit <= 0) return 0;
  const double read = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return std::max(1e-3, limit - 4 * read);
}

int RunSolve(const SolveArgs& a) {
  const auto start = std::chrono::steady_clock::now();
  auto csv = plan::ReadCsvFile(a.problem);
  if (!csv.ok()) return ReportError("solve", csv.status());
  plan::CsvProblem& cp = *csv;
  cp.problem.capacity = a.capacity;
  if (a.capacity > 0) {
    const Status st = plan::CheckCapacity(cp.problem, &cp.ids);
    // A capacity below a single buffer is a usage error, not a search result.
    if (!st.ok()) return ReportError("solve", InvalidArgument(st.message()));
  }
  const Status known = plan::CheckPlannerName(a.planner);
  if (!known.ok()) return ReportError("solve", known);
  const plan::PlannerEntry* planner = plan::FindPlanner(a.planner);
  plan::PlannerOptions opts;
  opts.time_limit_seconds = PlannerSeconds(a.time_limit, start);
  opts.minimize = a.minimize || a.capacity == 0;
  const plan::Bytes lower_bound = plan::LiveBytesLowerBound(cp.problem);

  auto result = [&] {
    TerminalProgress progress("solve");  // erased before the result is printed
    opts.progress = progress.Callback();
    return planner->run(cp.problem, opts);
  }();
  if (!result.ok()) {
    if (result.status().code() == ErrorCode::kDeadlineExceeded || result.status().code() == ErrorCode::kCancelled) {
      std::fprintf(stderr, "arenaplan solve: no plan within capacity %lld found in the time limit (not proven "
                   "infeasible): %s\n", static_cast<long long>(a.capacity), result.status().message().c_str());
      return kExitNoSolution;
    }
    return ReportError("solve", result.status());
  }
  const plan::PlanResult& r = *result;
  if (r.status == plan::PlanStatus::kInfeasible) {
    std::fprintf(stderr, "arenaplan solve: infeasible: proven that no plan fits under capacity %lld "
                 "(lower bound %lld)\n", static_cast<long long>(a.capacity),
                 static_cast<long long>(std::max(lower_bound, r.lower_bound)));
    if (a.format == "json") std::cout << report::JsonText(SolveJson(a, cp, r, lower_bound, false)) << "\n";
    return kExitNoSolution;
  }
  // Verified without the capacity, so that a plan above it (printed, exit 1) is checked too.
  plan::Problem unbounded = cp.problem;
  unbounded.capacity = 0;
  const plan::VerifyReport report = plan::VerifyPlan(unbounded, r.plan);
  const bool fits = a.capacity == 0 || r.plan.height <= a.capacity;
  if (!report.ok()) {
    return ReportError("solve", Internal("planner '" + r.planner + "' returned an invalid plan: " +
                                         report.errors[0].message));
  }

  std::string body = a.format == "json" ? report::JsonText(SolveJson(a, cp, r, lower_bound, fits)) + "\n"
                                        : plan::WriteCsv(cp.ids, cp.problem, r.plan);
  if (!body.empty() && body.back() != '\n') body += '\n';
  if (a.output.empty()) {
    std::cout << body;
  } else {
    std::ofstream out(a.output, std::ios::binary);
    out << body;
    if (!out) return ReportError("solve", InvalidArgument("cannot write '" + a.output + "'"));
  }
  // The one-line summary goes to stderr so that stdout stays a clean CSV / JSON document.
  const plan::Bytes lb = std::max(lower_bound, r.lower_bound);
  std::fprintf(stderr, "height %lld  lower bound %lld (%+.2f %%)  status %s  planner %s  %zu buffers  %.3f s%s\n",
               static_cast<long long>(r.plan.height), static_cast<long long>(lb),
               lb > 0 ? 100.0 * (r.plan.height - lb) / lb : 0.0, plan::PlanStatusName(r.status), r.planner.c_str(),
               cp.problem.buffers.size(), r.seconds,
               r.nodes ? ("  " + std::to_string(r.nodes) + " nodes").c_str() : "");
  if (!fits) {
    std::fprintf(stderr, "arenaplan solve: the best plan found (%lld) exceeds capacity %lld (not a proof)\n",
                 static_cast<long long>(r.plan.height), static_cast<long long>(a.capacity));
    return kExitNoSolution;
  }
  return kExitOk;
}

}  // namespace

void RegisterSolve(CLI::App& root, int& exit_code) {
  auto a = std::make_shared<SolveArgs>();
  auto* cmd = root.add_subcommand("solve", "Plan a generic problem in MiniMalloc's CSV format (id,lower,upper,size"
                                           "[,alignment][,offset]; upper exclusive) and write it back with offsets");
  cmd->add_option("PROBLEM", a->problem, "a problem .csv")->required();
  AddPlannerOption(*cmd, &a->planner, "the problem");
  cmd->add_option("--capacity", a->capacity, "bytes available; 0 = unbounded (then the height is minimised)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--time-limit", a->time_limit, "seconds for the whole solve: reading, planning (best: the portfolio; optimal: seed and search), verifying, writing")->check(CLI::NonNegativeNumber);
  cmd->add_flag("--minimize", a->minimize, "with --capacity: minimise the height instead of only fitting");
  cmd->add_option("--format", a->format, "csv or json")->check(CLI::IsMember({"csv", "json"}));
  cmd->add_option("-o,--output", a->output, "write the CSV / JSON here instead of stdout");
  cmd->callback([a, &exit_code] { exit_code = RunSolve(*a); });
}

}  // namespace arenaplan::cli
