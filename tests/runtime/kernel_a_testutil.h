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
inline void SetPerChannel(rt::TensorView* v, const std::vector<float>& scales, std::vector<int64_t>* zps,
                          int32_t dim) {
  zps->assign(scales.size(), 0);
  v->scales = scales.data();
  v->zero_points = zps->data();
  v->num_channels = static_cast<int32_t>(scales.size());
  v->quantized_dimension = dim;
  v->scale = scales[0];
  v->zero_point = 0;
}

struct KernelRun {
  rt::Status status = rt::Status::kOk;
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

}  // namespace arenaplan::testing
