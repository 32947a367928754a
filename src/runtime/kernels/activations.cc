// Elementwise activations, bit-exact with TFLM's reference kernels:
//   LEAKY_RELU float/int8/int16: x > 0 ? x : alpha * x; quantized with two multipliers computed in
//     float as TFLM does (in_scale * alpha / out_scale and in_scale / out_scale, then
//     QuantizeMultiplier), applied with the int32 MultiplyByQuantizedMultiplier.
//   RELU float/int8/int16: requantize (in_scale / out_scale in double) then clamp at the output's
//     quantized zero.
//   RELU6 float/int8/int16: clamp to [input zero point, quantized 6] in the input's scale (TFLM
//     does not requantize RELU6).
//   LOGISTIC, TANH float: TFLM's reference formulas (logistic with its +16.619/-9 cutoffs).
//   LOGISTIC int8 (output zero point -128, as TFLM requires): input rescaled to Q4.27, then
//     gemmlowp's fixed-point logistic (exp on negative values by a 4th-order polynomial and a
//     barrel of constant multipliers, 1 / (1 + x) by three Newton-Raphson steps), then Q0.31 ->
//     int8. Inputs beyond the saturation radius map straight to -128 / 127.
//   TANH int8: same input rescaling, gemmlowp's fixed-point tanh ((1 - e^2x) / (1 + e^2x) with the
//     same exp and Newton-Raphson pieces), output in Q0.7 as TFLM's reference assumes.
// Every parameter is computed in prepare; eval is one pass. O(elements).
#include <cmath>
#include <cstdint>

#include "runtime/kernels/fixed_point.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

struct QuantParams {
  int32_t in_zp, out_zp;
  int32_t mult_a, shift_a;  // alpha (leaky) / identity (relu)
  int32_t mult_b, shift_b;  // identity (leaky)
  int32_t lo, hi;           // clamp range
  float alpha;              // float leaky
};

uint32_t Count(const TensorView& t) { return t.bytes / TypeSize(t.type); }

bool UnaryTypeOk(TensorType t, bool allow_int16) {
  return t == TensorType::FLOAT32 || t == TensorType::INT8 || (allow_int16 && t == TensorType::INT16);
}

// Common checks: one input, one output, same type and element count, type in the allowed set
// (unless `type_at_invoke`: TFLM's Eval checks it, as for RELU6).
StatusCode CheckUnary(KernelContext& ctx, TensorView* in, TensorView* out, bool allow_int16,
                      bool type_at_invoke = false) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, out));
  if (in->type != out->type) {
    return ctx.Fail(StatusCode::kInvalidModel, "input type %s differs from output type %s", TypeName(in->type),
                    TypeName(out->type));
  }
  const bool ok = UnaryTypeOk(in->type, allow_int16);
  if (!ok && !type_at_invoke) return ctx.Fail(StatusCode::kUnsupported, "type %s not supported", TypeName(in->type));
  if (in->bytes != out->bytes) {
    return ctx.Fail(StatusCode::kInvalidModel, "input has %u bytes, output %u", in->bytes, out->bytes);
  }
  if (ok && in->type != TensorType::FLOAT32 && (in->scale <= 0.0f || out->scale <= 0.0f)) {
    return ctx.Fail(StatusCode::kInvalidModel, "quantized tensors need positive scales");
  }
  return StatusCode::kOk;
}

StatusCode AllocParams(KernelContext& ctx, QuantParams** p) {
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(QuantParams), &mem));
  *p = static_cast<QuantParams*>(mem);
  **p = QuantParams{};
  ctx.set_op_data(*p);
  return StatusCode::kOk;
}

int32_t ClampI(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

// Eval of LEAKY_RELU, RELU and RELU6: one elementwise pass, float through f(p, x), int8 / int16
// through q(p, int32 x) (its int32 result is narrowed to the output type).
template <typename FloatFn, typename QuantFn>
StatusCode EvalElementwise(KernelContext& ctx, FloatFn f, QuantFn q) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const auto& p = *static_cast<const QuantParams*>(ctx.op_data());
  const uint32_t n = Count(out);
  switch (out.type) {
    case TensorType::FLOAT32: {
      const float* x = in.As<float>();
      float* y = out.As<float>();
      for (uint32_t i = 0; i < n; ++i) y[i] = f(p, x[i]);
      break;
    }
    case TensorType::INT8: {
      const int8_t* x = in.As<int8_t>();
      int8_t* y = out.As<int8_t>();
      for (uint32_t i = 0; i < n; ++i) y[i] = static_cast<int8_t>(q(p, static_cast<int32_t>(x[i])));
      break;
    }
    default: {
      const int16_t* x = in.As<int16_t>();
      int16_t* y = out.As<int16_t>();
      for (uint32_t i = 0; i < n; ++i) y[i] = static_cast<int16_t>(q(p, static_cast<int32_t>(x[i])));
      break;
    }
  }
  return StatusCode::kOk;
}

