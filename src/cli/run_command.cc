// `arenaplan run MODEL`: runs a model in the embedded runtime (runtime/interpreter.h) on the host,
// in one arena: inputs from files or the golden generator, outputs to files, memory and timing.
// Planning: tflm-greedy is the runtime's own online planner (TFLM's greedy, rules/greedy.h); any
// other planner runs on the host over the runtime's planning problem (copied out of a first
// AllocateTensors) through plan::PlanAndVerify, and the runtime gets the result as a
// CompiledPlan, which it checks again. Either way the plan the runtime uses is verified by
// plan/verify.h before anything is printed. A model's own offline plan always wins.
// --dump-tensors hooks cli/tensor_dump.h into the runtime's per-op callback (no arena cost).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/io_options.h"
#include "cli/model_file.h"
#include "cli/planning.h"
#include "cli/tensor_dump.h"
#include "graph/runtime_evaluator.h"
#include "model/device_status.h"
#include "plan/plan_and_verify.h"
#include "plan/verify.h"
#include "report/printable.h"
#include "rules/limits.h"
#include "runtime/interpreter.h"
#include "runtime/kernels/dsp/registrations.h"
#include "runtime/test_inputs.h"

namespace arenaplan::cli {
namespace {

struct RunArgs {
  std::string model;
  std::string inputs_from;
  std::string outputs_to;
  uint64_t arena_bytes = 0;  // 0 = find the smallest working arena first
  std::string planner = "tflm-greedy";
  std::string kernels = "portable";
  std::string format = "text";
  uint32_t invokes = 1;
  std::string dump_tensors;  // folder for every op's outputs (Invoke 0)
  std::string compare_with;  // a second dump to compare the new one with
  bool optimize = false;     // rewrite for the runtime first (graph/optimize.h)
  IoArgs io;                 // --external-io, --keep
};

// An owned arena whose start is 16-aligned.
struct ArenaBuffer {
  explicit ArenaBuffer(size_t bytes) : storage(bytes + 16) {
    data = storage.data() + (16 - reinterpret_cast<uintptr_t>(storage.data()) % 16) % 16;
    size = bytes;
  }
  std::vector<uint8_t> storage;
  uint8_t* data;
  size_t size;
};

std::string ShapeString(const rt::TensorView& t) {
  std::string s = "[";
  for (int32_t i = 0; i < t.rank; ++i) s += (i ? "," : "") + std::to_string(t.dims[i]);
  return s + "]";
}

std::vector<int32_t> Shape(const rt::TensorView& t) { return std::vector<int32_t>(t.dims, t.dims + t.rank); }

int Fail(const std::string& message, int code) {
  std::fprintf(stderr, "arenaplan run: %s\n", report::Printable(message).c_str());
  return code;
}

int Fail(rt::StatusCode s, const std::string& message) {
  return Fail(message, ErrorCodeOf(s) == ErrorCode::kInvalidArgument ? kExitBadInput : kExitNoSolution);
}

// The runtime's planning problem and plan as AllocateTensors leaves them (rt::PlanCopy).
struct RecordedPlan {
  std::vector<rt::PlanBuffer> problem = std::vector<rt::PlanBuffer>(rules::kMaxPlanBuffers);
  std::vector<int32_t> offsets = std::vector<int32_t>(rules::kMaxPlanBuffers);
  rt::PlanCopy copy{problem.data(), offsets.data(), rules::kMaxPlanBuffers, 0};
};

// The recorded buffers as a plain problem; zero-byte buffers (which occupy nothing) are left out,
// `index[i]` is the problem buffer of runtime buffer i or -1.
plan::Problem ToProblem(const RecordedPlan& r, std::vector<int64_t>* index) {
  plan::Problem problem;
  index->assign(r.copy.count, -1);
  for (uint32_t i = 0; i < r.copy.count; ++i) {
    const rt::PlanBuffer& b = r.problem[i];
    if (b.size == 0) continue;
    plan::Buffer buffer;
    buffer.size = b.size;
    buffer.first = b.first;
    buffer.last = std::max(b.first, b.last);
    buffer.fixed_offset = b.offset != rules::kOnline ? b.offset : plan::kUnfixed;
    // Offline offsets are used as given, aligned or not (as TFLM does).
    buffer.alignment = buffer.fixed() && b.offset % rules::kBufferAlignment != 0 ? 1 : rules::kBufferAlignment;
    (*index)[i] = static_cast<int64_t>(problem.buffers.size());
    problem.buffers.push_back(buffer);
  }
  return problem;
}

// The plan the runtime uses, checked by the independent verifier.
Status VerifyRecorded(const RecordedPlan& r) {
  std::vector<int64_t> index;
  const plan::Problem problem = ToProblem(r, &index);
  plan::Plan plan;
  plan.offsets.assign(problem.buffers.size(), 0);
  for (uint32_t i = 0; i < r.copy.count; ++i) {
    if (index[i] >= 0) plan.offsets[static_cast<size_t>(index[i])] = r.offsets[i];
  }
  plan.height = plan::PlanHeight(problem, plan.offsets);
  const plan::VerifyReport report = plan::VerifyPlan(problem, plan);
  if (report.ok()) return Status::Ok();
  return Internal("the runtime's plan does not verify: " + report.errors.front().message);
}

// The runtime's problem planned on the host by `planner`, as one offset per runtime buffer.
Result<std::vector<int32_t>> HostPlan(const RecordedPlan& r, const std::string& planner, uint32_t* head) {
  std::vector<int64_t> index;
  const plan::Problem problem = ToProblem(r, &index);
  auto planned = plan::PlanAndVerify(problem, planner);
  if (!planned.ok()) return planned.status();
  if (planned->plan.height > int64_t{rules::kMaxBufferBytes}) return Unsupported("the plan needs more than 2 GiB");
  std::vector<int32_t> offsets(r.copy.count, 0);
  for (uint32_t i = 0; i < r.copy.count; ++i) {
    if (index[i] >= 0) offsets[i] = static_cast<int32_t>(planned->plan.offsets[static_cast<size_t>(index[i])]);
  }
  *head = static_cast<uint32_t>(planned->plan.height);
  return offsets;
}

const rt::OpResolver& Kernels(const RunArgs& a) {
  return a.kernels == "dsp" ? rt::DspOpsResolver() : rt::AllOpsResolver();
}

// Smallest working arena, found by one AllocateTensors on a big arena (the runtime's figure is exact);
// *head (optional) gets the head.
rt::StatusCode ProbeMinimum(const std::vector<uint8_t>& model, const rt::OpResolver& kernels,
                            const rt::InterpreterOptions& opts, uint32_t* min_bytes, std::string* error,
                            uint32_t* head = nullptr) {
  for (size_t bytes = size_t{16} << 20;; bytes *= 4) {
    ArenaBuffer arena(bytes);
    rt::Interpreter interp(model.data(), model.size(), kernels, arena.data, arena.size, opts);
    const rt::StatusCode s = interp.AllocateTensors();
    if (s == rt::StatusCode::kOk) {
      *min_bytes = interp.memory_record().min_arena_bytes;
      if (head != nullptr) *head = interp.memory_record().head_bytes;
      return s;
    }
    if (s != rt::StatusCode::kArenaFull || bytes >= (size_t{1} << 32)) {
      *error = interp.error_message();
      return s;
    }
  }
}

// How the runtime plans: its own online planner, or (planner != tflm-greedy) the host's plan of
// the runtime's problem, recorded by a first AllocateTensors, compiled in.
struct RunPlan {
  std::unique_ptr<RecordedPlan> recorded = std::make_unique<RecordedPlan>();
  std::vector<int32_t> host_offsets;
  rt::CompiledPlan compiled{nullptr, 0, 0};
  rt::InterpreterOptions options;
};

// `io` must outlive the interpreter (the options point at its kept tensors).
Status SetUpPlan(const std::vector<uint8_t>& model, const rt::OpResolver& kernels, const std::string& planner,
                 const IoSelection& io, RunPlan* p) {
  p->options.planner = rt::PlannerKind::kTflmGreedy;
  p->options.external_io = io.external_io;
  p->options.keep_tensors = io.keep.data();
  p->options.num_keep_tensors = static_cast<uint32_t>(io.keep.size());
  p->options.plan_copy = &p->recorded->copy;
  if (planner == "tflm-greedy") return Status::Ok();
  uint32_t min_bytes = 0;
  std::string error;
  const rt::StatusCode s = ProbeMinimum(model, kernels, p->options, &min_bytes, &error);
  if (s != rt::StatusCode::kOk) return StatusOf(s, error.c_str());
  auto offsets = HostPlan(*p->recorded, planner, &p->compiled.head_bytes);
  if (!offsets.ok()) return offsets.status();
  p->host_offsets = std::move(*offsets);
  p->compiled.offsets = p->host_offsets.data();
  p->compiled.count = static_cast<uint32_t>(p->host_offsets.size());
  p->options.compiled_plan = &p->compiled;  // ignored when the model has an offline plan
  return Status::Ok();
}

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
  if (!parsed.ok()) return Status(parsed.status().code(), a.model + ": " + parsed.status().message());
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
  const Status written = d.dumper->WriteIndex({{"model", a.model}, {"planner", planner}});
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

// --external-io / --keep: the tensors named, and each option's change of the runtime's head (the
// same planner, each variant planned and allocated once on a probe arena).
struct RunIo {
  IoSelection selection;
  std::vector<IoCost> costs;
  std::vector<std::unique_ptr<ArenaBuffer>> buffers;  // the CLI's own buffers for external tensors
};

Status ResolveRunIo(const RunArgs& a, const std::vector<uint8_t>& bytes, RunIo* io) {
  if (!a.io.any()) return Status::Ok();
  auto parsed = model::ReadModel(bytes.data(), bytes.size());
  if (!parsed.ok()) return Status(parsed.status().code(), a.model + ": " + parsed.status().message());
  auto selection = ResolveIo(*parsed, a.io);
  if (!selection.ok()) return Status(selection.status().code(), a.model + ": " + selection.status().message());
  io->selection = std::move(selection).value();
  return Status::Ok();
}

// Binds a buffer of the CLI's own (16-aligned, exactly the tensor's bytes) to every external
// input and output: those whose view has no data after AllocateTensors. Their subgraph-0 indices
// go to *externals.
rt::StatusCode BindOwnBuffers(rt::Interpreter& interp, RunIo* io, std::vector<uint32_t>* externals) {
  const auto bits = static_cast<uint8_t>(io->selection.external_io);
  for (int side = 0; side < 2; ++side) {
    if ((bits & (side == 0 ? 1 : 2)) == 0) continue;
    const uint32_t n = side == 0 ? interp.inputs_size() : interp.outputs_size();
    for (uint32_t k = 0; k < n; ++k) {
      const rt::TensorView v = side == 0 ? interp.input(k) : interp.output(k);
      if (v.data != nullptr || v.bytes == 0) continue;  // planned, constant, or bound already
      io->buffers.push_back(std::make_unique<ArenaBuffer>(v.bytes));
      ArenaBuffer& b = *io->buffers.back();
      const rt::StatusCode s = side == 0 ? interp.BindInput(k, b.data, b.size) : interp.BindOutput(k, b.data, b.size);
      if (s != rt::StatusCode::kOk) return s;
      for (uint32_t t = 0; t < interp.tensors_size(); ++t) {
        if (interp.tensor(t).data == b.data) externals->push_back(t);
      }
    }
  }
  return rt::StatusCode::kOk;
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

// The kept tensors' bytes after the last Invoke, as fnv1a64 (compare with a dump's index.json).
nlohmann::json KeptJson(const rt::Interpreter& interp, const RunIo& io) {
  nlohmann::json out = nlohmann::json::array();
  for (uint32_t t : io.selection.keep) {
    const rt::TensorView v = interp.tensor(t);
    char hex[17];
    std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(rt::Fnv1a64(v.data, v.bytes)));
    out.push_back({{"tensor", t}, {"bytes", v.bytes}, {"fnv1a64", hex}});
  }
  return out;
}

struct Invoked {
  double seconds = 0;                                 // mean per Invoke
  nlohmann::json outputs = nlohmann::json::array();   // of Invoke 0
  nlohmann::json sequence = nlohmann::json::array();  // outputs of Invoke 1..N-1
};

// Invoke i (0-based) runs on one interpreter without reset, so state carries over (stateful
// models); its inputs are the generator's seed i, or PREFIX.in<k>.bin for i = 0 and
// PREFIX.seq<i>.in<k>.bin after (falling back to the previous inputs when that file is absent).
// Outputs of Invoke 0 go to PREFIX.out<k>.bin, of Invoke i >= 1 to PREFIX.seq<i>.out<k>.bin.
// The dumper (if any) records Invoke 0 only. Returns an exit code on failure, -1 on success.
int InvokeAll(const RunArgs& a, rt::Interpreter& interp, TensorDumper* dumper, Invoked* r) {
  for (uint32_t i = 0; i < a.invokes; ++i) {
    const std::string seq = i == 0 ? std::string() : ".seq" + std::to_string(i);
    for (uint32_t k = 0; k < interp.inputs_size(); ++k) {
      const rt::TensorView in = interp.input(k);
      if (a.inputs_from.empty()) {
        rt::FillGeneratedInput(in, k, i);
        continue;
      }
      const std::string path = a.inputs_from + seq + ".in" + std::to_string(k) + ".bin";
      if (i > 0 && !std::ifstream(path).good()) continue;
      auto data = ReadFile(path);
      if (!data.ok()) return ReportError("run", data.status());
      if (data->size() != in.bytes) {
        return Fail(path + ": " + std::to_string(data->size()) + " bytes, input " + std::to_string(k) + " (" +
                        rt::TypeName(in.type) + ShapeString(in) + ") needs " + std::to_string(in.bytes),
                    kExitBadInput);
      }
      std::memcpy(in.data, data->data(), data->size());
    }
    if (dumper) dumper->enabled = i == 0;
    const auto start = std::chrono::steady_clock::now();
    const rt::StatusCode s = interp.Invoke();
    r->seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (dumper && !dumper->status().ok()) return ReportError("run", dumper->status());
    // kAborted: a kernel ended this Invoke on purpose (CIRCULAR_BUFFER between its runs, TFLM's
    // kTfLiteAbort); the outputs keep what the ops before it left, and the next Invoke goes on.
    const bool aborted = s == rt::StatusCode::kAborted;
    if (s != rt::StatusCode::kOk && !aborted) return Fail(s, interp.error_message());
    if (aborted && a.format != "json") std::printf("invoke %u ended early: %s\n", i, interp.error_message());
    nlohmann::json these = nlohmann::json::array();
    for (uint32_t k = 0; k < interp.outputs_size(); ++k) {
      const rt::TensorView out = interp.output(k);
      char hex[17];
      std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(rt::Fnv1a64(out.data, out.bytes)));
      these.push_back({{"index", k},
                       {"dtype", rt::TypeName(out.type)},
                       {"shape", Shape(out)},
                       {"bytes", out.bytes},
                       {"fnv1a64", hex}});
      if (!a.outputs_to.empty()) {
        const std::string path = a.outputs_to + seq + ".out" + std::to_string(k) + ".bin";
        std::ofstream f(path, std::ios::binary);
        f.write(static_cast<const char*>(out.data), out.bytes);
        if (!f) return Fail("cannot write " + path, kExitBadInput);
      }
    }
    if (i == 0) {
      r->outputs = these;
    } else {
      r->sequence.push_back({{"invoke", i}, {"aborted", aborted}, {"outputs", these}});
    }
  }
  r->seconds /= a.invokes ? a.invokes : 1;
  return -1;
}

// `j` holds the dump and comparison (FinishDump), if any.
void PrintJson(const RunArgs& a, const std::string& planner, const rt::Interpreter& interp, size_t arena_bytes,
               uint32_t min_bytes, const Invoked& r, nlohmann::json j) {
  const rt::MemoryRecord& rec = interp.memory_record();
  j["model"] = a.model;
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
  j["tail_breakdown"] = {{"tensor_table", rec.tensor_table_bytes},
                         {"kernel_table", rec.kernel_table_bytes},
                         {"op_data_pointers", rec.op_data_ptr_bytes},
                         {"op_data", rec.op_data_bytes},
                         {"scratch_table", rec.scratch_table_bytes},
                         {"variables", rec.variable_bytes},
                         {"subgraph_table", rec.subgraph_table_bytes},
                         {"resource_table", rec.resource_table_bytes},
                         {"resources", rec.resource_bytes}};
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
  std::printf("model:            %s\n", a.model.c_str());
  std::printf("plan:             %s (%u buffers, %u scratch)\n", rec.plan_source, rec.planned_buffers,
              rec.scratch_requests);
  std::printf("head:             %u bytes\n", rec.head_bytes);
  std::printf("tail:             %u bytes (tables %u, op data %u, scratch table %u, variables %u)\n", rec.tail_bytes,
              rec.tensor_table_bytes + rec.kernel_table_bytes + rec.op_data_ptr_bytes + rec.subgraph_table_bytes +
                  rec.resource_table_bytes,
              rec.op_data_bytes, rec.scratch_table_bytes, rec.variable_bytes + rec.resource_bytes);
  std::printf("arena_used_bytes: %u\n", interp.arena_used_bytes());
  std::printf("smallest arena:   %u bytes (16-aligned start)\n", min_bytes);
  std::printf("invoke:           %.6f s (mean of %u)\n", r.seconds, a.invokes);
  for (const auto& o : r.outputs) {
    std::printf("output %u: %s %s %u bytes fnv1a64 %s\n", o["index"].get<uint32_t>(),
                o["dtype"].get<std::string>().c_str(), o["shape"].dump().c_str(), o["bytes"].get<uint32_t>(),
                o["fnv1a64"].get<std::string>().c_str());
  }
  PrintDump(dump);
  if (dump.contains("io")) std::printf("%s", IoCostText(costs).c_str());
  for (const auto& k : dump.contains("kept") ? dump["kept"] : nlohmann::json::array()) {
    std::printf("kept tensor %u: %u bytes fnv1a64 %s (valid after Invoke)\n", k["tensor"].get<uint32_t>(),
                k["bytes"].get<uint32_t>(), k["fnv1a64"].get<std::string>().c_str());
  }
}

// --optimize: the model rewritten for the runtime (graph/optimize.h) replaces `bytes`. Returns an
// exit code on failure, -1 on success.
int OptimizeFirst(const RunArgs& a, std::vector<uint8_t>* bytes) {
  auto r = graph::OptimizeForRuntime(*bytes, graph::OptimizeOptions());
  if (!r.ok()) return ReportError("run", r.status());
  if (a.format == "text") {
    std::printf("optimized:        smallest arena %llu -> %llu bytes (%zu rewrites, %+.1f %% MACs)\n",
                static_cast<unsigned long long>(r->before.min_arena),
                static_cast<unsigned long long>(r->after.min_arena), r->rewrites.size(), r->extra_macs_pct);
  }
  *bytes = std::move(r->bytes);
  return -1;
}

int Run(const RunArgs& a) {
  auto bytes = ReadFile(a.model);
  if (!bytes.ok()) return ReportError("run", bytes.status());
  if (a.optimize) {
    const int failed = OptimizeFirst(a, &*bytes);
    if (failed >= 0) return failed;
  }
  const std::string planner = plan::FindPlanner(a.planner)->name;  // the option accepts registry names only
  RunIo io;
  const Status resolved = ResolveRunIo(a, *bytes, &io);
  if (!resolved.ok()) return ReportError("run", resolved);
  RunPlan plan;
  const Status set_up = SetUpPlan(*bytes, Kernels(a), planner, io.selection, &plan);
  if (!set_up.ok()) return ReportError("run", set_up);
  uint32_t min_bytes = 0;
  size_t arena_bytes = a.arena_bytes;
  if (arena_bytes == 0) {
    std::string error;
    const rt::StatusCode s = ProbeMinimum(*bytes, Kernels(a), plan.options, &min_bytes, &error);
    if (s != rt::StatusCode::kOk) return Fail(s, error);
    arena_bytes = min_bytes;
  }
  auto dump = StartDump(a, *bytes, &plan.options);  // after the probes: the callback never touches the arena
  if (!dump.ok()) return ReportError("run", dump.status());
  ArenaBuffer arena(arena_bytes);
  rt::Interpreter interp(bytes->data(), bytes->size(), Kernels(a), arena.data, arena.size, plan.options);
  const rt::StatusCode s = interp.AllocateTensors();
  if (s != rt::StatusCode::kOk) return Fail(s, interp.error_message());
  const Status verified = VerifyRecorded(*plan.recorded);
  if (!verified.ok()) return ReportError("run", verified);
  std::vector<uint32_t> externals;
  const rt::StatusCode bound = BindOwnBuffers(interp, &io, &externals);
  if (bound != rt::StatusCode::kOk) return Fail(bound, interp.error_message());
  const Status measured = MeasureRunIo(a, *bytes, planner, externals, &io);
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

}  // namespace

void RegisterRun(CLI::App& root, int& exit_code) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd = root.add_subcommand("run",
                                  "Run a model in arenaplan's embedded runtime (one arena, no heap): "
                                  "outputs, head/tail, smallest working arena, time per Invoke");
  cmd->add_option("MODEL", args->model, "a .tflite file")->required();
  cmd->add_option("--inputs-from", args->inputs_from,
                  "read input k from PREFIX.in<k>.bin (default: the golden deterministic generator, seed 0)");
  cmd->add_option("--outputs-to", args->outputs_to,
                  "write output k to PREFIX.out<k>.bin (Invoke i >= 1: PREFIX.seq<i>.out<k>.bin)");
  cmd->add_option("--arena-bytes", args->arena_bytes, "arena size (default: the smallest working arena)")
      ->check(CLI::Range(uint64_t{1}, uint64_t{0xFFFFFFF0u}));
  AddPlannerOption(*cmd, &args->planner,
                   "the head when the model has no offline plan (tflm-greedy: the runtime's own; others plan "
                   "on the host and compile the plan in)");
  cmd->add_option("--kernels", args->kernels,
                  "portable (default), or dsp: the Cortex-M DSP-extension int8 kernels, emulated exactly here "
                  "(same outputs; the arena includes their scratch, as on the device)")
      ->check(CLI::IsMember({"portable", "dsp"}));
  cmd->add_option("--invokes", args->invokes,
                  "Invokes on one interpreter (default 1); Invoke i gets inputs of seed i, state carries over")
      ->check(CLI::Range(1u, 1000000u));
  cmd->add_option("--dump-tensors", args->dump_tensors,
                  "write every op's output tensors of Invoke 0 to DIR/<op>_<tensor>.bin, with DIR/index.json "
                  "(dtype, shape, quantization)");
  cmd->add_option("--compare-with", args->compare_with,
                  "compare the new dump with this one: the first tensor that differs (exit 1), or identical")
      ->needs("--dump-tensors");
  cmd->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_flag("--optimize", args->optimize, "rewrite the model for the runtime first (as optimize --for arenaplan)");
  AddIoOptions(*cmd, &args->io);
  cmd->callback([args, &exit_code] { exit_code = Run(*args); });
}

}  // namespace arenaplan::cli
