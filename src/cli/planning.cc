#include "cli/planning.h"

#include "cli/progress.h"

#include "plan/lower_bound.h"
#include "plan/plan_and_verify.h"
#include "rules/limits.h"
#include "tflm/arena_size.h"
#include "tflm/target.h"

namespace arenaplan::cli {

void AddPlannerOption(CLI::App& cmd, std::string* planner, const std::string& what) {
  std::vector<std::string> names;
  std::string help = "planner for " + what + " (default " + *planner + "):";
  for (const auto& p : plan::Planners()) {
    names.push_back(p.name);
    help += "\n  " + p.name + ": " + p.description;
  }
  for (const auto& a : plan::PlannerAliases()) {
    names.push_back(a.alias);
    help += "\n  " + a.alias + ": old name of " + a.planner;
  }
  cmd.add_option("--planner", *planner, help)->check(CLI::IsMember(names));
}

void AddPlanningOptions(CLI::App& cmd, PlanningArgs& args) {
  AddPlannerOption(cmd, &args.planner, "the tensors (and kernel scratch buffers with --target)");
  cmd.add_option("--alignment", args.alignment,
                 "round buffer sizes up to this many bytes (default: the target's; TFLM: 16)")
      ->check(CLI::Range(1u, 4096u));
  cmd.add_option("--target", args.target,
                 "add the kernel scratch buffers stock TFLM requests on this target "
                 "(tflm-x86_64, tflm-arm32, tflm-cortex-m)");
  cmd.add_option("--time-limit", args.time_limit,
                 "seconds for the planner (best: the whole portfolio; optimal: seed and search)")
      ->check(CLI::NonNegativeNumber);
}

report::PlannedModel PlannedModelData::View(const std::string& model, const std::string& planner) const {
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

Status LoadLifetimes(const PlanningArgs& args, bool use_offline_plan, ModelLifetimes* out) {
  auto loaded = LoadModel(args.model);
  if (!loaded.ok()) return loaded.status();
  out->loaded = std::move(loaded).value();
  const model::Model& m = out->loaded->model;

  lifetime::Options options;
  options.use_offline_plan = use_offline_plan;
  out->alignment = args.alignment != 0 ? args.alignment : rules::kBufferAlignment;
  if (!args.target.empty()) {
    auto target = tflm::FindTarget(args.target);
    if (!target.ok()) return target.status();
    if (args.alignment == 0) out->alignment = (*target)->buffer_alignment;
    auto scratch = tflm::ScratchRequests(m, **target);
    if (!scratch.ok()) return Status(scratch.status().code(), args.model + ": " + scratch.status().message());
    options.scratch = std::move(scratch).value();
  }
  options.alignment = out->alignment;
  auto lifetimes = lifetime::ComputeLifetimes(m, options);
  if (!lifetimes.ok()) return Status(lifetimes.status().code(), args.model + ": " + lifetimes.status().message());
  out->lifetimes = std::move(lifetimes).value();
  return Status::Ok();
}

Result<std::unique_ptr<PlannedModelData>> PlanModel(const PlanningArgs& args) {
  auto out = std::make_unique<PlannedModelData>();
  ModelLifetimes ml;
  ARENAPLAN_RETURN_IF_ERROR(LoadLifetimes(args, true, &ml));
  out->loaded = std::move(ml.loaded);
  out->lifetimes = std::move(ml.lifetimes);
  out->alignment = ml.alignment;
  out->problem = lifetime::ToProblem(out->lifetimes, out->alignment);
  out->lower_bound = plan::LiveBytesLowerBound(out->problem);

  plan::PlannerOptions popts;
  popts.time_limit_seconds = args.time_limit;
  TerminalProgress progress("planning");  // erased before anything else is printed
  popts.progress = progress.Callback();
  auto result = plan::PlanAndVerify(out->problem, args.planner, popts);
  if (!result.ok()) return result.status();
  out->result = std::move(result).value();
  return out;
}

}  // namespace arenaplan::cli