// ---- LEAKY_RELU -------------------------------------------------------------------------------
StatusCode PrepareLeakyRelu(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(CheckUnary(ctx, &in, &out, true));
  QuantParams* p = nullptr;
  RT_RETURN_IF_ERROR(AllocParams(ctx, &p));
  const auto* opts = Options<tfl::LeakyReluOptions>(ctx);
  p->alpha = opts != nullptr ? opts->alpha() : 0.0f;
  if (in.type == TensorType::FLOAT32) return StatusCode::kOk;
  p->in_zp = in.zero_point;
  p->out_zp = out.zero_point;
  int shift = 0;
  // Float arithmetic first, as TFLM: static_cast<double>(in_scale * alpha / out_scale).
  QuantizeMultiplier(static_cast<double>(in.scale * p->alpha / out.scale), &p->mult_a, &shift);
  p->shift_a = shift;
  QuantizeMultiplier(static_cast<double>(in.scale / out.scale), &p->mult_b, &shift);
  p->shift_b = shift;
  QuantizedTypeRange(out.type, &p->lo, &p->hi);
  return StatusCode::kOk;
}

StatusCode EvalLeakyRelu(KernelContext& ctx) {
  return EvalElementwise(
      ctx, [](const QuantParams& p, float x) { return x > 0 ? x : x * p.alpha; },
      [](const QuantParams& p, int32_t x) {
        const int32_t v = x - p.in_zp;
        const int32_t r = v >= 0 ? MultiplyByQuantizedMultiplier(v, p.mult_b, p.shift_b)
                                 : MultiplyByQuantizedMultiplier(v, p.mult_a, p.shift_a);
        return ClampI(p.out_zp + r, p.lo, p.hi);
      });
}

// ---- RELU -------------------------------------------------------------------------------------
StatusCode PrepareRelu(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(CheckUnary(ctx, &in, &out, true, /*type_at_invoke=*/true));
  QuantParams* p = nullptr;
  RT_RETURN_IF_ERROR(AllocParams(ctx, &p));
  if (in.type == TensorType::FLOAT32 || !UnaryTypeOk(in.type, true)) return StatusCode::kOk;
  if (in.type == TensorType::INT16 && (in.zero_point != 0 || out.zero_point != 0)) {
    return ctx.Fail(StatusCode::kInvalidModel, "int16 RELU needs zero points 0 (got %d, %d)", in.zero_point,
                    out.zero_point);
  }
  int shift = 0;
  QuantizeMultiplier(static_cast<double>(in.scale) / static_cast<double>(out.scale), &p->mult_a, &shift);
  p->shift_a = shift;
  p->in_zp = in.zero_point;
  p->out_zp = out.zero_point;
  QuantizedTypeRange(out.type, &p->lo, &p->hi);
  // roundf(0 / scale) is 0: the lower bound is the output zero point.
  if (out.zero_point > p->lo) p->lo = out.zero_point;
  return StatusCode::kOk;
}

StatusCode EvalRelu(KernelContext& ctx) {
  return EvalElementwise(
      ctx, [](const QuantParams&, float x) { return x < 0.0f ? 0.0f : x; },
      [](const QuantParams& p, int32_t x) {
        return ClampI(p.out_zp + MultiplyByQuantizedMultiplier(x - p.in_zp, p.mult_a, p.shift_a), p.lo, p.hi);
      });
}

