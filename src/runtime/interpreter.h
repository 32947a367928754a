// Runs a .tflite model read in place (weights are never copied) inside one caller-supplied arena:
// subgraph 0, and the subgraphs its WHILE / IF / CALL_ONCE ops call (planned in the same head on
// one lifetime counter, as TFLM does). No heap, no exceptions, no mutable statics: two
// interpreters over two arenas are fully independent.
//
//   Interpreter interp(model_bytes, model_size, AllOpsResolver(), arena, sizeof(arena));
//   if (interp.AllocateTensors() != StatusCode::kOk) puts(interp.error_message());
//   TensorView in = interp.input(0);  ... fill in.data ...
//   interp.Invoke();  TensorView out = interp.output(0);
//   interp.Reset();   // back to the state right after AllocateTensors (variables, CALL_ONCE, ...)
//
// State that survives Invoke: variable tensors (tail, or head with an offline offset), resource
// variables (fixed table + bytes in the tail) and kernels' op data (e.g. a noise estimate).
//
// Several models in one arena (heads overlaid, tails stacked; the rules are in shared_arena.h):
//   SharedArena shared;  SharedArenaInit(&shared, arena, sizeof(arena), &error);
//   Interpreter a(model_a, size_a, AllOpsResolver(), &shared), b(model_b, size_b, AllOpsResolver(), &shared);
//   a.AllocateTensors(); b.AllocateTensors();   // then inputs, Invoke, outputs of one model at a time
//
// AllocateTensors runs three phases over the arena (see arena.h for the layout), each in its file:
//   bind     (model_binding.h) verify the flatbuffer and run rules/'s structural checks, the
//            same verdicts as the host tools; index tensors and ops over all subgraphs;
//            tables   (tail_tables.h) the per-tensor, per-opcode and per-op tables in the tail, and
//            the kernels resolved;
//   prepare  (execution.cc) each kernel's prepare: persistent op data in the tail, scratch
//            requests in the head;
//   plan     (head_planning.h) lifetimes and TFLM's greedy placement from rules/, in temp; the head
//            is set to the plan and every tensor / scratch buffer gets its offset; variables.
// The plan comes from, in order: the model's OfflineMemoryAllocation metadata, a CompiledPlan
// given by the caller, or online planning in temp (TFLM's greedy, or TFLM's order with best-fit
// gaps). Cost: O(tensors + ops + call-tree visits) for bind and prepare, O(buffers^2) to plan.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rules/greedy.h"
#include "rules/plan_buffer.h"
#include "runtime/arena.h"
#include "runtime/external_io.h"
#include "runtime/kernel_api.h"
#include "runtime/model_binding.h"
#include "runtime/op_resolver.h"
#include "runtime/region_arenas.h"
#include "runtime/shared_arena.h"
#include "runtime/status.h"
#include "runtime/tail_tables.h"
#include "runtime/tensor_view.h"

