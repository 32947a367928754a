#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "cli/model_file.h"
#include "report/inspect_report.h"
#include "report/printable.h"

namespace arenaplan::cli {

void RegisterInspect(CLI::App& root, int& exit_code) {
  struct Args {
    std::string model;
    std::string format = "text";
  };
  auto args = std::make_shared<Args>();
  auto* cmd = root.add_subcommand("inspect",
                                  "Show subgraphs, tensors, operators, metadata and the offline plan "
                                  "of a model, and what a static planner cannot handle");
  cmd->add_option("MODEL", args->model, "a .tflite file")->required();
  cmd->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->callback([args, &exit_code] {
    auto loaded = LoadModel(args->model);
    if (!loaded.ok()) {
      exit_code = ReportError("inspect", loaded.status());
      return;
    }
    const report::InspectedModel in = report::Inspect(args->model, (*loaded)->model);
    if (args->format == "json") {
      std::cout << report::JsonText(report::InspectToJson(in)) << "\n";
    } else {
      std::cout << report::InspectToText(in);
    }
    exit_code = kExitOk;
  });
}

}  // namespace arenaplan::cli
