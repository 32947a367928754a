#include "cli/planning.h"

#include <cstdio>

#include <CLI/CLI.hpp>

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

void AddTimeLimitOption(CLI::App& cmd, double* seconds, const std::string& help) {
  cmd.add_option("--time-limit", *seconds, help)->check(CLI::Range(0.0, plan::kMaxTimeLimitSeconds));
}

void AddPlanningOptions(CLI::App& cmd, PlanningArgs& args) {
  AddPlannerOption(cmd, &args.planner, "the tensors (and kernel scratch buffers with --target)");
  cmd.add_option("--alignment", args.alignment,
                 "round buffer sizes up to this many bytes (default: the target's; TFLM: 16)")
      ->check(CLI::Range(1u, 4096u));
  cmd.add_option("--target", args.target,
                 "add the kernel scratch buffers stock TFLM requests on this target "
                 "(tflm-x86_64, tflm-arm32, tflm-cortex-m)");
  AddTimeLimitOption(cmd, &args.time_limit,
                     "seconds for the planner (best: the whole portfolio; optimal: seed and search)");
  AddIoOptions(cmd, &args.io);
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

namespace {

// The lifetime options every planning command shares: alignment (--alignment, else the target's)
// and, with --target, the kernels' scratch requests (tflm::LifetimeOptionsFor).
Result<lifetime::Options> BaseOptions(const PlanningArgs& args, const model::Model& m, uint32_t* alignment) {
  lifetime::Options options;
  if (!args.target.empty()) {
    auto target = tflm::FindTarget(args.target);
    if (!target.ok()) return target.status();
    auto for_target = tflm::LifetimeOptionsFor(m, **target);
    if (!for_target.ok()) return Status(for_target.status().code(), args.model + ": " + for_target.status().message());
    options = std::move(for_target).value();
  }
  if (args.alignment != 0) options.alignment = args.alignment;
  if (args.target.empty() && args.alignment == 0) options.alignment = rules::kBufferAlignment;
  *alignment = options.alignment;
  return options;
}

// The model loaded, its base options and --external-io / --keep resolved: what LoadLifetimes and
// PlanModel both start from.
struct LoadedBase {
  std::unique_ptr<LoadedModel> loaded;
  lifetime::Options options;
  uint32_t alignment = 0;
  IoSelection io;
};

Status LoadBase(const PlanningArgs& args, LoadedBase* out) {
  auto loaded = LoadModel(args.model);
  if (!loaded.ok()) return loaded.status();
  out->loaded = std::move(loaded).value();
  const model::Model& m = out->loaded->model;
  // plan, report and export plan for stock TFLM's lifetimes: say so when the model is not for it.
  if (std::string note = tflm::IgnoredScheduleNote(m); !note.empty()) {
    std::fprintf(stderr, "arenaplan: note: %s: %s\n", args.model.c_str(), note.c_str());
  }
  auto options = BaseOptions(args, m, &out->alignment);
  if (!options.ok()) return options.status();
  out->options = std::move(options).value();
  auto io = ResolveIo(m, args.io);
  if (!io.ok()) return Status(io.status().code(), args.model + ": " + io.status().message());
  out->io = std::move(io).value();
  return Status::Ok();
}

// Lifetimes and the verified plan of the problem changed by `io`.
Status PlanWith(const PlanningArgs& args, const model::Model& m, lifetime::Options options, const IoSelection& io,
                PlannedModelData* out) {
  options.external_io = io.external_io;
  options.keep = io.keep;
  auto lifetimes = lifetime::ComputeLifetimes(m, options);
  if (!lifetimes.ok()) return Status(lifetimes.status().code(), args.model + ": " + lifetimes.status().message());
  out->lifetimes = std::move(lifetimes).value();
  out->problem = lifetime::ToProblem(out->lifetimes, out->alignment);
  out->lower_bound = plan::LiveBytesLowerBound(out->problem);

  plan::PlannerOptions popts;
  popts.time_limit_seconds = args.time_limit;
  TerminalProgress progress("planning");  // erased before anything else is printed
  popts.progress = progress.Callback();
  auto result = plan::PlanAndVerify(out->problem, args.planner, popts);
  if (!result.ok()) return result.status();
  out->result = std::move(result).value();
  return Status::Ok();
}

}  // namespace

Status LoadLifetimes(const PlanningArgs& args, bool use_offline_plan, ModelLifetimes* out) {
  LoadedBase base;
  ARENAPLAN_RETURN_IF_ERROR(LoadBase(args, &base));
  out->loaded = std::move(base.loaded);
  out->alignment = base.alignment;
  lifetime::Options& options = base.options;
  options.use_offline_plan = use_offline_plan;
  options.external_io = base.io.external_io;  // applied, its cost not measured (plan --region)
  options.keep = base.io.keep;
  auto lifetimes = lifetime::ComputeLifetimes(out->loaded->model, options);
  if (!lifetimes.ok()) return Status(lifetimes.status().code(), args.model + ": " + lifetimes.status().message());
  out->lifetimes = std::move(lifetimes).value();
  return Status::Ok();
}

Result<std::unique_ptr<PlannedModelData>> PlanModel(const PlanningArgs& args) {
  auto out = std::make_unique<PlannedModelData>();
  LoadedBase base;
  ARENAPLAN_RETURN_IF_ERROR(LoadBase(args, &base));
  out->loaded = std::move(base.loaded);
  out->alignment = base.alignment;
  const model::Model& m = out->loaded->model;
  const lifetime::Options& options = base.options;
  const IoSelection* io = &base.io;
  ARENAPLAN_RETURN_IF_ERROR(PlanWith(args, m, options, *io, out.get()));
  if (!args.io.any()) return out;

  const auto head_of = [&](const IoSelection& step) -> Result<uint64_t> {
    if (step.external_io == io->external_io && step.keep == io->keep) {
      return static_cast<uint64_t>(out->result.plan.height);
    }
    PlannedModelData variant;
    variant.alignment = out->alignment;
    ARENAPLAN_RETURN_IF_ERROR(PlanWith(args, m, options, step, &variant));
    return static_cast<uint64_t>(variant.result.plan.height);
  };
  auto costs = MeasureIoCosts(m, args.io, *io, out->lifetimes.external, head_of);
  if (!costs.ok()) return costs.status();
  out->io_costs = std::move(costs).value();
  return out;
}

}  // namespace arenaplan::cli
