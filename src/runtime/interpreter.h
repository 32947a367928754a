// Runs a .tflite model read in place (weights are never copied) inside one caller-supplied arena:
// subgraph 0, and the subgraphs its WHILE / IF / CALL_ONCE ops call (planned in the same head on
// one lifetime counter, as TFLM does; cyclic or too deep calls are rejected by AllocateTensors). No heap, no exceptions, no mutable statics: two interpreters over two
// arenas are fully independent.
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
// AllocateTensors runs three phases over the arena (see arena.h for the layout):
//   init:    verify the flatbuffer (flatbuffers::Verifier, no allocation) and every index and shape;
//            tail gets the per-tensor offset table, the per-opcode kernel table, per-op data ptrs;
//   prepare: each kernel's prepare (persistent op data in the tail; scratch requests in the head);
//   finish:  scratch table + variable tensors in the tail, lifetimes and plan in temp, then the
//            head is set to the plan size and every tensor / scratch buffer gets its offset.
// The plan comes from, in order: the model's OfflineMemoryAllocation metadata, a CompiledPlan
// given by the caller, or the online planner (TFLM-identical greedy, or best-fit) run in temp.
// Cost: O(tensors + ops) for init and prepare, O(buffers^2) for online planning.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/arena.h"
#include "runtime/kernel_api.h"
#include "runtime/op_resolver.h"
#include "runtime/plan_buffers.h"
#include "runtime/status.h"
#include "runtime/tensor_view.h"

namespace arenaplan::rt {

// A plan compiled into the firmware (e.g. by `arenaplan export --c-header`). Either one offset per
// tensor (subgraph 0, then 1, ...) followed by one per scratch request (count = tensors + requests; entries of
// unplanned tensors are ignored), or one per planned buffer in TFLM's AddBuffer order (count =
// planned buffers). head_bytes is the head size the plan needs (checked: max(offset + size)).
struct CompiledPlan {
  const int32_t* offsets;
  uint32_t count;
  uint32_t head_bytes;
};

struct InterpreterOptions {
  PlannerKind planner = PlannerKind::kGreedy;
  const CompiledPlan* compiled_plan = nullptr;  // used when the model has no offline plan
};

// Where the arena went (filled during AllocateTensors; the "recording mode" figures).
struct MemoryRecord {
  uint32_t head_bytes = 0;           // planned tensors + scratch
  uint32_t tail_bytes = 0;           // all persistent data
  uint32_t tensor_table_bytes = 0;   // 4 per tensor: offset of its data
  uint32_t kernel_table_bytes = 0;   // one pointer per operator code
  uint32_t op_data_ptr_bytes = 0;    // one pointer per op
  uint32_t op_data_bytes = 0;        // kernels' persistent buffers
  uint32_t scratch_table_bytes = 0;  // 4 per scratch request
  uint32_t variable_bytes = 0;       // variable tensors kept in the tail
  uint32_t subgraph_table_bytes = 0; // 8 per subgraph (+8): first tensor / op of each subgraph
  uint32_t resource_table_bytes = 0; // one entry per VAR_HANDLE op
  uint32_t resource_bytes = 0;       // resource variables' data
  uint32_t planning_temp_bytes = 0;  // peak temp use while planning (freed afterwards)
  uint32_t planned_buffers = 0;      // tensors + scratch buffers placed in the head
  uint32_t scratch_requests = 0;
  uint32_t min_arena_bytes = 0;      // smallest arena (16-aligned start) that works, exact
  const char* plan_source = "";      // "offline", "compiled", "greedy", "best-fit"
};

class Interpreter final : private KernelContext {
 public:
  Interpreter(const void* model, size_t model_bytes, const OpResolver& resolver, void* arena,
              size_t arena_bytes, const InterpreterOptions& options = InterpreterOptions());
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  StatusCode AllocateTensors();
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
  uint32_t subgraphs_size() const { return num_subgraphs_; }
  uint32_t tensors_size() const { return num_tensors_; }

  // head + tail after AllocateTensors (temp is empty then).
  uint32_t arena_used_bytes() const { return ArenaUsedBytes(arena_); }
  const MemoryRecord& memory_record() const { return record_; }
  const char* error_message() const { return error_.text; }

 private:
  enum class State : uint8_t { kCreated, kAllocated, kFailed };

