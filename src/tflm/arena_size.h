// The exact arena stock TFLM needs for a model on a target: a replay of TFLM's allocation sequence
// (docs/tflm-arena.md §2, §7) driven by the target's struct layouts and the kernel table.
//   tail: allocator objects, [resource variables], SubgraphAllocations, eval tensors and nodes per
//         subgraph, builtin option structs, kernel Init/Prepare buffers, scratch handles, variable
//         buffers, then the input/output TfLiteTensors with their quantization;
//   head: the plan of tensors + kernel scratch buffers (the chosen planner; TFLM uses tflm-greedy);
//   min arena: the largest of the planning-time peak (tail before I/O + scratch-request array +
//         size_t[subgraphs] + AllocationInfo[] + 40 B per planned buffer), the Prepare-time peak
//         (per node: the tail so far + the scratch-request array + the temporary TfLiteTensors and
//         quantization structs its Prepare fetches, kernels.h PrepareTempSpec) and head + tail,
//         rounded up to 16.
// O(tensors + ops) plus the planner's cost.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lifetime/lifetimes.h"
#include "model/model.h"
#include "tflm/target.h"
#include "util/result.h"

namespace arenaplan::tflm {

// Tail categories, in the order TFLM allocates them.
inline constexpr const char* kTailAllocatorObjects = "allocator_objects";
inline constexpr const char* kTailResourceVariables = "resource_variables";
inline constexpr const char* kTailEvalTensors = "eval_tensors";
inline constexpr const char* kTailNodes = "node_and_registrations";
inline constexpr const char* kTailOpOptions = "op_option_structs";
inline constexpr const char* kTailKernelData = "kernel_persistent_data";
inline constexpr const char* kTailScratchHandles = "scratch_handles";
inline constexpr const char* kTailVariables = "variable_tensors";
inline constexpr const char* kTailIoPointers = "io_pointer_arrays";
inline constexpr const char* kTailIoTensors = "io_tensors";
inline constexpr const char* kTailIoQuantization = "io_quantization";

struct TailCategory {
  std::string name;
  uint64_t bytes = 0;  // including the alignment padding in front of each allocation
};

// What one operator costs in the tail (padding included).
struct OpTail {
  int32_t subgraph = 0;
  int32_t op = 0;
  std::string name;
  uint64_t option_bytes = 0;
  uint64_t kernel_bytes = 0;
};

struct ArenaSize {
  std::string target;
  std::string planner;
  bool allocates = false;  // AllocateTensors succeeds
  bool supported = false;  // AllocateTensors and Invoke succeed
  std::string error;       // why not (TFLM's message in substance); empty when supported
  uint64_t head_bytes = 0;
  uint64_t tail_bytes = 0;
  uint64_t arena_used_bytes = 0;     // head + tail, as MicroInterpreter::arena_used_bytes()
  uint64_t min_arena_bytes = 0;      // smallest 16-multiple arena that allocates and invokes
  uint64_t planning_peak_bytes = 0;  // tail before I/O + temp during CommitStaticMemoryPlan
  // The smallest arena from which every larger one also works (> min_arena_bytes only when a
  // kernel's Prepare overwrites its temporaries at some larger sizes; prepare_temp.h).
  uint64_t safe_arena_bytes = 0;
  uint64_t planned_buffers = 0;  // tensors + scratch given to the planner
  uint64_t scratch_requests = 0;
  std::vector<TailCategory> tail_breakdown;
  std::vector<OpTail> ops;
  std::vector<std::string> notes;  // caveats (e.g. a vendor op sized as a no-op stub)
};

// The scratch requests TFLM's kernels make, in request order (feed lifetime::Options::scratch).
Result<std::vector<lifetime::ScratchRequest>> ScratchRequests(const model::Model& model, const Target& target);

// The lifetime options for planning `model` on `target`: the target's scratch requests and its
// buffer alignment (offline plan honoured, no external I/O, nothing kept; callers change those).
// The one place export, sizing, the CLI and the benchmarks get them from.
Result<lifetime::Options> LifetimeOptionsFor(const model::Model& model, const Target& target);

// `planner` names a plan/planner.h registry entry ("tflm-greedy" is what TFLM itself does).
// Unsupported models give ArenaSize{supported=false, error}; with allocates=true the figures are
// still valid (the failure is at Invoke). Errors: malformed model, an op the kernel table lacks.
// use_offline_plan=false sizes the model as if it carried no OfflineMemoryAllocation.
Result<ArenaSize> ComputeArenaSize(const model::Model& model, const Target& target,
                                   const std::string& planner = "tflm-greedy", bool use_offline_plan = true);

// A model written by `optimize --for arenaplan` carries an execution schedule (arenaplan_schedule
// metadata) that stock TFLM never reads: TFLM would run its convolutions without the padding
// folded into the schedule. The caveat every TFLM-facing command gives for it; empty when the
// model has none.
std::string IgnoredScheduleNote(const model::Model& model);

// The per-category bytes of `size` under `name` (0 when absent).
uint64_t TailBytes(const ArenaSize& size, const std::string& name);

}  // namespace arenaplan::tflm
