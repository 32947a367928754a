// A KernelContext without an interpreter: runs one kernel over caller-built TensorViews (stack
// arrays in unit tests, or a hand-wired pipeline on a device). Persistent op data and scratch
// come from a small caller buffer; scratch is allocated eagerly at request time, which is fine
// for one node. Holds no global state; each instance is independent.
//
//   int8_t a[4], b[4], out[4]; int32_t dims[1] = {4};
//   TensorView va = MakeView(a, TensorType::INT8, dims, 1, 0.5f, 0), ...;
//   TensorView* ins[] = {&va, &vb}; TensorView* outs[] = {&vo};
//   uint8_t mem[256];
//   StandaloneContext ctx(ins, 2, outs, 1, op /* or nullptr */, mem, sizeof(mem));
//   ASSERT_EQ(ctx.Run(*Register_ADD()), StatusCode::kOk) << ctx.error().text;
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/arena.h"
#include "runtime/kernel_api.h"

namespace arenaplan::rt {

class StandaloneContext final : public KernelContext {
 public:
  // `inputs[k] == nullptr` is an omitted optional input. Arrays must outlive the context.
  StandaloneContext(TensorView* const* inputs, uint32_t num_inputs, TensorView* const* outputs, uint32_t num_outputs,
                    const tfl::Operator* op, void* memory, size_t memory_bytes, const char* name = "KERNEL",
                    int32_t version = 1);

  // prepare (if any), then eval.
  StatusCode Run(const KernelRegistration& kernel);
  StatusCode Prepare(const KernelRegistration& kernel);
  StatusCode Eval(const KernelRegistration& kernel);
  const ErrorText& error() const { return error_; }
  uint32_t memory_used() const { return ArenaUsedBytes(arena_); }

  int32_t op_index() const override { return 0; }
  const char* op_name() const override { return name_; }
  int32_t op_version() const override { return version_; }
  const tfl::Operator* op() const override { return op_; }
  uint32_t num_inputs() const override { return num_inputs_; }
  uint32_t num_outputs() const override { return num_outputs_; }
  bool GetInput(uint32_t k, TensorView* out) override;
  bool GetOutput(uint32_t k, TensorView* out) override;
  void* op_data() const override { return op_data_; }
  void set_op_data(void* data) override { op_data_ = data; }
  StatusCode AllocatePersistent(uint32_t bytes, void** out) override;
  StatusCode RequestScratch(uint32_t bytes, int32_t* index) override;
  void* GetScratch(int32_t index) override;
  void ReportV(const char* fmt, va_list args) override;
  // Unit tests of folded padding: the op then reads as if the schedule gave it `p` (nullptr: none).
  void set_explicit_padding(const ExplicitPadding* p) { explicit_padding_ = p; }
  void set_in_place(bool in_place) { in_place_ = in_place; }
  bool InPlace() override { return in_place_; }
  bool GetExplicitPadding(ExplicitPadding* out) override {
    *out = explicit_padding_ != nullptr ? *explicit_padding_ : ExplicitPadding{};
    return explicit_padding_ != nullptr;
  }

 private:
  TensorView* const* inputs_;
  uint32_t num_inputs_;
  TensorView* const* outputs_;
  uint32_t num_outputs_;
  const tfl::Operator* op_;
  const char* name_;
  int32_t version_;
  void* op_data_ = nullptr;
  Arena arena_;
  StatusCode arena_status_;
  uint32_t scratch_offsets_[kMaxScratchPerNode] = {};
  uint32_t scratch_count_ = 0;
  ErrorText error_;
  const ExplicitPadding* explicit_padding_ = nullptr;
  bool in_place_ = false;
};

}  // namespace arenaplan::rt
