// `arenaplan solve`: plan a generic problem in MiniMalloc's CSV format.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/model_file.h"
#include "cli/planning.h"
#include "cli/progress.h"
#include "cli/solving.h"
#include "plan/csv.h"
#include "report/html_report.h"
#include "report/printable.h"

namespace arenaplan::cli {
namespace {

// The command's own options beside the pipeline's (cli/solving.h).
struct SolveCommandArgs : SolveArgs {
  std::string format = "csv";
  std::string output;  // empty: stdout
  std::string report;  // also write the HTML report here
};

Status WriteReport(const SolveCommandArgs& a, const nlohmann::json& doc) {
  report::ReportEntry entry;
  entry.name = a.problem;
  entry.plans.push_back(doc);
  return WriteTextFile(a.report, report::RenderHtmlReport({entry}));
}

int RunSolve(const SolveCommandArgs& a) {
  const auto start = std::chrono::steady_clock::now();
  auto csv = plan::ReadCsvFile(a.problem);
  if (!csv.ok()) return ReportError("solve", csv.status());
  const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  auto solved = [&] {
    TerminalProgress progress("solve");  // erased before the result is printed
    SolveArgs args = a;
    args.document = a.format == "json" || !a.report.empty();
    return SolveProblem(args, *csv, spent, progress.Callback());
  }();
  if (!solved.ok()) return ReportError("solve", solved.status());
  const SolveOutcome& o = *solved;
  const plan::PlanResult& r = o.result;
  if (o.infeasible) {
    std::fprintf(stderr, "arenaplan solve: %s\n", InfeasibleMessage(a, o).c_str());
    if (a.format == "json") std::cout << report::JsonText(o.doc) << "\n";
    return kExitNoSolution;
  }
  std::string body = a.format == "json" ? report::JsonText(o.doc) + "\n"
                                        : plan::WriteCsv(csv->ids, csv->problem, r.plan);
  if (!body.empty() && body.back() != '\n') body += '\n';
  if (a.output.empty()) {
    std::cout << body;
  } else {
    std::ofstream out(a.output, std::ios::binary);
    out << body;
    if (!out) return ReportError("solve", InvalidArgument("cannot write '" + a.output + "'"));
  }
  if (!a.report.empty() && o.fits) {
    const Status written = WriteReport(a, o.doc);
    if (!written.ok()) return ReportError("solve", written);
  }
  // The one-line summary goes to stderr so that stdout stays a clean CSV / JSON document.
  const plan::Bytes lb = o.lower_bound;
  std::fprintf(stderr, "height %lld  lower bound %lld (%+.2f %%)  status %s  planner %s  %zu buffers  %.3f s%s\n",
               static_cast<long long>(r.plan.height), static_cast<long long>(lb),
               lb > 0 ? 100.0 * (r.plan.height - lb) / lb : 0.0, plan::PlanStatusName(r.status), r.planner.c_str(),
               csv->problem.buffers.size(), r.seconds,
               r.nodes ? ("  " + std::to_string(r.nodes) + " nodes").c_str() : "");
  if (!o.fits) {
    std::fprintf(stderr, "arenaplan solve: %s\n", OverCapacityMessage(a, o).c_str());
    return kExitNoSolution;
  }
  return kExitOk;
}

}  // namespace

void RegisterSolve(CLI::App& root, int& exit_code) {
  auto a = std::make_shared<SolveCommandArgs>();
  auto* cmd = root.add_subcommand("solve",
                                  "Plan a generic problem in MiniMalloc's CSV format (id,lower,upper,size"
                                  "[,alignment][,offset]; upper exclusive) and write it back with offsets");
  cmd->add_option("PROBLEM", a->problem, "a problem .csv")->required();
  AddPlannerOption(*cmd, &a->planner, "the problem");
  cmd->add_option("--capacity", a->capacity, "bytes available; 0 = unbounded (then the height is minimised)")
      ->check(CLI::NonNegativeNumber);
  AddTimeLimitOption(*cmd, &a->time_limit,
                     "seconds for the whole solve: reading, planning (best: the portfolio; optimal: seed and "
                     "search), verifying, writing");
  cmd->add_flag("--minimize", a->minimize, "with --capacity: minimise the height instead of only fitting");
  cmd->add_flag("--work-time", a->work_time,
                "optimal only: count --time-limit in search steps (a microsecond each) instead of wall time, so "
                "the same problem gets the same plan and answer on every machine");
  cmd->add_option("--threads", a->threads,
                  "threads of the exact search (optimal, also within best): 2 races each decision near a perfect "
                  "packing against its mirror image in time; 0 = 2 where the machine has two cores (default 0)");
  cmd->add_option("--format", a->format, "csv or json")->check(CLI::IsMember({"csv", "json"}));
  cmd->add_option("-o,--output", a->output, "write the CSV / JSON here instead of stdout");
  cmd->add_option("--report", a->report, "also write the interactive HTML report of the plan (see `report`)");
  cmd->callback([a, &exit_code] { exit_code = RunSolve(*a); });
}

}  // namespace arenaplan::cli
