// Helpers for the fast-kernel tests (kernels/dsp/): random quantized tensors, and running a
// portable kernel and its fast counterpart on the same tensors to compare every output byte.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernel_a_testutil.h"
#include "tensor_testutil.h"

namespace arenaplan::testing {

// Uniform integers in [lo, hi] and reals in [lo, hi) from one seeded engine.
struct Random {
  explicit Random(uint32_t seed) : engine(seed) {}
  int32_t Int(int32_t lo, int32_t hi) { return std::uniform_int_distribution<int32_t>(lo, hi)(engine); }
  float Real(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(engine); }
  bool Coin() { return Int(0, 1) == 1; }
  template <typename T>
  std::vector<T> Values(size_t n, int32_t lo, int32_t hi) {
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(Int(lo, hi));
    return v;
  }
  std::mt19937 engine;
};

inline size_t Count(const std::vector<int32_t>& dims) {
  size_t n = 1;
  for (int32_t d : dims) n *= static_cast<size_t>(d);
  return n;
}

// Runs `portable` and `fast` on copies of the same output tensor; returns "" when both succeed
// with identical bytes, else what differs. `fast_scratch` receives the fast kernel's scratch
// requests (so a test can check that its fast path, not the fallback, ran).
template <typename Out>
std::string CompareKernels(const rt::KernelRegistration* portable, const rt::KernelRegistration* fast,
                           std::vector<TensorView*> ins, Tensor<Out>* out, const tfl::Operator* op,
                           std::vector<uint32_t>* fast_scratch = nullptr) {
  const std::vector<Out> init = out->data;
  const KernelRun a = RunKernel(portable, ins, {&out->view}, op);
  if (a.status != StatusCode::kOk) return "portable: " + a.error;
  const std::vector<Out> want = out->data;
  std::copy(init.begin(), init.end(), out->data.begin());  // keeps the view's buffer
  const KernelRun b = RunKernel(fast, ins, {&out->view}, op);
  if (b.status != StatusCode::kOk) return "fast: " + b.error;
  if (fast_scratch != nullptr) {
    StatusCode s;
    *fast_scratch = ScratchRequests(fast, ins, {&out->view}, op, &s);
  }
  for (size_t i = 0; i < want.size(); ++i) {
    if (want[i] != out->data[i]) {
      return "element " + std::to_string(i) + ": portable " + std::to_string(want[i]) + ", fast " +
             std::to_string(out->data[i]);
    }
  }
  return "";
}

}  // namespace arenaplan::testing
