#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/model_file.h"
#include "cli/planning.h"
#include "report/plan_report.h"
#include "report/printable.h"

namespace arenaplan::cli {

void RegisterPlan(CLI::App& root, int& exit_code) {
  auto args = std::make_shared<PlanningArgs>();
  auto fmt = std::make_shared<std::string>("text");
  auto* cmd = root.add_subcommand("plan",
                                  "Compute TFLM-exact lifetimes, plan the arena, verify the plan, and "
                                  "print it with its lower bound and a timeline");
  cmd->add_option("MODEL", args->model, "a .tflite file")->required();
  AddPlanningOptions(*cmd, *args);
  cmd->add_option("--format", *fmt, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->callback([args, fmt, &exit_code] {
    auto planned = PlanModel(*args);
    if (!planned.ok()) {
      exit_code = ReportError("plan", planned.status());
      return;
    }
    const PlannedModelData& pm = **planned;
    report::PlannedModel view = pm.View(args->model, args->planner);
    if (*fmt == "json") {
      nlohmann::json j = report::PlanToJson(view);
      if (args->io.any()) j["io"] = IoCostJson(pm.io_costs);
      std::cout << report::JsonText(j) << "\n";
    } else {
      std::cout << report::PlanToText(view);
      if (args->io.any()) std::cout << "\n" << IoCostText(pm.io_costs);
    }
    exit_code = kExitOk;
  });
}

}  // namespace arenaplan::cli
