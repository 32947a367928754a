// Shared pieces of the broadcasting binary kernels (ADD, SUB, MUL, DIV, FLOOR_DIV, FLOOR_MOD,
// SQUARED_DIFFERENCE, comparisons, MINIMUM/MAXIMUM): tensor fetching and checks, the broadcast
// setup, activation ranges, ADD/SUB's common-scale requantization (TFLM add_common.cc and
// sub_common.cc), and the prepare and eval ADD, SUB and MUL share. Prepare is O(1), eval
// O(output elements).
#pragma once

#include <cstdint>

#include "runtime/kernel_api.h"
#include "runtime/kernels/broadcast.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

// Inputs 0, 1 and output 0 (eval, or after the prepare checks).
StatusCode GetBinaryTensors(KernelContext& ctx, TensorView* a, TensorView* b, TensorView* out);

// Prepare: exactly 2 inputs and 1 output, both input types equal to the output type.
StatusCode PrepareSameTypeBinary(KernelContext& ctx, TensorView* a, TensorView* b, TensorView* out);

// Prepare: fills *bc, or fails naming the ranks that do not broadcast to the output.
StatusCode PrepareBroadcast(KernelContext& ctx, const TensorView& a, const TensorView& b, const TensorView& out,
                            Broadcast* bc);

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
    // In 64 bits and wrapped to 32 as TFLM's int32 arithmetic would (for valid zero points nothing
    // wraps): a hostile zero point must not make signed overflow UB.
    const int32_t v1 = static_cast<int32_t>(
        static_cast<uint32_t>((int64_t{p.in1_offset} + x[i]) * (int64_t{1} << p.left_shift)));
    const int32_t v2 = static_cast<int32_t>(
        static_cast<uint32_t>((int64_t{p.in2_offset} + y[j]) * (int64_t{1} << p.left_shift)));
    const int32_t s1 = MultiplyByQuantizedMultiplierSmallerThanOneExp(v1, p.in1_mult, p.in1_shift);
    const int32_t s2 = MultiplyByQuantizedMultiplierSmallerThanOneExp(v2, p.in2_mult, p.in2_shift);
    const int32_t sum = static_cast<int32_t>(combine(static_cast<uint32_t>(s1), static_cast<uint32_t>(s2)));
    const int32_t r = static_cast<int32_t>(
        static_cast<uint32_t>(MultiplyByQuantizedMultiplierSmallerThanOneExp(sum, p.out_mult, p.out_shift)) +
        static_cast<uint32_t>(p.out_offset));
    z[o] = static_cast<T>(ClampInt32(r, p.act_min, p.act_max));
  });
}

// MUL on int8/int16: the product of the offset inputs requantized once (out_mult, out_shift).
struct MulParams {
  int32_t in1_offset, in2_offset, out_offset;
  int32_t out_mult, out_shift;
  int32_t act_min, act_max;
};

// Op data of ADD, SUB and MUL: the broadcast, the op's int8/int16 parameters Q (whose
// act_min/act_max also clamp int32) and the float32 clamp range.
template <typename Q>
struct ArithmeticData {
  Broadcast bc;
  Q q;
  float act_min_f, act_max_f;
};

// Prepare of ADD, SUB and MUL: operands of the output's type (float32, int8, int16, int32), the
// broadcast and the range of the fused activation in options Opts. int32 clamps to the truncated
// float range if clamp_int32, else not at all (TFLM's ADD ignores the activation there).
// int8/int16 need positive scales; prepare_quantized(a, b, out, &q) -> StatusCode then fills the rest.
template <typename Opts, typename Q, typename PrepareQuantized>
StatusCode PrepareArithmetic(KernelContext& ctx, bool clamp_int32, PrepareQuantized prepare_quantized) {
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(PrepareSameTypeBinary(ctx, &a, &b, &out));
  RT_RETURN_IF_ERROR(RequireNumericType(ctx, out.type));
  ArithmeticData<Q>* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  RT_RETURN_IF_ERROR(PrepareBroadcast(ctx, a, b, out, &d->bc));
  const auto* opts = Options<Opts>(ctx);
  const auto act = opts != nullptr ? opts->fused_activation_function() : tfl::ActivationFunctionType::NONE;
  bool ok = true;
  if (out.type == TensorType::FLOAT32) {
    ok = CalculateActivationRangeFloat(act, &d->act_min_f, &d->act_max_f);
  } else if (out.type == TensorType::INT32) {
    if (clamp_int32) {
      ok = CalculateActivationRangeInt32(act, &d->act_min_f, &d->act_max_f, &d->q.act_min, &d->q.act_max);
    } else {
      d->q.act_min = INT32_MIN;
      d->q.act_max = INT32_MAX;
    }
  } else {
    if (a.scale <= 0.0f || b.scale <= 0.0f || out.scale <= 0.0f) {
      return ctx.Fail(StatusCode::kInvalidModel, "quantized tensors need positive scales");
    }
    RT_RETURN_IF_ERROR(prepare_quantized(a, b, out, &d->q));
    ok = CalculateActivationRangeQuantized(act, out, &d->q.act_min, &d->q.act_max);
  }
  if (!ok) return ctx.Fail(StatusCode::kUnsupported, "fused activation %d not supported", static_cast<int>(act));
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

// Eval of ADD, SUB and MUL (after PrepareArithmetic<..., Q>): float32 and int32 apply op and
// clamp, int32 on uint32 so that it wraps like TFLM; int8/int16 call quantized(d, x, y, z).
template <typename Q, typename Op, typename Quantized>
StatusCode EvalArithmetic(KernelContext& ctx, Op op, Quantized quantized) {
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(GetBinaryTensors(ctx, &a, &b, &out));
  const auto& d = *static_cast<const ArithmeticData<Q>*>(ctx.op_data());
  switch (out.type) {
    case TensorType::FLOAT32: {
      const float* x = a.As<float>();
      const float* y = b.As<float>();
      float* z = out.As<float>();
      ForEachBroadcast(
          d.bc, [&](int32_t o, int32_t i, int32_t j) { z[o] = ClampFloat(op(x[i], y[j]), d.act_min_f, d.act_max_f); });
      break;
    }
    case TensorType::INT32: {
      const int32_t* x = a.As<int32_t>();
      const int32_t* y = b.As<int32_t>();
      int32_t* z = out.As<int32_t>();
      ForEachBroadcast(d.bc, [&](int32_t o, int32_t i, int32_t j) {
        const int32_t v = static_cast<int32_t>(op(static_cast<uint32_t>(x[i]), static_cast<uint32_t>(y[j])));
        z[o] = ClampInt32(v, d.q.act_min, d.q.act_max);
      });
      break;
    }
    case TensorType::INT8: quantized(d, a.As<int8_t>(), b.As<int8_t>(), out.As<int8_t>()); break;
    default: quantized(d, a.As<int16_t>(), b.As<int16_t>(), out.As<int16_t>()); break;
  }
  return StatusCode::kOk;
}

// Eval of ADD and SUB: combine(x, y) is the sum or the difference.
template <typename Combine>
StatusCode EvalAddSub(KernelContext& ctx, Combine combine) {
  return EvalArithmetic<AddSubParams>(ctx, combine, [&](const auto& d, const auto* x, const auto* y, auto* z) {
    AddSubQuantized(d.bc, d.q, x, y, z, combine);
  });
}

}  // namespace arenaplan::rt