// ---- RELU6 ------------------------------------------------------------------------------------
StatusCode PrepareRelu6(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(CheckUnary(ctx, &in, &out, true, /*type_at_invoke=*/true));
  QuantParams* p = nullptr;
  RT_RETURN_IF_ERROR(AllocParams(ctx, &p));
  if (in.type == TensorType::FLOAT32 || !UnaryTypeOk(in.type, true)) return StatusCode::kOk;
  int32_t tmin = 0, tmax = 0;
  QuantizedTypeRange(in.type, &tmin, &tmax);
  // TFLM FloatToQuantizedType: round(6 / scale) + zero_point, clamped to the type.
  const float q = std::round(6.0f / in.scale);
  const int64_t six = (q > 2147483647.0f ? INT32_MAX : static_cast<int64_t>(q)) + in.zero_point;
  p->lo = in.zero_point;
  p->hi = static_cast<int32_t>(six < tmin ? tmin : (six > tmax ? tmax : six));
  return StatusCode::kOk;
}

StatusCode EvalRelu6(KernelContext& ctx) {
  TensorView in;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  if (!UnaryTypeOk(in.type, true)) {
    return ctx.Fail(StatusCode::kUnsupported, "Only float32/int8/int16 is supported currently, got %s",
                    TypeName(in.type));
  }
  return EvalElementwise(
      ctx, [](const QuantParams&, float x) { return x > 6.0f ? 6.0f : (x < 0.0f ? 0.0f : x); },
      // Upper bound first, as TFLM (matters only if the bounds cross).
      [](const QuantParams& p, int32_t v) { return v > p.hi ? p.hi : (v < p.lo ? p.lo : v); });
}

// ---- gemmlowp fixed point: kernels/fixed_point.h ----------------------------------------------

// (1 - a) / (1 + a) for a in [0, 1] in Q0.31; result Q0.31 (gemmlowp: Rescale<0>(x - 1)).
int32_t OneMinusXOverOnePlusX(int32_t a) {
  int32_t x = 0;  // 1 / ((1 + a) / 2) in Q2.29
  FpOneOverOnePlusX(a, &x);
  return FpRescale(FpSub(x, 1 << 29), 2, 0);
}

// gemmlowp::tanh on a Q4.27 value; result Q0.31.
int32_t TanhQ4(int32_t a) {
  if (a == 0) return 0;
  const int32_t n = a < 0 ? a : FpSub(0, a);  // -|a|
  // exp(2n): ExactMulByPot<1> relabels Q4 as Q5 without touching the raw value.
  const int32_t t = OneMinusXOverOnePlusX(FpExpOnNegativeValues(n, 5));
  return a < 0 ? FpSub(0, t) : t;
}

// gemmlowp::logistic on a Q4.27 value; result Q0.31.
int32_t LogisticQ4(int32_t a) {
  if (a == 0) return 1 << 30;
  const int32_t abs_a = a > 0 ? a : FpSub(0, a);
  const int32_t pos = FpOneOverOnePlusX(FpExpOnNegativeValues(FpSub(0, abs_a), 4));
  return a > 0 ? pos : FpSub(INT32_MAX, pos);
}

struct LogisticInt8 {
  int32_t in_zp;
  int32_t radius;
  int32_t multiplier;
  int32_t left_shift;
};

// Input rescaling to Q4.27 shared by int8 LOGISTIC and TANH (TFLM's prepare for both).
StatusCode PrepareQ4Input(KernelContext& ctx, const TensorView& in);

StatusCode PrepareLogistic(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(CheckUnary(ctx, &in, &out, false));
  if (in.type == TensorType::FLOAT32) return StatusCode::kOk;
  if (out.zero_point != -128) {
    return ctx.Fail(StatusCode::kInvalidModel, "int8 LOGISTIC needs output zero point -128, got %d", out.zero_point);
  }
  return PrepareQ4Input(ctx, in);
}

StatusCode PrepareTanh(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(CheckUnary(ctx, &in, &out, false));
  if (in.type == TensorType::FLOAT32) return StatusCode::kOk;
  return PrepareQ4Input(ctx, in);
}

StatusCode PrepareQ4Input(KernelContext& ctx, const TensorView& in) {
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(LogisticInt8), &mem));
  auto* d = static_cast<LogisticInt8*>(mem);
  constexpr int kInputIntegerBits = 4;
  const double real = static_cast<double>(in.scale) * static_cast<double>(1 << (31 - kInputIntegerBits));
  int shift = 0;
  const double q = std::frexp(real, &shift);
  const double m = std::round(q * static_cast<double>(1LL << 31));
  d->multiplier = !(m < 2147483647.0) ? INT32_MAX : static_cast<int32_t>(m);  // NaN: hostile scale
  d->left_shift = shift;
  if (shift < -31 || shift > 30) return ctx.Fail(StatusCode::kUnsupported, "input scale out of range");
  // TFLM CalculateInputRadius(4, shift, 31).
  const double max_rescaled = 1.0 * ((1 << kInputIntegerBits) - 1) *
                              static_cast<double>(1LL << (31 - kInputIntegerBits)) / std::ldexp(1.0, shift);
  d->radius = max_rescaled >= 2147483647.0 ? INT32_MAX : static_cast<int32_t>(std::floor(max_rescaled));
  d->in_zp = in.zero_point;
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

