#include "cli/planning.h"

#include "cli/progress.h"

#include "plan/lower_bound.h"
#include "plan/verify.h"
#include "tflm/arena_size.h"
#include "tflm/target.h"

namespace arenaplan::cli {

void AddPlanningOptions(CLI::App& cmd, PlanningArgs& args) {
  std::vector<std::string> names;
  std::string help = "planner:";
  for (const auto& p : plan::Planners()) {
    names.push_back(p.name);
    help += "\n  " + p.name + ": " + p.description;
  }
  cmd.add_option("--planner", args.planner, help)->check(CLI::IsMember(names));
  cmd.add_option("--alignment", args.alignment, "round buffer sizes up to this many bytes (TFLM: 16)")
      ->check(CLI::Range(1u, 4096u));
  cmd.add_option("--target", args.target,
                 "add the kernel scratch buffers stock TFLM requests on this target "
                 "(tflm-x86_64, tflm-arm32, tflm-cortex-m)");
  cmd.add_option("--time-limit", args.time_limit, "seconds for the planner (best: the whole portfolio; optimal: seed and search)")
      ->check(CLI::NonNegativeNumber);
}

report::PlannedModel PlannedModelData::View(const std::string& model, const std::string& planner,
                                            uint32_t alignment) const {
  report::PlannedModel v;
  v.model = model;
  v.planner = planner;
  v.alignment = alignment;
  v.lifetimes = &lifetimes;
  v.problem = &problem;
  v.result = &result;
  v.lower_bound = lower_bound;
  return v;
}

Result<std::unique_ptr<PlannedModelData>> PlanModel(const PlanningArgs& args) {
  auto out = std::make_unique<PlannedModelData>();
  auto loaded = LoadModel(args.model);
  if (!loaded.ok()) return loaded.status();
  out->loaded = std::move(loaded).value();
  const model::Model& m = out->loaded->model;

  lifetime::Options options;
  options.alignment = args.alignment;
  if (!args.target.empty()) {
    auto target = tflm::FindTarget(args.target);
    if (!target.ok()) return target.status();
    auto scratch = tflm::ScratchRequests(m, **target);
    if (!scratch.ok()) return Status(scratch.status().code(), args.model + ": " + scratch.status().message());
    options.scratch = std::move(scratch).value();
  }
  auto lifetimes = lifetime::ComputeLifetimes(m, options);
  if (!lifetimes.ok()) return Status(lifetimes.status().code(), args.model + ": " + lifetimes.status().message());
  out->lifetimes = std::move(lifetimes).value();
  out->problem = lifetime::ToProblem(out->lifetimes, args.alignment);
  out->lower_bound = plan::LiveBytesLowerBound(out->problem);

  const plan::PlannerEntry* planner = plan::FindPlanner(args.planner);
  if (!planner) return InvalidArgument("unknown planner '" + args.planner + "'");
  plan::PlannerOptions popts;
  popts.time_limit_seconds = args.time_limit;
  TerminalProgress progress("planning");  // erased before anything else is printed
  popts.progress = progress.Callback();
  auto result = planner->run(out->problem, popts);
  if (!result.ok()) return result.status();
  out->result = std::move(result).value();
  const plan::VerifyReport report = plan::VerifyPlan(out->problem, out->result.plan);
  if (!report.ok()) {
    return Internal("planner '" + out->result.planner + "' returned an invalid plan: " + report.errors[0].message);
  }
  return out;
}

}  // namespace arenaplan::cli