namespace arenaplan::rt {

using rules::PlanBuffer;

// A plan compiled into the firmware (e.g. by `arenaplan export --c-header`). Either one offset per
// tensor (subgraph 0, then 1, ...) followed by one per scratch request (count = tensors + requests; entries of
// unplanned tensors are ignored), or one per planned buffer in TFLM's AddBuffer order (count =
// planned buffers). head_bytes is the head size the plan needs (checked: max(offset + size)).
// Several memories (region_arenas.h): `regions` (optional, only with one entry per planned buffer)
// gives each buffer's region, 0 = the main arena's head (head_bytes is then region 0's need),
// r >= 1 = InterpreterOptions::regions[r - 1]; offsets are within the region. Every buffer must end
// within its region and no two buffers live together may overlap within one. The plan is of the
// same problem the runtime's own planner sees, in-place aliasing applied (PlanCopy records it): an
// in-place output's buffer has no bytes, and a tied pair (PlanCopy::above) must be kept, in one
// region.
struct CompiledPlan {
  const int32_t* offsets;
  uint32_t count;
  uint32_t head_bytes;
  const uint8_t* regions = nullptr;  // nullptr: everything in the main arena
};

// The runtime's online planners (rules/greedy.h).
enum class PlannerKind : uint8_t {
  kTflmGreedy,        // TFLM's GreedyMemoryPlanner, offset for offset
  kTflmOrderBestFit,  // TFLM's order, each buffer in the smallest gap that fits
};

// Where AllocateTensors copies its planning problem and plan, for host tools that verify the
// plan or plan it again with other planners (arenaplan run). Capacity too small: nothing is
// copied, `count` still says how many buffers there were.
struct PlanCopy {
  PlanBuffer* problem = nullptr;  // before placement: offset = fixed (offline) or rules::kOnline
  int32_t* offsets = nullptr;     // after placement
  uint32_t capacity = 0;
  uint32_t count = 0;  // out
  // Optional, `capacity` entries: above[i] = j when buffer j must sit directly on buffer i
  // (offset_j = offset_i + size_i: an in-place QUANTIZE's input split in two), else 0xFFFF. A
  // compiled plan must keep these ties (head_planning.h).
  uint16_t* above = nullptr;
};

class Interpreter;

// Called by Invoke after each op's eval succeeds (ops of called subgraphs included, in execution
// order), while the op's outputs hold their values: read them with subgraph_tensor(). For checking
// a model one layer at a time (e.g. `arenaplan run --dump-tensors`). It costs no arena memory and
// does not change the plan; returning anything but kOk stops Invoke with that status.
using OpCallback = StatusCode (*)(void* user, const Interpreter& interpreter, uint32_t subgraph, uint32_t op);

struct InterpreterOptions {
  PlannerKind planner = PlannerKind::kTflmGreedy;
  const CompiledPlan* compiled_plan = nullptr;  // used when the model has no offline plan
  PlanCopy* plan_copy = nullptr;                // optional
  // Invoke fails (kUnsupported) after this many op evaluations, counting ops in called subgraphs
  // (a WHILE whose condition never turns false); 0 = no limit.
  uint64_t max_ops_per_invoke = 0;
  OpCallback after_op = nullptr;  // optional, see OpCallback
  void* after_op_user = nullptr;  // passed to after_op
  // Application-owned I/O (external_io.h): these subgraph-0 inputs / outputs get no head memory;
  // bind a buffer to each with BindInput / BindOutput before Invoke.
  rules::ExternalIo external_io = rules::ExternalIo::kNone;
  // Kept tensors (subgraph-0 indices): planned to live to the end of the run, so their bytes are
  // still valid after Invoke. A plan from the model or a CompiledPlan must have been made so.
  const uint32_t* keep_tensors = nullptr;
  uint32_t num_keep_tensors = 0;
  // The application's memories for regions 1..num_regions of a compiled plan (region_arenas.h);
  // they must outlive the interpreter. Planned buffers only: PlanCopy then holds virtual offsets.
  const RegionArena* regions = nullptr;
  uint32_t num_regions = 0;
};

// Where the arena went (filled during AllocateTensors; the "recording mode" figures).
struct MemoryRecord {
  uint32_t head_bytes = 0;            // planned tensors + scratch
  uint32_t tail_bytes = 0;            // all persistent data
  uint32_t tensor_table_bytes = 0;    // 4 per tensor: offset of its data
  uint32_t kernel_table_bytes = 0;    // one pointer per operator code
  uint32_t op_data_ptr_bytes = 0;     // one pointer per op
  uint32_t op_data_bytes = 0;         // kernels' persistent buffers (shared blocks once, with headers)
  uint32_t scratch_table_bytes = 0;   // 4 per scratch request
  uint32_t variable_bytes = 0;        // variable tensors kept in the tail
  uint32_t subgraph_table_bytes = 0;  // 8 per subgraph (+8): first tensor / op of each subgraph
  uint32_t resource_table_bytes = 0;  // one entry per VAR_HANDLE op
  uint32_t resource_bytes = 0;        // resource variables' data
  uint32_t external_table_bytes = 0;  // one pointer per subgraph-0 input and output (external_io)
  uint32_t planning_temp_bytes = 0;   // peak temp use while planning (freed afterwards)
  uint32_t planned_buffers = 0;       // tensors + scratch buffers placed in the head
  uint32_t scratch_requests = 0;
  uint32_t in_place_ops = 0;  // ops whose output shares its input's buffer (schedule, kInPlace)
  uint32_t stream_overlaps = 0;  // stream segments whose output shares their input's buffer (kStream, b = 1)
  uint32_t min_arena_bytes = 0;  // smallest arena (16-aligned start) that works, exact
  // In a shared arena (shared_arena.h); min_arena_bytes is then the smallest window for this model.
  uint32_t shared_tail_bytes = 0;       // bytes of the shared arena its tail takes (tail rounded up to 16)
  uint32_t shared_min_arena_bytes = 0;  // smallest shared arena holding it and every model allocated before
  const char* plan_source = "";         // "offline", "compiled", "tflm-greedy", "tflm-order-best-fit"
};

class Interpreter final : private KernelContext {
 public:
  Interpreter(const void* model, size_t model_bytes, const OpResolver& resolver, void* arena, size_t arena_bytes,
              const InterpreterOptions& options = InterpreterOptions());
  // In a shared arena with other interpreters: AllocateTensors takes the next window of `shared`
  // (which must outlive this interpreter; see shared_arena.h for what survives other models' runs).
  Interpreter(const void* model, size_t model_bytes, const OpResolver& resolver, SharedArena* shared,
              const InterpreterOptions& options = InterpreterOptions());
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  StatusCode AllocateTensors();
  // External I/O (InterpreterOptions::external_io), after AllocateTensors: binds the application's
  // buffer to input / output i for every later Invoke (rebinding is allowed). kBadArgument, naming
  // the tensor, when i is not an external tensor or the buffer is null, shorter than the tensor or
  // not 16-byte aligned (kArenaAlignment). Views of the tensor then point at the buffer.
  StatusCode BindInput(uint32_t i, void* data, size_t bytes);
  StatusCode BindOutput(uint32_t i, void* data, size_t bytes);
  // Fails (kBadState) while an external tensor has no buffer bound.
  StatusCode Invoke();
  // Restores the state right after AllocateTensors: variable tensors refilled (zero / zero point),
  // resource variables refilled with their default, every kernel's reset hook run (CALL_ONCE runs
  // its init subgraph again, spectral subtraction forgets its noise estimate). O(tensors + ops).
  StatusCode Reset();

