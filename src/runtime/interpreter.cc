// The interpreter's life cycle: AllocateTensors runs bind (model_binding.h), tables
// (tail_tables.h), prepare (execution.cc) and plan (head_planning.h); Invoke and Reset run the
// kernels (execution.cc); the public views of tensors.
#include "runtime/interpreter.h"

#include <cstring>

#include "runtime/head_planning.h"
#include "runtime/stream.h"

namespace arenaplan::rt {

Interpreter::Interpreter(const void* model, size_t model_bytes, const OpResolver& resolver, void* arena,
                         size_t arena_bytes, const InterpreterOptions& options)
    : model_bytes_(static_cast<const uint8_t*>(model)),
      model_size_(model_bytes),
      resolver_(resolver),
      options_(options),
      arena_buffer_(arena),
      arena_size_(arena_bytes) {}

Interpreter::Interpreter(const void* model, size_t model_bytes, const OpResolver& resolver, SharedArena* shared,
                         const InterpreterOptions& options)
    : Interpreter(model, model_bytes, resolver, nullptr, 0, options) {
  shared_ = shared;
}

namespace {

// In a shared arena the head is overwritten by the other models: a variable tensor the offline
// plan put there would lose its state.
StatusCode CheckStateInTail(const BoundModel& model, const TailTables& tables, const Arena& arena, ErrorText* error) {
  for (uint32_t t = 0; t < model.counts.tensors; ++t) {
    const uint32_t offset = tables.tensor_offset[t];
    if (!model.tensor(t).is_variable() || offset == kNoData || offset >= arena.head) continue;
    SetError(error, "variable tensor %u is in the head (offline plan): a shared arena overwrites it between models", t);
    return StatusCode::kUnsupported;
  }
  return StatusCode::kOk;
}

}  // namespace

StatusCode Interpreter::InitArena() {
  if (shared_ == nullptr) return ArenaInit(&arena_, arena_buffer_, arena_size_, &error_);
  return SharedArenaWindow(*shared_, &arena_, &error_);
}

StatusCode Interpreter::AllocateTensors() {
  if (state_ != State::kCreated) {
    SetError(&error_, "AllocateTensors called twice");
    return StatusCode::kBadState;
  }
  state_ = State::kFailed;
  RT_RETURN_IF_ERROR(InitArena());
  RT_RETURN_IF_ERROR(BindModel(model_bytes_, model_size_, &arena_, &model_, &record_.subgraph_table_bytes, &error_));
  RT_RETURN_IF_ERROR(AllocateTailTables(model_, resolver_, &arena_, &tables_, &record_, &error_));
  RT_RETURN_IF_ERROR(CheckStreams(model_, tables_, &error_));
  RT_RETURN_IF_ERROR(PrepareAll());
  RT_RETURN_IF_ERROR(PlanHead(model_, options_, num_requests_, &arena_, &tables_, &record_, &error_));
  RT_RETURN_IF_ERROR(
      AllocateExternalTable(model_, options_.external_io, &arena_, &external_, &record_.external_table_bytes, &error_));
  record_.head_bytes = arena_.head;
  record_.tail_bytes = ArenaTailBytes(arena_);
  record_.min_arena_bytes = ArenaMinimumBytes(arena_);
  if (shared_ != nullptr) {
    RT_RETURN_IF_ERROR(CheckStateInTail(model_, tables_, arena_, &error_));
    SharedArenaAdd(shared_, arena_, &record_.shared_tail_bytes, &record_.shared_min_arena_bytes);
  }
  error_.text[0] = '\0';
  error_.length = 0;
  state_ = State::kAllocated;
  return StatusCode::kOk;
}

StatusCode Interpreter::Invoke() {
  if (state_ != State::kAllocated) {
    SetError(&error_, "Invoke before a successful AllocateTensors");
    return StatusCode::kBadState;
  }
  RT_RETURN_IF_ERROR(CheckExternalBound(model_, tables_, external_, &error_));
  depth_ = 0;
  ops_run_ = 0;
  const StatusCode s = RunSubgraph(0);
  SetCurrent(0, 0);
  return s;
}

StatusCode Interpreter::BindInput(uint32_t i, void* data, size_t bytes) {
  if (state_ != State::kAllocated) {
    SetError(&error_, "BindInput before a successful AllocateTensors");
    return StatusCode::kBadState;
  }
  return BindExternal(model_, tables_, &external_, false, i, data, bytes, &error_);
}

StatusCode Interpreter::BindOutput(uint32_t i, void* data, size_t bytes) {
  if (state_ != State::kAllocated) {
    SetError(&error_, "BindOutput before a successful AllocateTensors");
    return StatusCode::kBadState;
  }
  return BindExternal(model_, tables_, &external_, true, i, data, bytes, &error_);
}

StatusCode Interpreter::Reset() {
  if (state_ != State::kAllocated) {
    SetError(&error_, "Reset before a successful AllocateTensors");
    return StatusCode::kBadState;
  }
  FillVariables(model_, tables_, arena_);
  for (uint32_t r = 0; r < num_resources_; ++r) {
    const ResourceVariable& v = tables_.resources[r];
    if (v.bytes > 0) std::memset(ArenaPtr(arena_, v.offset), v.fill, v.bytes);
  }
  for (uint32_t sg = 0; sg < model_.counts.subgraphs; ++sg) {
    for (uint32_t i = 0; i < rules::Size(model_.subgraph(sg).operators()); ++i) {
      const KernelRegistration* k = KernelOf(model_, tables_, sg, i);
      if (k->reset != nullptr) RT_RETURN_IF_ERROR(RunKernelHook(sg, i, k->reset, "reset"));
    }
  }
  SetCurrent(0, 0);
  return StatusCode::kOk;
}

uint32_t Interpreter::tensors_size() const {
  return model_.model != nullptr ? rules::Size(model_.subgraph(0).tensors()) : 0;
}

uint32_t Interpreter::inputs_size() const {
  return model_.model != nullptr ? rules::Size(model_.subgraph(0).inputs()) : 0;
}

uint32_t Interpreter::outputs_size() const {
  return model_.model != nullptr ? rules::Size(model_.subgraph(0).outputs()) : 0;
}

TensorView Interpreter::input(uint32_t i) const {
  if (i >= inputs_size()) return TensorView{};
  return View(0, model_.subgraph(0).inputs()->Get(i));
}

TensorView Interpreter::output(uint32_t i) const {
  if (i >= outputs_size()) return TensorView{};
  return View(0, model_.subgraph(0).outputs()->Get(i));
}

TensorView Interpreter::tensor(uint32_t index) const {
  if (index > 0x7FFFFFFFu) return TensorView{};
  return View(0, static_cast<int32_t>(index));
}

TensorView Interpreter::subgraph_tensor(uint32_t subgraph, uint32_t index) const {
  if (index > 0x7FFFFFFFu) return TensorView{};
  return View(subgraph, static_cast<int32_t>(index));
}

}  // namespace arenaplan::rt
