// The planner option every command shares, and the pipeline behind `plan`: load, lifetimes,
// problem, then plan::PlanAndVerify (the one plan-and-verify path of plan, size, export and run).
#pragma once

#include <memory>
#include <string>

#include "cli/cli11_fwd.h"

#include "cli/io_options.h"
#include "cli/model_file.h"
#include "lifetime/lifetimes.h"
#include "plan/planner.h"
#include "report/plan_report.h"

namespace arenaplan::cli {

struct PlanningArgs {
  std::string model;
  std::string planner = "best";
  uint32_t alignment = 0;  // 0: the target's (TFLM's 16 without --target)
  std::string target;      // empty: tensors only; else a TFLM target adds kernel scratch buffers
  double time_limit = 0;   // seconds for exact search; 0 = planner default
  IoArgs io;               // --external-io, --keep
};

// --planner NAME, one of the registry's planners or aliases (anything else is refused with the list);
// `what` says what is planned.
void AddPlannerOption(CLI::App& cmd, std::string* planner, const std::string& what);

void AddPlanningOptions(CLI::App& cmd, PlanningArgs& args);
// --time-limit SECONDS: 0 (the planner's default) up to plan::kMaxTimeLimitSeconds.
void AddTimeLimitOption(CLI::App& cmd, double* seconds, const std::string& help);

struct ModelLifetimes {
  std::unique_ptr<LoadedModel> loaded;
  lifetime::Lifetimes lifetimes;
  uint32_t alignment = 0;  // the one used: --alignment, else the target's
};

// Load the model, add the target's kernel scratch requests, compute the lifetimes (with or
// without the model's offline plan, with --external-io / --keep applied); used by PlanModelRegions.
Status LoadLifetimes(const PlanningArgs& args, bool use_offline_plan, ModelLifetimes* out);

struct PlannedModelData {
  std::unique_ptr<LoadedModel> loaded;
  lifetime::Lifetimes lifetimes;
  plan::Problem problem;
  plan::PlanResult result;
  plan::Bytes lower_bound = 0;
  uint32_t alignment = 0;        // the one used: --alignment, else the target's
  std::vector<IoCost> io_costs;  // with --external-io / --keep: each option's change of the head

  report::PlannedModel View(const std::string& model, const std::string& planner) const;
};

// Every plan returned here has passed VerifyPlan; a plan that fails it is an internal error.
// With --external-io / --keep the plan is of the changed problem, and the problem is also planned
// without them (and with external I/O alone) for io_costs: up to three plans.
Result<std::unique_ptr<PlannedModelData>> PlanModel(const PlanningArgs& args);

}  // namespace arenaplan::cli