  uint32_t inputs_size() const;
  uint32_t outputs_size() const;
  // Views of subgraph-0 inputs / outputs (data points into the arena after AllocateTensors).
  // An out-of-range index gives an empty view.
  TensorView input(uint32_t i) const;
  TensorView output(uint32_t i) const;
  // Any tensor of subgraph 0 (data is valid only while the plan keeps it alive).
  TensorView tensor(uint32_t index) const;
  // Any tensor of any subgraph; empty view when out of range.
  TensorView subgraph_tensor(uint32_t subgraph, uint32_t index) const;
  uint32_t subgraphs_size() const { return model_.counts.subgraphs; }
  uint32_t tensors_size() const;

  // head + tail after AllocateTensors (temp is empty then).
  uint32_t arena_used_bytes() const { return ArenaUsedBytes(arena_); }
  const MemoryRecord& memory_record() const { return record_; }
  const char* error_message() const { return error_.text; }

 private:
  enum class State : uint8_t { kCreated, kAllocated, kFailed };

  // Phases (interpreter.cc, execution.cc, head_planning.cc).
  StatusCode InitArena();
  StatusCode PrepareAll();
  StatusCode RunSubgraph(uint32_t s);
  StatusCode RunStream(uint32_t first, uint32_t count);  // stream_execution.cc (stream.h)
  StatusCode RunKernelHook(uint32_t s, uint32_t op, StatusCode (*hook)(KernelContext&), const char* what);
  void SetCurrent(uint32_t s, uint32_t op);
  StatusCode OpError(StatusCode code, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
  void OpPrefix(char* prefix, uint32_t cap) const;
  const tfl::Operator& CurrentOp() const { return model_.index.op(current_sg_, current_op_); }
  TensorView View(uint32_t s, int32_t index) const;

  // KernelContext for the op being prepared / evaluated (execution.cc, resources.cc).
  int32_t op_index() const override { return static_cast<int32_t>(current_op_); }
  const char* op_name() const override;
  int32_t op_version() const override;
  const tfl::Operator* op() const override { return &CurrentOp(); }
  uint32_t num_inputs() const override;
  uint32_t num_outputs() const override;
  bool GetInput(uint32_t k, TensorView* out) override;
  bool GetOutput(uint32_t k, TensorView* out) override;
  void* op_data() const override { return tables_.op_data[model_.index.op_base[current_sg_] + current_op_]; }
  void set_op_data(void* data) override { tables_.op_data[model_.index.op_base[current_sg_] + current_op_] = data; }
  StatusCode AllocatePersistent(uint32_t bytes, void** out) override;
  StatusCode AllocateSharedPersistent(const void* key, uint32_t key_bytes, uint32_t bytes, void** out,
                                      bool* fresh) override;
  StatusCode RequestScratch(uint32_t bytes, int32_t* index) override;
  void* GetScratch(int32_t index) override;
  void ReportV(const char* fmt, va_list args) override;
  uint32_t num_subgraphs() const override { return model_.counts.subgraphs; }
  uint32_t subgraph_inputs_size(uint32_t s) const override;
  uint32_t subgraph_outputs_size(uint32_t s) const override;
  bool GetSubgraphInput(uint32_t s, uint32_t k, TensorView* out) override;
  bool GetSubgraphOutput(uint32_t s, uint32_t k, TensorView* out) override;
  StatusCode InvokeSubgraph(uint32_t s) override;
  StatusCode ResourceId(const char* container, const char* shared_name, int32_t* id) override;
  StatusCode AllocateResource(int32_t id, uint32_t bytes, int8_t fill) override;
  StatusCode GetResource(int32_t id, uint8_t** data, uint32_t* bytes) override;
  StatusCode PointOutputAt(uint32_t k, void* data) override;
  bool PlannedRegion(uint8_t** base, uint32_t* bytes) override;
  bool GetExplicitPadding(ExplicitPadding* out) override;
  bool InPlace() override;
  bool StreamPadTop(int32_t* pad_top) override;

  // What the caller gave.
  const uint8_t* model_bytes_;
  size_t model_size_;
  const OpResolver& resolver_;
  InterpreterOptions options_;
  void* arena_buffer_;
  size_t arena_size_;
  SharedArena* shared_ = nullptr;  // set: arena_buffer_ / arena_size_ unused

  Arena arena_;
  ErrorText error_;
  MemoryRecord record_;
  BoundModel model_;          // the checked flatbuffer and its tensor / op numbering
  TailTables tables_;         // per-tensor offsets, kernels, op data, scratch offsets, resources
  ExternalBuffers external_;  // the application's I/O buffers
  State state_ = State::kCreated;

  // Prepare: scratch requests wait at the head's start until planning.
  bool in_prepare_ = false;
  uint32_t num_requests_ = 0;
  uint32_t op_requests_ = 0;  // requests of the op being prepared
  uint32_t shared_list_ = 0;  // newest shared block's header offset + 1 (0: none), execution.cc

  // Execution: the op being prepared / evaluated.
  uint32_t current_sg_ = 0;
  uint32_t current_op_ = 0;  // index within current_sg_
  uint32_t depth_ = 0;       // nested InvokeSubgraph calls
  uint64_t ops_run_ = 0;     // op evaluations in this Invoke
  uint32_t num_resources_ = 0;

  // One output row of a stream segment being evaluated: the views input 0 / output 0 then give.
  struct StreamRow {
    bool active = false;
    int32_t pad_top = 0;
    TensorView in, out;
    int32_t in_dims[4] = {0, 0, 0, 0}, out_dims[4] = {0, 0, 0, 0};
  };
  StreamRow stream_;
};

}  // namespace arenaplan::rt
