// Test helpers for the convolution / pooling / softmax / reduce kernel tests: builtin options as a
// real flatbuffer Operator, per-channel quantized views, and one-call kernel runs on a heap buffer.
#pragma once

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/kernel_api.h"
#include "runtime/standalone_context.h"

namespace arenaplan::testing {

// Kernel tests name these unqualified.
using rt::MakeView;
using rt::StatusCode;
using rt::TensorType;
using rt::TensorView;

// An Operator table that owns its buffer.
struct OpHolder {
  flatbuffers::FlatBufferBuilder fbb;
  const tfl::Operator* op = nullptr;
};

// make(fbb) returns the options table offset (e.g. tfl::CreateConv2DOptions(fbb, ...)).
template <typename Make>
std::unique_ptr<OpHolder> MakeOp(tfl::BuiltinOptions type, Make make) {
  auto h = std::make_unique<OpHolder>();
  auto opts = make(h->fbb);
  auto op = tfl::CreateOperator(h->fbb, 0, 0, 0, type, opts.Union());
  h->fbb.Finish(op);
  h->op = flatbuffers::GetRoot<tfl::Operator>(h->fbb.GetBufferPointer());
  return h;
}

// Gives `v` per-channel scales (zero points all 0) along dimension `dim`.
inline void SetPerChannel(rt::TensorView* v, const std::vector<float>& scales, std::vector<int64_t>* zps, int32_t dim) {
  zps->assign(scales.size(), 0);
  v->scales = scales.data();
  v->num_channels = static_cast<int32_t>(scales.size());
  v->quantized_dimension = dim;
  v->scale = scales[0];
  v->zero_point = 0;
}

struct KernelRun {
  rt::StatusCode status = rt::StatusCode::kOk;
  std::string error;
  uint32_t memory_used = 0;
};

// Prepare + Eval of one kernel. `inputs[k] == nullptr` is an omitted optional input.
inline KernelRun RunKernel(const rt::KernelRegistration* reg, std::vector<rt::TensorView*> inputs,
                           std::vector<rt::TensorView*> outputs, const tfl::Operator* op = nullptr) {
  std::vector<uint8_t> memory(1 << 20);
  rt::StandaloneContext ctx(inputs.data(), static_cast<uint32_t>(inputs.size()), outputs.data(),
                            static_cast<uint32_t>(outputs.size()), op, memory.data(), memory.size(), reg->name);
  KernelRun r;
  r.status = ctx.Run(*reg);
  r.error = ctx.error().text;
  r.memory_used = ctx.memory_used();
  return r;
}

// Runs only `prepare` through a context that records every scratch request size (in order), so
// tests can compare them with the scratch rows of TFLM's golden memory plans.
class ScratchRecorder final : public rt::KernelContext {
 public:
  explicit ScratchRecorder(rt::StandaloneContext* inner) : inner_(inner) {}
  int32_t op_index() const override { return inner_->op_index(); }
  const char* op_name() const override { return inner_->op_name(); }
  int32_t op_version() const override { return inner_->op_version(); }
  const tfl::Operator* op() const override { return inner_->op(); }
  uint32_t num_inputs() const override { return inner_->num_inputs(); }
  uint32_t num_outputs() const override { return inner_->num_outputs(); }
  bool GetInput(uint32_t k, rt::TensorView* out) override { return inner_->GetInput(k, out); }
  bool GetOutput(uint32_t k, rt::TensorView* out) override { return inner_->GetOutput(k, out); }
  void* op_data() const override { return inner_->op_data(); }
  void set_op_data(void* data) override { inner_->set_op_data(data); }
  rt::StatusCode AllocatePersistent(uint32_t bytes, void** out) override {
    return inner_->AllocatePersistent(bytes, out);
  }
  rt::StatusCode RequestScratch(uint32_t bytes, int32_t* index) override {
    sizes.push_back(bytes);
    return inner_->RequestScratch(bytes, index);
  }
  void* GetScratch(int32_t index) override { return inner_->GetScratch(index); }
  void ReportV(const char* fmt, va_list args) override { inner_->ReportV(fmt, args); }

  std::vector<uint32_t> sizes;

 private:
  rt::StandaloneContext* inner_;
};

inline std::vector<uint32_t> ScratchRequests(const rt::KernelRegistration* reg, std::vector<rt::TensorView*> inputs,
                                             std::vector<rt::TensorView*> outputs, const tfl::Operator* op,
                                             rt::StatusCode* status) {
  std::vector<uint8_t> memory(1 << 22);
  rt::StandaloneContext inner(inputs.data(), static_cast<uint32_t>(inputs.size()), outputs.data(),
                              static_cast<uint32_t>(outputs.size()), op, memory.data(), memory.size(), reg->name);
  ScratchRecorder rec(&inner);
  *status = reg->prepare(rec);
  return rec.sizes;
}

}  // namespace arenaplan::testing
