#include "runtime/standalone_context.h"

namespace arenaplan::rt {

StandaloneContext::StandaloneContext(TensorView* const* inputs, uint32_t num_inputs, TensorView* const* outputs,
                                     uint32_t num_outputs, const tfl::Operator* op, void* memory, size_t memory_bytes,
                                     const char* name, int32_t version)
    : inputs_(inputs),
      num_inputs_(num_inputs),
      outputs_(outputs),
      num_outputs_(num_outputs),
      op_(op),
      name_(name),
      version_(version) {
  arena_status_ = ArenaInit(&arena_, memory, memory_bytes, &error_);
}

bool StandaloneContext::GetInput(uint32_t k, TensorView* out) {
  *out = TensorView{};
  if (k >= num_inputs_ || inputs_[k] == nullptr) return false;
  *out = *inputs_[k];
  return true;
}

bool StandaloneContext::GetOutput(uint32_t k, TensorView* out) {
  *out = TensorView{};
  if (k >= num_outputs_ || outputs_[k] == nullptr) return false;
  *out = *outputs_[k];
  return true;
}

StatusCode StandaloneContext::AllocatePersistent(uint32_t bytes, void** out) {
  *out = nullptr;
  if (arena_status_ != StatusCode::kOk) return arena_status_;
  uint32_t offset = 0;
  ErrorText detail;
  const StatusCode s = ArenaAllocTail(&arena_, bytes, kArenaAlignment, &offset, &detail, "persistent buffer");
  if (s != StatusCode::kOk) return Fail(s, "%s", detail.text);
  *out = ArenaPtr(arena_, offset);
  return StatusCode::kOk;
}

StatusCode StandaloneContext::RequestScratch(uint32_t bytes, int32_t* index) {
  if (scratch_count_ >= kMaxScratchPerNode) {
    return Fail(StatusCode::kUnsupported, "more than %u scratch requests", kMaxScratchPerNode);
  }
  void* p = nullptr;
  RT_RETURN_IF_ERROR(AllocatePersistent(bytes, &p));
  scratch_offsets_[scratch_count_] = static_cast<uint32_t>(static_cast<uint8_t*>(p) - arena_.base);
  *index = static_cast<int32_t>(scratch_count_++);
  return StatusCode::kOk;
}

void* StandaloneContext::GetScratch(int32_t index) {
  if (index < 0 || static_cast<uint32_t>(index) >= scratch_count_) return nullptr;
  return ArenaPtr(arena_, scratch_offsets_[index]);
}

void StandaloneContext::ReportV(const char* fmt, va_list args) {
  char prefix[48];
  Format(prefix, sizeof(prefix), "op %d (%s): ", op_index(), name_);
  SetErrorV(&error_, prefix, fmt, args);
}

StatusCode StandaloneContext::Prepare(const KernelRegistration& kernel) {
  if (kernel.prepare == nullptr) return StatusCode::kOk;
  return kernel.prepare(*this);
}

StatusCode StandaloneContext::Eval(const KernelRegistration& kernel) {
  if (kernel.eval == nullptr) return Fail(StatusCode::kUnsupported, "kernel has no eval");
  return kernel.eval(*this);
}

StatusCode StandaloneContext::Run(const KernelRegistration& kernel) {
  RT_RETURN_IF_ERROR(Prepare(kernel));
  return Eval(kernel);
}

}  // namespace arenaplan::rt
