// The embedded runtime on the host, for `arenaplan run` (one model: run_command.cc; several in
// one shared arena: run_models.cc): the arguments, the arena, how a plan gets into the runtime
// (its own tflm-greedy, or a host planner's plan of the runtime's problem compiled in, verified
// by plan/verify.h either way), one Invoke with its inputs and outputs.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/io_options.h"
#include "cli/tensor_dump.h"
#include "plan/problem.h"
#include "plan/ties.h"
#include "runtime/interpreter.h"
#include "util/aligned_bytes.h"
#include "util/result.h"

namespace arenaplan::cli {

struct RunArgs {
  std::vector<std::string> models;
  std::vector<std::string> inputs_from;  // none, or one prefix per model (in order)
  std::vector<std::string> outputs_to;   // none, or one prefix per model
  uint64_t arena_bytes = 0;              // 0 = find the smallest working arena first
  std::string planner = "tflm-greedy";
  std::string kernels = "portable";
  std::string format = "text";
  uint32_t invokes = 1;
  std::string dump_tensors;          // folder for every op's outputs (Invoke 0; one model only)
  std::string compare_with;          // a second dump to compare the new one with
  bool optimize = false;             // rewrite for the runtime first (graph/optimize.h)
  IoArgs io;                         // --external-io, --keep (one model only)
  std::vector<std::string> regions;  // --region NAME:BYTES[:COST]: a region plan (run_regions.cc)
};

// One model with a multi-region plan, one host buffer per region (run_regions.cc).
int RunRegions(const RunArgs& a);

// Several models in one shared arena (run_models.cc); `a.models.size() >= 2`.
int RunModels(const RunArgs& a);

// The error line "arenaplan run: MESSAGE" and the exit code; from a runtime status: 2 for bad
// input, 1 otherwise (does not fit, unsupported).
int RunFail(const std::string& message, int code);
int RunFail(rt::StatusCode s, const std::string& message);

// The runtime's kernels a --kernels value names: "dsp" the Cortex-M fast kernels (emulated on the
// host), anything else the portable ones (the commands check the value). Kernels(a): a.kernels.
const rt::OpResolver& KernelsNamed(const std::string& kernels);
const rt::OpResolver& Kernels(const RunArgs& a);

// The model's bytes (with --optimize, rewritten for the runtime: a line on stdout in text format).
// Returns an exit code on failure, -1 on success.
int LoadModel(const RunArgs& a, const std::string& path, std::vector<uint8_t>* bytes);

// The runtime's planning problem and plan as AllocateTensors leaves them (rt::PlanCopy), in-place
// aliasing applied: the problem any plan compiled into the runtime must solve, ties included.
struct RecordedPlan {
  std::vector<rt::PlanBuffer> problem;
  std::vector<int32_t> offsets;
  std::vector<uint16_t> above;  // PlanCopy::above
  rt::PlanCopy copy;
  RecordedPlan();
};

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
                 const IoSelection& io, RunPlan* p);
// The recorded buffers as a plain problem; zero-byte buffers (which occupy nothing) are left out,
// `index[i]` is the problem buffer of runtime buffer i or -1.
plan::Problem RecordedProblem(const RecordedPlan& r, std::vector<int64_t>* index);
// The recorded ties (an in-place QUANTIZE's or a stream's split input) between buffers of that
// problem; a zero-byte part of a stack is not in it, so the part above it is tied to the one below.
std::vector<plan::Tie> RecordedTies(const RecordedPlan& r, const std::vector<int64_t>& index);
// Zero-byte parts of tie stacks put where the runtime's check wants them: at the end of the part
// below, in its region (`regions` optional). Parts with bytes already sit there (ties kept).
void PlaceZeroByteTieParts(const RecordedPlan& r, std::vector<int32_t>* offsets, std::vector<uint8_t>* regions);
// The plan the runtime used, checked by the independent verifier (ties included).
Status VerifyRecorded(const RecordedPlan& r);

// Smallest working arena of one model, found by one AllocateTensors on a big arena (exact);
// *head (optional) gets the head.
rt::StatusCode ProbeMinimum(const std::vector<uint8_t>& model, const rt::OpResolver& kernels,
                            const rt::InterpreterOptions& opts, uint32_t* min_bytes, std::string* error,
                            uint32_t* head = nullptr);

struct Invoked {
  double seconds = 0;                                 // total, then mean per Invoke
  nlohmann::json outputs = nlohmann::json::array();   // of Invoke 0
  nlohmann::json sequence = nlohmann::json::array();  // outputs of Invoke 1..N-1
};

// Where one model's Invokes read and write: PREFIX.in<k>.bin for Invoke 0 and
// PREFIX.seq<i>.in<k>.bin after (falling back to the previous inputs when that file is absent),
// or the generator's seed i when `inputs_from` is empty; outputs of Invoke 0 to
// PREFIX.out<k>.bin, of Invoke i >= 1 to PREFIX.seq<i>.out<k>.bin.
struct InvokeFiles {
  std::string inputs_from;
  std::string outputs_to;
};

// Invoke i (0-based) of `interp`: inputs written, Invoke, outputs read into `r` and written out;
// the dumper (if any) records Invoke 0 only. Returns an exit code on failure, -1 on success.
int InvokeOnce(const RunArgs& a, const InvokeFiles& files, uint32_t i, rt::Interpreter& interp, TensorDumper* dumper,
               Invoked* r);

// JSON / text pieces both faces print.
nlohmann::json TailBreakdown(const rt::MemoryRecord& rec);
void PrintOutputLines(const nlohmann::json& outputs, const char* indent);

}  // namespace arenaplan::cli
