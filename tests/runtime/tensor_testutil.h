// Test tensors that own their data and dims, and a one-call kernel run in an arena of a given
// size that reports only the status.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "runtime/kernel_api.h"
#include "runtime/standalone_context.h"

namespace arenaplan::testing {

// `view` points into `data` and `dims`, so a Tensor is neither copied nor moved.
template <typename T>
struct Tensor {
  std::vector<T> data;
  std::vector<int32_t> dims;
  rt::TensorView view;
  Tensor(std::vector<T> d, std::vector<int32_t> s, rt::TensorType type, float scale = 0.0f, int32_t zp = 0)
      : data(std::move(d)), dims(std::move(s)) {
    view = rt::MakeView(data.data(), type, dims.data(), static_cast<int32_t>(dims.size()), scale, zp);
  }
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
};

// Prepare + Eval of one kernel with `arena_bytes` for its persistent data and scratch.
// `ins[k] == nullptr` is an omitted optional input.
inline rt::StatusCode KernelStatus(const rt::KernelRegistration& k, std::vector<rt::TensorView*> ins,
                                   std::vector<rt::TensorView*> outs, const tfl::Operator* op = nullptr,
                                   uint32_t arena_bytes = 512) {
  std::vector<uint8_t> mem(arena_bytes);
  rt::StandaloneContext ctx(ins.data(), static_cast<uint32_t>(ins.size()), outs.data(),
                            static_cast<uint32_t>(outs.size()), op, mem.data(), mem.size());
  return ctx.Run(k);
}

}  // namespace arenaplan::testing