  StatusCode Init();
  StatusCode ValidateModel();
  StatusCode ValidateSubgraph(uint32_t s);
  StatusCode ValidateOp(uint32_t s, uint32_t i);
  StatusCode SetUpResources();
  void FillVariables();
  StatusCode RunSubgraph(uint32_t s);
  void SetCurrent(uint32_t s, uint32_t op);
  const tfl::SubGraph* Subgraph(uint32_t s) const { return model_->subgraphs()->Get(s); }
  const tfl::Tensor& TensorAt(uint32_t global) const;
  const KernelRegistration* KernelOf(uint32_t s, uint32_t op) const;
  StatusCode ResolveKernels();
  StatusCode PrepareAll();
  StatusCode Finish();
  StatusCode ReadOfflinePlan(const uint8_t** words, uint32_t* count);
  StatusCode CollectBuffers(PlanBuffer* bufs, uint32_t n, const uint8_t* offline);
  StatusCode ApplyCompiledPlan(PlanBuffer* bufs, uint32_t n);
  StatusCode AllocateVariables(const uint8_t* offline);
  uint32_t CountPlannedBuffers(const uint8_t* offline) const;
  bool NeedsPlanning(uint32_t t, const uint8_t* offline) const;
  int32_t OfflineOffset(const uint8_t* offline, uint32_t t) const;
  StatusCode Tail(uint32_t bytes, uint32_t align, uint32_t* field, const char* what, uint32_t* offset);
  StatusCode OpError(StatusCode code, uint32_t op, const char* fmt, ...) __attribute__((format(printf, 4, 5)));
  const char* OpName(uint32_t op) const;
  TensorView View(uint32_t s, int32_t index) const;
  uint32_t TensorBytes(const tfl::Tensor& t) const;
  const uint8_t* ConstantData(const tfl::Tensor& t, uint32_t* size) const;

  // KernelContext for the op being prepared / evaluated.
  int32_t op_index() const override { return static_cast<int32_t>(current_op_); }
  const char* op_name() const override { return OpName(current_op_); }
  int32_t op_version() const override;
  const tfl::Operator* op() const override;
  uint32_t num_inputs() const override;
  uint32_t num_outputs() const override;
  bool GetInput(uint32_t k, TensorView* out) override;
  bool GetOutput(uint32_t k, TensorView* out) override;
  void* op_data() const override { return op_data_[op_base_[current_sg_] + current_op_]; }
  void set_op_data(void* data) override { op_data_[op_base_[current_sg_] + current_op_] = data; }
  StatusCode AllocatePersistent(uint32_t bytes, void** out) override;
  StatusCode RequestScratch(uint32_t bytes, int32_t* index) override;
  void* GetScratch(int32_t index) override;
  void ReportV(const char* fmt, va_list args) override;
  uint32_t num_subgraphs() const override { return num_subgraphs_; }
  uint32_t subgraph_inputs_size(uint32_t s) const override;
  uint32_t subgraph_outputs_size(uint32_t s) const override;
  bool GetSubgraphInput(uint32_t s, uint32_t k, TensorView* out) override;
  bool GetSubgraphOutput(uint32_t s, uint32_t k, TensorView* out) override;
  StatusCode InvokeSubgraph(uint32_t s) override;
  StatusCode ResourceId(const char* container, const char* shared_name, int32_t* id) override;
  StatusCode AllocateResource(int32_t id, uint32_t bytes, int8_t fill) override;
  StatusCode GetResource(int32_t id, uint8_t** data, uint32_t* bytes) override;
  StatusCode PointOutputAt(uint32_t k, void* data) override;

  const uint8_t* model_bytes_;
  size_t model_size_;
  const OpResolver& resolver_;
  InterpreterOptions options_;
  void* arena_buffer_;
  size_t arena_size_;
  Arena arena_;
  ErrorText error_;
  MemoryRecord record_;
  State state_ = State::kCreated;
  bool in_prepare_ = false;

  const tfl::Model* model_ = nullptr;
  const tfl::SubGraph* subgraph_ = nullptr;         // subgraph 0 (the model's inputs / outputs)
  const tfl::SubGraph* current_ = nullptr;          // subgraph of the op being prepared / evaluated
  uint32_t num_subgraphs_ = 0;
  uint32_t num_tensors_ = 0;                        // of subgraph 0
  uint32_t total_tensors_ = 0;                      // of all subgraphs
  uint32_t total_ops_ = 0;
  uint32_t num_opcodes_ = 0;
  uint32_t current_sg_ = 0;
  uint32_t current_op_ = 0;                         // index within current_sg_
  uint32_t depth_ = 0;                              // nested InvokeSubgraph calls
  // Tables in the arena tail. Tensor / op tables run over all subgraphs: subgraph s starts at
  // tensor_base_[s] / op_base_[s] (num_subgraphs_ + 1 entries each).
  uint32_t* tensor_base_ = nullptr;
  uint32_t* op_base_ = nullptr;
  uint32_t single_bases_[4] = {0, 0, 0, 0};
  uint32_t* tensor_offset_ = nullptr;               // per tensor: arena offset of its data, or kNoBuffer
  const KernelRegistration** kernels_ = nullptr;    // per operator code
  void** op_data_ = nullptr;                        // per op
  struct ResourceVariable* resources_ = nullptr;    // resource_variables.h
  uint32_t resource_capacity_ = 0;                  // = number of VAR_HANDLE ops
  uint32_t num_resources_ = 0;
  uint32_t* scratch_offset_ = nullptr;              // per scratch request
  uint32_t num_requests_ = 0;
  uint32_t op_requests_ = 0;                        // requests of the op being prepared
};

}  // namespace arenaplan::rt
