// Shared pieces of the broadcasting binary kernels (ADD, SUB, MUL, DIV, FLOOR_DIV, FLOOR_MOD,
// SQUARED_DIFFERENCE, comparisons, MINIMUM/MAXIMUM): tensor fetching and checks, the broadcast
// setup, activation ranges, and ADD/SUB's common-scale requantization (TFLM add_common.cc and
// sub_common.cc). All O(1) except AddSubQuantized, O(output elements).
#pragma once

#include <cstdint>

#include "runtime/kernel_api.h"
#include "runtime/kernels/broadcast.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

// Inputs 0, 1 and output 0 (eval, or after the prepare checks).
Status GetBinaryTensors(KernelContext& ctx, TensorView* a, TensorView* b, TensorView* out);

// Prepare: exactly 2 inputs and 1 output, both input types equal to the output type.
Status PrepareSameTypeBinary(KernelContext& ctx, TensorView* a, TensorView* b, TensorView* out);

// Prepare: fills *bc, or fails naming the ranks that do not broadcast to the output.
Status PrepareBroadcast(KernelContext& ctx, const TensorView& a, const TensorView& b, const TensorView& out,
                        Broadcast* bc);

// Prepare: zero-initialised persistent op data of type T.
template <typename T>
Status AllocateOpData(KernelContext& ctx, T** out) {
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(T), &mem));
  *out = static_cast<T*>(mem);
  **out = T{};
  return Status::kOk;
}

// The fused activation of an int32 op (TFLM CalculateActivationRange<int32_t>): the float range,
// truncated; NONE and an unbounded top keep the full int32 range. False for an unsupported one.
bool CalculateActivationRangeInt32(tfl::ActivationFunctionType act, float* act_min_f, float* act_max_f,
                                   int32_t* act_min, int32_t* act_max);

// Float activation clamp (NaN passes through).
inline float ClampFloat(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }
inline int32_t ClampInt32(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

// ADD/SUB on int8/int16: both inputs shifted left, rescaled to the common scale 2 * max(s1, s2),
// combined, rescaled to the output, clamped.
struct AddSubParams {
  int32_t in1_offset, in2_offset, out_offset;
  int32_t in1_mult, in2_mult, out_mult;
  int32_t in1_shift, in2_shift, out_shift;
  int32_t left_shift;  // 20 for int8, 15 for int16
  int32_t act_min, act_max;
};

// Prepare: offsets, left shift and the three QuantizeMultiplierSmallerThanOneExp multipliers.
// Real is the type TFLM computes the scale ratios in before widening to double: double for ADD,
// float for SUB (the results differ in the last bits).
template <typename Real>
void PrepareAddSubParams(const TensorView& a, const TensorView& b, const TensorView& out, AddSubParams* p) {
  p->in1_offset = -a.zero_point;
  p->in2_offset = -b.zero_point;
  p->out_offset = out.zero_point;
  p->left_shift = out.type == TensorType::INT16 ? 15 : 20;
  const Real twice_max = static_cast<Real>(2) * static_cast<Real>(a.scale > b.scale ? a.scale : b.scale);
  int s1 = 0, s2 = 0, so = 0;
  QuantizeMultiplierSmallerThanOneExp(static_cast<double>(static_cast<Real>(a.scale) / twice_max), &p->in1_mult, &s1);
  QuantizeMultiplierSmallerThanOneExp(static_cast<double>(static_cast<Real>(b.scale) / twice_max), &p->in2_mult, &s2);
  QuantizeMultiplierSmallerThanOneExp(
      static_cast<double>(twice_max / (static_cast<Real>(1 << p->left_shift) * static_cast<Real>(out.scale))),
      &p->out_mult, &so);
  p->in1_shift = s1;
  p->in2_shift = s2;
  p->out_shift = so;
}

// z = requantized combine(s1, s2) over the broadcast (combine: sum for ADD, difference for SUB).
template <typename T, typename Combine>
void AddSubQuantized(const Broadcast& bc, const AddSubParams& p, const T* x, const T* y, T* z, Combine combine) {
  ForEachBroadcast(bc, [&](int32_t o, int32_t i, int32_t j) {
    const int32_t v1 = (p.in1_offset + x[i]) * (1 << p.left_shift);
    const int32_t v2 = (p.in2_offset + y[j]) * (1 << p.left_shift);
    const int32_t s1 = MultiplyByQuantizedMultiplierSmallerThanOneExp(v1, p.in1_mult, p.in1_shift);
    const int32_t s2 = MultiplyByQuantizedMultiplierSmallerThanOneExp(v2, p.in2_mult, p.in2_shift);
    const int32_t r =
        MultiplyByQuantizedMultiplierSmallerThanOneExp(combine(s1, s2), p.out_mult, p.out_shift) + p.out_offset;
    z[o] = static_cast<T>(ClampInt32(r, p.act_min, p.act_max));
  });
}

}  // namespace arenaplan::rt
