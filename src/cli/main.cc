// arenaplan: plan the tensor arena of .tflite models. Argument parsing and wiring only.
#include <cstdio>

#include <CLI/CLI.hpp>

#include "cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{
      "arenaplan: read .tflite models, compute TFLM-exact buffer lifetimes, plan the tensor "
      "arena with several planners, prove every plan valid, and run models in one arena."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "arenaplan 0.1.0");
  int exit_code = arenaplan::cli::kExitOk;
  arenaplan::cli::RegisterInspect(app, exit_code);
  arenaplan::cli::RegisterPlan(app, exit_code);
  arenaplan::cli::RegisterSolve(app, exit_code);
  arenaplan::cli::RegisterSize(app, exit_code);
  arenaplan::cli::RegisterExport(app, exit_code);
  arenaplan::cli::RegisterRun(app, exit_code);
  arenaplan::cli::RegisterReport(app, exit_code);
  arenaplan::cli::RegisterDemo(app, exit_code);
  arenaplan::cli::RegisterOptimize(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : arenaplan::cli::kExitBadInput;
  }
  return exit_code;
}
