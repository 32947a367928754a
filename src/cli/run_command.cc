// `arenaplan run MODEL`: runs a model in the embedded runtime (runtime/interpreter.h) on the host,
// in one arena: inputs from files or the golden generator, outputs to files, memory and timing
// (several models in one shared arena: run_models.cc; the pieces both use: running.h).
// Planning: tflm-greedy is the runtime's own online planner (TFLM's greedy, rules/greedy.h); any
// other planner runs on the host over the runtime's planning problem (copied out of a first
// AllocateTensors) through plan::PlanAndVerify, and the runtime gets the result as a
// CompiledPlan, which it checks again. Either way the plan the runtime uses is verified by
// plan/verify.h before anything is printed. A model's own offline plan always wins.
// --dump-tensors hooks cli/tensor_dump.h into the runtime's per-op callback (no arena cost).
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/io_options.h"
#include "cli/model_file.h"
#include "cli/planning.h"
#include "cli/run_io.h"
#include "cli/running.h"
#include "cli/tensor_dump.h"
#include "model/device_status.h"
#include "model/model.h"
#include "report/printable.h"
#include "runtime/interpreter.h"
#include "runtime/test_inputs.h"

namespace arenaplan::cli {
namespace {

// With --dump-tensors: the host view of the model (names, quantization) and the dumper, hooked
// into the interpreter's per-op callback.
struct Dump {
  model::Model model;
  std::unique_ptr<TensorDumper> dumper;
};

Result<std::unique_ptr<Dump>> StartDump(const RunArgs& a, const std::vector<uint8_t>& bytes,
                                        rt::InterpreterOptions* opts) {
  auto d = std::make_unique<Dump>();
  if (a.dump_tensors.empty()) return d;
  auto parsed = model::ReadModel(bytes.data(), bytes.size());
  if (!parsed.ok()) return Status(parsed.status().code(), a.models[0] + ": " + parsed.status().message());
  d->model = std::move(parsed).value();
  d->dumper = std::make_unique<TensorDumper>(a.dump_tensors, d->model);
  ARENAPLAN_RETURN_IF_ERROR(d->dumper->Prepare());
  opts->after_op = &TensorDumper::AfterOp;
  opts->after_op_user = d->dumper.get();
  return d;
}

// Writes the dump's index and compares it with --compare-with; fills `out` for the report and
// returns the exit code (1 when the dumps differ).
int FinishDump(const RunArgs& a, const std::string& planner, const Dump& d, nlohmann::json* out) {
  if (!d.dumper) return kExitOk;
  const Status written = d.dumper->WriteIndex({{"model", a.models[0]}, {"planner", planner}});
  if (!written.ok()) return ReportError("run", written);
  (*out)["dump"] = {{"dir", a.dump_tensors}, {"tensors", d.dumper->tensors()}};
  if (a.compare_with.empty()) return kExitOk;
  auto c = CompareDumps(a.dump_tensors, a.compare_with);
  if (!c.ok()) return ReportError("run", c.status());
  (*out)["compare"] = c->ToJson();
  (*out)["compare"]["with"] = a.compare_with;
  return c->differs ? kExitNoSolution : kExitOk;
}

void PrintDump(const nlohmann::json& j) {
  if (!j.contains("dump")) return;
  std::printf("dumped:           %zu tensors to %s\n", j["dump"]["tensors"].get<size_t>(),
              j["dump"]["dir"].get<std::string>().c_str());
  if (!j.contains("compare")) return;
  const nlohmann::json& c = j["compare"];
  if (c["differs"].get<bool>()) {
    std::printf("compare:          differs from %s at %s\n", c["with"].get<std::string>().c_str(),
                c["difference"].get<std::string>().c_str());
  } else {
    std::printf("compare:          identical to %s (%zu tensors compared, %zu only here, %zu only there)\n",
                c["with"].get<std::string>().c_str(), c["compared"].get<size_t>(), c["only_first"].get<size_t>(),
                c["only_second"].get<size_t>());
  }
}

Status MeasureRunIo(const RunArgs& a, const std::vector<uint8_t>& bytes, const std::string& planner,
                    const std::vector<uint32_t>& externals, RunIo* io) {
  if (!a.io.any()) return Status::Ok();
  auto parsed = model::ReadModel(bytes.data(), bytes.size());
  if (!parsed.ok()) return parsed.status();
  const auto head_of = [&](const IoSelection& step) -> Result<uint64_t> {
    RunPlan variant;
    ARENAPLAN_RETURN_IF_ERROR(SetUpPlan(bytes, Kernels(a), planner, step, &variant));
    uint32_t min_bytes = 0, head = 0;
    std::string error;
    const rt::StatusCode s = ProbeMinimum(bytes, Kernels(a), variant.options, &min_bytes, &error, &head);
    if (s != rt::StatusCode::kOk) return StatusOf(s, error.c_str());
    return uint64_t{head};
  };
  auto costs = MeasureIoCosts(*parsed, a.io, io->selection, externals, head_of);
  if (!costs.ok()) return costs.status();
  io->costs = std::move(costs).value();
  return Status::Ok();
}

// Invoke 0..N-1 on one interpreter without reset, so state carries over (stateful models); the
// files as InvokeFiles says. Returns an exit code on failure, -1 on success.
int InvokeAll(const RunArgs& a, rt::Interpreter& interp, TensorDumper* dumper, Invoked* r) {
  const InvokeFiles files{a.inputs_from.empty() ? "" : a.inputs_from[0], a.outputs_to.empty() ? "" : a.outputs_to[0]};
  for (uint32_t i = 0; i < a.invokes; ++i) {
    const int failed = InvokeOnce(a, files, i, interp, dumper, r);
    if (failed >= 0) return failed;
  }
  r->seconds /= a.invokes ? a.invokes : 1;
  return -1;
}

// `j` holds the dump and comparison (FinishDump), if any.
void PrintJson(const RunArgs& a, const std::string& planner, const rt::Interpreter& interp, size_t arena_bytes,
               uint32_t min_bytes, const Invoked& r, nlohmann::json j) {
  const rt::MemoryRecord& rec = interp.memory_record();
  j["model"] = a.models[0];
  j["planner"] = planner;
  j["kernels"] = a.kernels;
  j["plan_source"] = rec.plan_source;
  j["arena_bytes"] = arena_bytes;
  j["head_bytes"] = rec.head_bytes;
  j["tail_bytes"] = rec.tail_bytes;
  j["arena_used_bytes"] = interp.arena_used_bytes();
  j["min_arena_bytes"] = min_bytes;
  j["planned_buffers"] = rec.planned_buffers;
  j["scratch_requests"] = rec.scratch_requests;
  j["in_place_ops"] = rec.in_place_ops;
  j["stream_overlaps"] = rec.stream_overlaps;
  j["tail_breakdown"] = TailBreakdown(rec);
  j["planning_temp_bytes"] = rec.planning_temp_bytes;
  j["invokes"] = a.invokes;
  j["invoke_seconds"] = r.seconds;
  j["outputs"] = r.outputs;
  j["sequence"] = r.sequence;
  if (a.io.any()) j["external_table_bytes"] = rec.external_table_bytes;
  std::cout << report::JsonText(j) << "\n";
}

// `dump` holds the dump and comparison (FinishDump) and, with --external-io / --keep, "io" and "kept".
void PrintText(const RunArgs& a, const rt::Interpreter& interp, uint32_t min_bytes, const Invoked& r,
               const nlohmann::json& dump, const std::vector<IoCost>& costs) {
  const rt::MemoryRecord& rec = interp.memory_record();
  std::printf("model:            %s\n", a.models[0].c_str());
  std::printf("plan:             %s (%u buffers, %u scratch)\n", rec.plan_source, rec.planned_buffers,
              rec.scratch_requests);
  std::printf("head:             %u bytes\n", rec.head_bytes);
  // What an optimized model's schedule shared (optimize --for arenaplan); nothing for plain models.
  if (rec.in_place_ops > 0 || rec.stream_overlaps > 0) {
    std::printf("shared:           %u ops write over their input, %u stream segments over their input rows\n",
                rec.in_place_ops, rec.stream_overlaps);
  }
  std::printf("tail:             %u bytes (tables %u, op data %u, scratch table %u, variables %u)\n", rec.tail_bytes,
              rec.tensor_table_bytes + rec.kernel_table_bytes + rec.op_data_ptr_bytes + rec.subgraph_table_bytes +
                  rec.resource_table_bytes,
              rec.op_data_bytes, rec.scratch_table_bytes, rec.variable_bytes + rec.resource_bytes);
  std::printf("arena_used_bytes: %u\n", interp.arena_used_bytes());
  std::printf("smallest arena:   %u bytes (16-aligned start)\n", min_bytes);
  std::printf("invoke:           %.6f s (mean of %u)\n", r.seconds, a.invokes);
  PrintOutputLines(r.outputs, "");
  PrintDump(dump);
  if (dump.contains("io")) std::printf("%s", IoCostText(costs).c_str());
  if (dump.contains("kept")) PrintKept(dump["kept"]);
}

int RunOne(const RunArgs& a) {
  std::vector<uint8_t> model;
  const int loaded = LoadModel(a, a.models[0], &model);
  if (loaded >= 0) return loaded;
  const std::string planner = plan::FindPlanner(a.planner)->name;  // the option accepts registry names only
  RunIo io;
  const Status resolved = ResolveRunIo(a, model, &io);
  if (!resolved.ok()) return ReportError("run", resolved);
  RunPlan plan;
  const Status set_up = SetUpPlan(model, Kernels(a), planner, io.selection, &plan);
  if (!set_up.ok()) return ReportError("run", set_up);
  uint32_t min_bytes = 0;
  size_t arena_bytes = a.arena_bytes;
  if (arena_bytes == 0) {
    std::string error;
    const rt::StatusCode s = ProbeMinimum(model, Kernels(a), plan.options, &min_bytes, &error);
    if (s != rt::StatusCode::kOk) return RunFail(s, error);
    arena_bytes = min_bytes;
  }
  auto dump = StartDump(a, model, &plan.options);  // after the probes: the callback never touches the arena
  if (!dump.ok()) return ReportError("run", dump.status());
  AlignedBytes arena(arena_bytes);
  rt::Interpreter interp(model.data(), model.size(), Kernels(a), arena.data(), arena.size(), plan.options);
  const rt::StatusCode s = interp.AllocateTensors();
  if (s != rt::StatusCode::kOk) return RunFail(s, interp.error_message());
  const Status verified = VerifyRecorded(*plan.recorded);
  if (!verified.ok()) return ReportError("run", verified);
  std::vector<uint32_t> externals;
  const rt::StatusCode bound = BindOwnBuffers(interp, &io, &externals);
  if (bound != rt::StatusCode::kOk) return RunFail(bound, interp.error_message());
  const Status measured = MeasureRunIo(a, model, planner, externals, &io);
  if (!measured.ok()) return ReportError("run", measured);
  Invoked r;
  const int failed = InvokeAll(a, interp, (*dump)->dumper.get(), &r);
  if (failed >= 0) return failed;
  if (min_bytes == 0) min_bytes = interp.memory_record().min_arena_bytes;
  nlohmann::json dumped;
  const int code = FinishDump(a, planner, **dump, &dumped);
  if (code == kExitBadInput) return code;  // reported; 1 (the dumps differ) still prints the run
  if (a.io.any()) {
    dumped["io"] = IoCostJson(io.costs);
    dumped["kept"] = KeptJson(interp, io);
  }
  if (a.format == "json") {
    PrintJson(a, planner, interp, arena_bytes, min_bytes, r, std::move(dumped));
  } else {
    PrintText(a, interp, min_bytes, r, dumped, io.costs);
  }
  return code;
}

// Options given once per model must be given for each model or not at all.
int Run(const RunArgs& a) {
  const size_t n = a.models.size();
  for (const auto& [name, values] : {std::pair{"--inputs-from", &a.inputs_from}, {"--outputs-to", &a.outputs_to}}) {
    if (values->empty() || values->size() == n) continue;
    return RunFail(std::string(name) + " given " + std::to_string(values->size()) + " times for " + std::to_string(n) +
                       " models: give one prefix per model, in the models' order",
                   kExitBadInput);
  }
  if (!a.regions.empty()) return RunRegions(a);
  if (n == 1) return RunOne(a);
  if (!a.dump_tensors.empty())
    return RunFail("--dump-tensors takes one model (" + std::to_string(n) + " given)", kExitBadInput);
  if (a.io.any())
    return RunFail("--external-io / --keep take one model (" + std::to_string(n) + " given)", kExitBadInput);
  return RunModels(a);
}

}  // namespace

void RegisterRun(CLI::App& root, int& exit_code) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd = root.add_subcommand("run",
                                  "Run a model in arenaplan's embedded runtime (one arena, no heap): "
                                  "outputs, head/tail, smallest working arena, time per Invoke");
  cmd->add_option("MODEL", args->models,
                  "a .tflite file; several: all in one arena (heads overlaid, tails stacked in this order), "
                  "run in turn")
      ->required();
  cmd->add_option("--inputs-from", args->inputs_from,
                  "read input k from PREFIX.in<k>.bin (default: the golden deterministic generator, seed 0); "
                  "several models: once per model, in order")
      ->allow_extra_args(false);
  cmd->add_option("--outputs-to", args->outputs_to,
                  "write output k to PREFIX.out<k>.bin (Invoke i >= 1: PREFIX.seq<i>.out<k>.bin); several models: "
                  "once per model, in order")
      ->allow_extra_args(false);
  cmd->add_option("--arena-bytes", args->arena_bytes,
                  "arena size, shared by all models (default: the smallest working arena)")
      ->check(CLI::Range(uint64_t{1}, uint64_t{0xFFFFFFF0u}));
  AddPlannerOption(*cmd, &args->planner,
                   "the head when the model has no offline plan (tflm-greedy: the runtime's own; others plan "
                   "on the host and compile the plan in)");
  cmd->add_option("--kernels", args->kernels,
                  "portable (default), or dsp: the Cortex-M DSP-extension int8 kernels, emulated exactly here "
                  "(same outputs; the arena includes their scratch, as on the device)")
      ->check(CLI::IsMember({"portable", "dsp"}));
  cmd->add_option("--invokes", args->invokes,
                  "Invokes on one interpreter (default 1); Invoke i gets inputs of seed i, state carries over; "
                  "several models: N rounds, each model once per round, in order")
      ->check(CLI::Range(1u, 1000000u));
  cmd->add_option("--dump-tensors", args->dump_tensors,
                  "write every op's output tensors of Invoke 0 to DIR/<op>_<tensor>.bin, with DIR/index.json "
                  "(dtype, shape, quantization); one model only");
  cmd->add_option("--compare-with", args->compare_with,
                  "compare the new dump with this one: the first tensor that differs (exit 1), or identical")
      ->needs("--dump-tensors");
  cmd->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_flag("--optimize", args->optimize, "rewrite the model for the runtime first (as optimize --for arenaplan)");
  AddIoOptions(*cmd, &args->io);
  cmd->add_option("--region", args->regions,
                  "NAME:BYTES[:COST] (repeat): place the runtime's planned buffers over these memories "
                  "(plan --region's planner), the first in the main arena's head, each other in a buffer of its "
                  "own; one model")
      ->allow_extra_args(false);
  cmd->callback([args, &exit_code] { exit_code = Run(*args); });
}

}  // namespace arenaplan::cli