// int8 LOGISTIC / TANH: inputs beyond the radius saturate; the others are rescaled to Q4.27 and
// mapped by to_int8 (the fixed-point function and its output rescaling).
template <typename ToInt8>
void Q4Int8Eval(const LogisticInt8& d, const int8_t* x, int8_t* y, uint32_t n, ToInt8 to_int8) {
  for (uint32_t i = 0; i < n; ++i) {
    const int32_t v = static_cast<int32_t>(x[i]) - d.in_zp;
    if (v <= -d.radius) {
      y[i] = -128;
    } else if (v >= d.radius) {
      y[i] = 127;
    } else {
      y[i] = static_cast<int8_t>(to_int8(MultiplyByQuantizedMultiplier(v, d.multiplier, d.left_shift)));
    }
  }
}

void LogisticInt8Eval(const LogisticInt8& d, const int8_t* x, int8_t* y, uint32_t n) {
  Q4Int8Eval(d, x, y, n,
             [](int32_t q4) { return ClampI(RoundingDivideByPOT(LogisticQ4(q4), 31 - 8) - 128, -128, 127); });
}

// TFLM reference: output fixed at scale 1/128, zero point 0 (Q0.7).
void TanhInt8Eval(const LogisticInt8& d, const int8_t* x, int8_t* y, uint32_t n) {
  Q4Int8Eval(d, x, y, n, [](int32_t q4) { return ClampI(RoundingDivideByPOT(TanhQ4(q4), 31 - 7), -128, 127); });
}

// ---- LOGISTIC / TANH (float) -----------------------------------------------------------------
StatusCode EvalLogistic(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const uint32_t n = Count(out);
  if (out.type == TensorType::INT8) {
    LogisticInt8Eval(*static_cast<const LogisticInt8*>(ctx.op_data()), in.As<int8_t>(), out.As<int8_t>(), n);
    return StatusCode::kOk;
  }
  const float* x = in.As<float>();
  float* y = out.As<float>();
  const float cutoff_upper = 16.619047164916992188f;
  const float cutoff_lower = -9.0f;
  for (uint32_t i = 0; i < n; ++i) {
    const float v = x[i];
    y[i] = v > cutoff_upper ? 1.0f : (v < cutoff_lower ? std::exp(v) : 1.0f / (1.0f + std::exp(-v)));
  }
  return StatusCode::kOk;
}

StatusCode EvalTanh(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const uint32_t n = Count(out);
  if (out.type == TensorType::INT8) {
    TanhInt8Eval(*static_cast<const LogisticInt8*>(ctx.op_data()), in.As<int8_t>(), out.As<int8_t>(), n);
    return StatusCode::kOk;
  }
  const float* x = in.As<float>();
  float* y = out.As<float>();
  for (uint32_t i = 0; i < n; ++i) y[i] = std::tanh(x[i]);
  return StatusCode::kOk;
}

const KernelRegistration kLeakyRelu{"LEAKY_RELU", &PrepareLeakyRelu, &EvalLeakyRelu};
const KernelRegistration kRelu{"RELU", &PrepareRelu, &EvalRelu};
const KernelRegistration kRelu6{"RELU6", &PrepareRelu6, &EvalRelu6};
const KernelRegistration kLogistic{"LOGISTIC", &PrepareLogistic, &EvalLogistic};
const KernelRegistration kTanh{"TANH", &PrepareTanh, &EvalTanh};

}  // namespace

const KernelRegistration* Register_LEAKY_RELU() { return &kLeakyRelu; }
const KernelRegistration* Register_LOGISTIC() { return &kLogistic; }
const KernelRegistration* Register_RELU() { return &kRelu; }
const KernelRegistration* Register_RELU6() { return &kRelu6; }
const KernelRegistration* Register_TANH() { return &kTanh; }

}  // namespace arenaplan::rt
