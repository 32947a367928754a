#include "cli/running.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "cli/commands.h"
#include "cli/model_file.h"
#include "graph/runtime_evaluator.h"
#include "model/device_status.h"
#include "plan/plan_and_verify.h"
#include "plan/verify.h"
#include "report/printable.h"
#include "rules/limits.h"
#include "runtime/kernels/dsp/registrations.h"
#include "runtime/test_inputs.h"

namespace arenaplan::cli {
namespace {

std::string ShapeString(const rt::TensorView& t) {
  std::string s = "[";
  for (int32_t i = 0; i < t.rank; ++i) s += (i ? "," : "") + std::to_string(t.dims[i]);
  return s + "]";
}

std::vector<int32_t> Shape(const rt::TensorView& t) { return std::vector<int32_t>(t.dims, t.dims + t.rank); }

}  // namespace

plan::Problem RecordedProblem(const RecordedPlan& r, std::vector<int64_t>* index) {
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

std::vector<plan::Tie> RecordedTies(const RecordedPlan& r, const std::vector<int64_t>& index) {
  std::vector<plan::Tie> ties;
  const uint32_t n = r.copy.count;
  for (uint32_t i = 0; i < n && r.copy.above != nullptr; ++i) {
    if (index[i] < 0) continue;
    uint32_t j = r.copy.above[i];
    // Through zero-byte parts (a stream's input wholly under its output): they occupy nothing, so
    // the part above one sits directly on the part below it. The runtime refuses cycles.
    for (uint32_t hops = 0; j < n && index[j] < 0 && hops < n; ++hops) j = r.copy.above[j];
    if (j < n && index[j] >= 0) ties.push_back(plan::Tie{static_cast<size_t>(index[i]), static_cast<size_t>(index[j])});
  }
  return ties;
}

void PlaceZeroByteTieParts(const RecordedPlan& r, std::vector<int32_t>* offsets, std::vector<uint8_t>* regions) {
  const uint32_t n = r.copy.count;
  if (r.copy.above == nullptr) return;
  std::vector<bool> upper(n, false);
  for (uint32_t i = 0; i < n; ++i) {
    if (r.copy.above[i] < n) upper[r.copy.above[i]] = true;
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (upper[i]) continue;  // each stack from its bottom
    uint32_t hops = 0;
    for (uint32_t k = i, j = r.copy.above[i]; j < n && hops < n; k = j, j = r.copy.above[j], ++hops) {
      if (r.problem[j].size != 0) continue;
      (*offsets)[j] = (*offsets)[k] + static_cast<int32_t>(r.problem[k].size);  // both within the plan's height
      if (regions != nullptr) (*regions)[j] = (*regions)[k];
    }
  }
}

namespace {

// The runtime's problem planned on the host by `planner`, as one offset per runtime buffer; ties
// kept (plan/ties.h), so the runtime's check of the compiled plan passes.
Result<std::vector<int32_t>> HostPlan(const RecordedPlan& r, const std::string& planner, uint32_t* head) {
  std::vector<int64_t> index;
  const plan::Problem problem = RecordedProblem(r, &index);
  const std::vector<plan::Tie> ties = RecordedTies(r, index);
  auto planned = plan::PlanAndVerifyTied(problem, ties, planner);
  if (!planned.ok()) return planned.status();
  if (planned->plan.height > int64_t{rules::kMaxBufferBytes}) return Unsupported("the plan needs more than 2 GiB");
  std::vector<int32_t> offsets(r.copy.count, 0);
  for (uint32_t i = 0; i < r.copy.count; ++i) {
    if (index[i] >= 0) offsets[i] = static_cast<int32_t>(planned->plan.offsets[static_cast<size_t>(index[i])]);
  }
  PlaceZeroByteTieParts(r, &offsets, nullptr);
  *head = static_cast<uint32_t>(planned->plan.height);
  // `best` is the lowest plan of its portfolio, tflm-greedy's included. With ties the host plans
  // each pair as one block (plan/ties.h), while the runtime's own tflm-greedy places the pair as
  // an L and may use the notch: its recorded plan competes (verified like any plan).
  if (planner == "best" && !ties.empty() && VerifyRecorded(r).ok()) {
    std::vector<plan::Offset> own(problem.buffers.size(), 0);
    for (uint32_t i = 0; i < r.copy.count; ++i) {
      if (index[i] >= 0) own[static_cast<size_t>(index[i])] = r.offsets[i];
    }
    const plan::Bytes height = plan::PlanHeight(problem, own);
    if (height < planned->plan.height) {
      for (uint32_t i = 0; i < r.copy.count; ++i) offsets[i] = index[i] >= 0 ? r.offsets[i] : 0;
      PlaceZeroByteTieParts(r, &offsets, nullptr);
      *head = static_cast<uint32_t>(height);
    }
  }
  return offsets;
}

// Input k of Invoke i: from the files or the generator. Returns an exit code on failure, -1 on success.
int WriteInput(const InvokeFiles& files, uint32_t i, uint32_t k, const rt::TensorView& in) {
  if (files.inputs_from.empty()) {
    rt::FillGeneratedInput(in, k, i);
    return -1;
  }
  const std::string seq = i == 0 ? std::string() : ".seq" + std::to_string(i);
  const std::string path = files.inputs_from + seq + ".in" + std::to_string(k) + ".bin";
  if (i > 0 && !std::ifstream(path).good()) return -1;
  auto data = ReadFile(path);
  if (!data.ok()) return ReportError("run", data.status());
  if (data->size() != in.bytes) {
    return RunFail(path + ": " + std::to_string(data->size()) + " bytes, input " + std::to_string(k) + " (" +
                       rt::TypeName(in.type) + ShapeString(in) + ") needs " + std::to_string(in.bytes),
                   kExitBadInput);
  }
  std::memcpy(in.data, data->data(), data->size());
  return -1;
}

// Outputs of Invoke i as JSON, written to the files. Returns an exit code on failure, -1 on success.
int ReadOutputs(const InvokeFiles& files, uint32_t i, const rt::Interpreter& interp, nlohmann::json* these) {
  const std::string seq = i == 0 ? std::string() : ".seq" + std::to_string(i);
  for (uint32_t k = 0; k < interp.outputs_size(); ++k) {
    const rt::TensorView out = interp.output(k);
    char hex[17];
    std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(rt::Fnv1a64(out.data, out.bytes)));
    these->push_back({{"index", k},
                      {"dtype", rt::TypeName(out.type)},
                      {"shape", Shape(out)},
                      {"bytes", out.bytes},
                      {"fnv1a64", hex}});
    if (files.outputs_to.empty()) continue;
    const std::string path = files.outputs_to + seq + ".out" + std::to_string(k) + ".bin";
    std::ofstream f(path, std::ios::binary);
    f.write(static_cast<const char*>(out.data), out.bytes);
    if (!f) return RunFail("cannot write " + path, kExitBadInput);
  }
  return -1;
}

}  // namespace

int RunFail(const std::string& message, int code) {
  std::fprintf(stderr, "arenaplan run: %s\n", report::Printable(message).c_str());
  return code;
}

int RunFail(rt::StatusCode s, const std::string& message) {
  return RunFail(message, ErrorCodeOf(s) == ErrorCode::kInvalidArgument ? kExitBadInput : kExitNoSolution);
}

const rt::OpResolver& KernelsNamed(const std::string& kernels) {
  return kernels == "dsp" ? rt::DspOpsResolver() : rt::AllOpsResolver();
}

const rt::OpResolver& Kernels(const RunArgs& a) { return KernelsNamed(a.kernels); }

int LoadModel(const RunArgs& a, const std::string& path, std::vector<uint8_t>* bytes) {
  auto read = ReadFile(path);
  if (!read.ok()) return ReportError("run", read.status());
  *bytes = std::move(*read);
  if (!a.optimize) return -1;
  auto r = graph::OptimizeForRuntime(*bytes, graph::OptimizeOptions(), Kernels(a));  // measured as it will run
  if (!r.ok()) return ReportError("run", Status(r.status().code(), path + ": " + r.status().message()));
  if (a.format == "text") {
    const std::string which = a.models.size() > 1 ? path + ": " : "";
    std::printf("optimized:        %ssmallest arena %llu -> %llu bytes (%zu rewrites, %+.1f %% MACs)\n", which.c_str(),
                static_cast<unsigned long long>(r->before.min_arena),
                static_cast<unsigned long long>(r->after.min_arena), r->rewrites.size(), r->extra_macs_pct);
  }
  *bytes = std::move(r->bytes);
  return -1;
}

RecordedPlan::RecordedPlan()
    : problem(rules::kMaxPlanBuffers),
      offsets(rules::kMaxPlanBuffers),
      above(rules::kMaxPlanBuffers, 0xFFFFu),
      copy{problem.data(), offsets.data(), rules::kMaxPlanBuffers, 0, above.data()} {}

Status VerifyRecorded(const RecordedPlan& r) {
  std::vector<int64_t> index;
  const plan::Problem problem = RecordedProblem(r, &index);
  plan::Plan plan;
  plan.offsets.assign(problem.buffers.size(), 0);
  for (uint32_t i = 0; i < r.copy.count; ++i) {
    if (index[i] >= 0) plan.offsets[static_cast<size_t>(index[i])] = r.offsets[i];
  }
  plan.height = plan::PlanHeight(problem, plan.offsets);
  plan::VerifyReport report = plan::VerifyPlan(problem, plan);
  for (plan::VerifyIssue& e : plan::VerifyTies(problem, RecordedTies(r, index), plan)) {
    report.errors.push_back(std::move(e));
  }
  if (report.ok()) return Status::Ok();
  return Internal("the runtime's plan does not verify: " + report.errors.front().message);
}

rt::StatusCode ProbeMinimum(const std::vector<uint8_t>& model, const rt::OpResolver& kernels,
                            const rt::InterpreterOptions& opts, uint32_t* min_bytes, std::string* error,
                            uint32_t* head) {
  for (size_t bytes = size_t{16} << 20;; bytes *= 4) {
    AlignedBytes arena(bytes);
    rt::Interpreter interp(model.data(), model.size(), kernels, arena.data(), arena.size(), opts);
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

int InvokeOnce(const RunArgs& a, const InvokeFiles& files, uint32_t i, rt::Interpreter& interp, TensorDumper* dumper,
               Invoked* r) {
  for (uint32_t k = 0; k < interp.inputs_size(); ++k) {
    const int failed = WriteInput(files, i, k, interp.input(k));
    if (failed >= 0) return failed;
  }
  if (dumper) dumper->enabled = i == 0;
  const auto start = std::chrono::steady_clock::now();
  const rt::StatusCode s = interp.Invoke();
  r->seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (dumper && !dumper->status().ok()) return ReportError("run", dumper->status());
  // kAborted: a kernel ended this Invoke on purpose (CIRCULAR_BUFFER between its runs, TFLM's
  // kTfLiteAbort); the outputs keep what the ops before it left, and the next Invoke goes on.
  const bool aborted = s == rt::StatusCode::kAborted;
  if (s != rt::StatusCode::kOk && !aborted) return RunFail(s, interp.error_message());
  if (aborted && a.format != "json") std::printf("invoke %u ended early: %s\n", i, interp.error_message());
  nlohmann::json these = nlohmann::json::array();
  const int failed = ReadOutputs(files, i, interp, &these);
  if (failed >= 0) return failed;
  if (i == 0) {
    r->outputs = these;
  } else {
    r->sequence.push_back({{"invoke", i}, {"aborted", aborted}, {"outputs", these}});
  }
  return -1;
}

nlohmann::json TailBreakdown(const rt::MemoryRecord& rec) {
  return {{"tensor_table", rec.tensor_table_bytes},
          {"kernel_table", rec.kernel_table_bytes},
          {"op_data_pointers", rec.op_data_ptr_bytes},
          {"op_data", rec.op_data_bytes},
          {"scratch_table", rec.scratch_table_bytes},
          {"variables", rec.variable_bytes},
          {"subgraph_table", rec.subgraph_table_bytes},
          {"resource_table", rec.resource_table_bytes},
          {"resources", rec.resource_bytes}};
}

void PrintOutputLines(const nlohmann::json& outputs, const char* indent) {
  for (const auto& o : outputs) {
    std::printf("%soutput %u: %s %s %u bytes fnv1a64 %s\n", indent, o["index"].get<uint32_t>(),
                o["dtype"].get<std::string>().c_str(), o["shape"].dump().c_str(), o["bytes"].get<uint32_t>(),
                o["fnv1a64"].get<std::string>().c_str());
  }
}

}  // namespace arenaplan::cli
