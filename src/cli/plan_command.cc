#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "cli/model_file.h"
#include "cli/planning.h"
#include "cli/regions.h"
#include "report/plan_report.h"
#include "report/printable.h"
#include "report/region_report.h"

namespace arenaplan::cli {
namespace {

// plan --region ...: one region per buffer; exit 1 with the shortfall when nothing fits.
int PlanRegionsCommand(const PlanningArgs& args, const std::vector<std::string>& specs, const std::string& fmt) {
  auto planned = PlanModelRegions(args, specs);
  if (!planned.ok()) return ReportError("plan", planned.status());
  const RegionPlannedData& d = **planned;
  if (!d.result.fits) return ReportError("plan", Infeasible(RegionShortfallMessage(d)));
  report::RegionPlannedModel view{args.model, d.alignment, &d.lifetimes, &d.problem, &d.result, d.offline_plan_ignored};
  if (fmt == "json") {
    std::cout << report::JsonText(report::RegionPlanToJson(view)) << "\n";
  } else {
    std::cout << report::RegionPlanToText(view);
  }
  return kExitOk;
}

}  // namespace

void RegisterPlan(CLI::App& root, int& exit_code) {
  auto args = std::make_shared<PlanningArgs>();
  auto fmt = std::make_shared<std::string>("text");
  auto* cmd = root.add_subcommand("plan",
                                  "Compute TFLM-exact lifetimes, plan the arena, verify the plan, and "
                                  "print it with its lower bound and a timeline");
  cmd->add_option("MODEL", args->model, "a .tflite file")->required();
  AddPlanningOptions(*cmd, *args);
  auto regions = std::make_shared<std::vector<std::string>>();
  cmd->add_option("--region", *regions,
                  "NAME:BYTES[:COST], repeatable: place every buffer in one of several memories (BYTES with "
                  "K/M/G, binary; COST per byte accessed, default 1) minimising traffic x cost; --planner is "
                  "not used (each region is packed by best-fit and the exact solver)")
      ->take_all()
      ->allow_extra_args(false);
  cmd->add_option("--format", *fmt, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->callback([args, fmt, regions, &exit_code] {
    if (!regions->empty()) {
      exit_code = PlanRegionsCommand(*args, *regions, *fmt);
      return;
    }
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
