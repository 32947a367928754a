// Each subcommand lives in its own file and registers itself on the root app. The callback stores
// the process exit code: 0 success, 1 no solution / unsupported, 2 bad input or usage.
#pragma once

#include "cli/cli11_fwd.h"

namespace arenaplan::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitNoSolution = 1;
inline constexpr int kExitBadInput = 2;

void RegisterInspect(CLI::App& root, int& exit_code);   // inspect_command.cc
void RegisterPlan(CLI::App& root, int& exit_code);      // plan_command.cc
void RegisterSolve(CLI::App& root, int& exit_code);     // solve_command.cc
void RegisterSize(CLI::App& root, int& exit_code);      // size_command.cc   (TFLM arena size)
void RegisterExport(CLI::App& root, int& exit_code);    // export_command.cc (offline plan / C header)
void RegisterRun(CLI::App& root, int& exit_code);       // run_command.cc    (embedded runtime on host)
void RegisterReport(CLI::App& root, int& exit_code);    // report_command.cc  (HTML report / SVG timeline)
void RegisterDemo(CLI::App& root, int& exit_code);      // demo_command.cc   (writes the example model)
void RegisterOptimize(CLI::App& root, int& exit_code);  // optimize_command.cc (rewrites for a smaller arena)

}  // namespace arenaplan::cli
