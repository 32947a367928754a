// ABS and RSQRT, as TFLM (elementwise.cc): float32 std::abs / 1 / std::sqrt; the quantized types
// on integers:
//   ABS int8, int16 (int16 quantized needs zero points 0; int16 without quantization is a plain
//     std::abs): v = |q - zp_in|; with equal scales out = v + zp_out, else
//     MultiplyByQuantizedMultiplier(v, s_in / s_out) + zp_out; clamped to the type;
//   RSQRT int8: v = q - zp_in must be >= 0 (else the Invoke fails, as on TFLM); v = 0 gives 127;
//     else 1 / sqrt(v) from GetInvSqrtQuantizedMultiplierExp, taken to 2^20 and rescaled by
//     1 / (sqrt(s_in) * s_out), + zp_out, clamped.
// Other types fail in Prepare, as on TFLM. O(elements).
#include <cmath>
#include <cstdlib>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

enum class Op : uint8_t { kAbs, kRsqrt };

struct AbsRsqrtData {
  int32_t multiplier;
  int32_t shift;
  int32_t input_offset, output_offset;
  bool quantized, needs_rescale;
};

template <Op kOp>
StatusCode Prepare(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireElementwiseIo(ctx, &in, &out));
  const bool ok = in.type == TensorType::FLOAT32 || in.type == TensorType::INT8 ||
                  (kOp == Op::kAbs && in.type == TensorType::INT16);
  if (!ok) return ctx.Fail(StatusCode::kUnsupported, "Input data type %s is not supported.", TypeName(in.type));
  AbsRsqrtData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  d->quantized = in.type == TensorType::INT8 || (in.type == TensorType::INT16 && in.num_channels > 0);
  if (d->quantized) {
    if (in.num_channels == 0 || out.num_channels == 0) {
      return ctx.Fail(StatusCode::kInvalidModel, "input and output must be quantized");
    }
    d->input_offset = in.zero_point;
    d->output_offset = out.zero_point;
    if (in.type == TensorType::INT16 && (d->input_offset != 0 || d->output_offset != 0)) {
      return ctx.Fail(StatusCode::kInvalidModel, "int16 needs zero points 0");
    }
    d->needs_rescale = in.scale != out.scale;
    int shift = 0;
    if (kOp == Op::kAbs && d->needs_rescale) {
      QuantizeMultiplier(static_cast<double>(in.scale / out.scale), &d->multiplier, &shift);
    } else if (kOp == Op::kRsqrt) {
      QuantizeMultiplier(1. / static_cast<double>(std::sqrt(in.scale) * out.scale), &d->multiplier, &shift);
    }
    d->shift = shift;
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

template <typename T>
T Clamp(int64_t v) {
  const int64_t lo = T(1) << (8 * sizeof(T) - 1);
  return static_cast<T>(v < -lo ? -lo : (v > lo - 1 ? lo - 1 : v));
}

template <typename T>
void AbsQuantized(const AbsRsqrtData& d, const T* x, T* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const int32_t v = std::abs(x[i] - d.input_offset);
    const int32_t scaled = d.needs_rescale ? MultiplyByQuantizedMultiplier(v, d.multiplier, d.shift) : v;
    y[i] = Clamp<T>(static_cast<int64_t>(scaled) + d.output_offset);
  }
}

StatusCode RsqrtInt8(KernelContext& ctx, const AbsRsqrtData& d, const int8_t* x, int8_t* y, int64_t n) {
  constexpr int32_t kShift = 20;  // keeps 1 / sqrt(v) an integer
  for (int64_t i = 0; i < n; ++i) {
    if (x[i] < d.input_offset) return ctx.Fail(StatusCode::kKernelError, "Rsqrt is only defined for positive values");
    const int32_t v = x[i] - d.input_offset;
    if (v == 0) {
      y[i] = 127;  // values near 0 stand for the largest output
      continue;
    }
    int32_t inv_sqrt = 0;
    int inv_shift = 0;
    GetInvSqrtQuantizedMultiplierExp(v, /*reverse_shift=*/-1, &inv_sqrt, &inv_shift);
    const int32_t data = MultiplyByQuantizedMultiplier(int32_t{1}, inv_sqrt, inv_shift + kShift);
    const int32_t o = MultiplyByQuantizedMultiplier(data, d.multiplier, d.shift - kShift) + d.output_offset;
    y[i] = Clamp<int8_t>(o);
  }
  return StatusCode::kOk;
}

template <Op kOp>
StatusCode Eval(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  const auto& d = *static_cast<const AbsRsqrtData*>(ctx.op_data());
  const int64_t n = ElementCount(in);
  if (in.type == TensorType::FLOAT32) {
    const float* x = in.As<float>();
    float* y = out.As<float>();
    for (int64_t i = 0; i < n; ++i) y[i] = kOp == Op::kAbs ? std::abs(x[i]) : 1.f / std::sqrt(x[i]);
    return StatusCode::kOk;
  }
  if (kOp == Op::kRsqrt) return RsqrtInt8(ctx, d, in.As<int8_t>(), out.As<int8_t>(), n);
  if (in.type == TensorType::INT8) {
    AbsQuantized(d, in.As<int8_t>(), out.As<int8_t>(), n);
  } else if (d.quantized) {
    AbsQuantized(d, in.As<int16_t>(), out.As<int16_t>(), n);
  } else {
    const int16_t* x = in.As<int16_t>();
    int16_t* y = out.As<int16_t>();
    for (int64_t i = 0; i < n; ++i) y[i] = static_cast<int16_t>(std::abs(x[i]));
  }
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_KERNEL(ABS, &Prepare<Op::kAbs>, &Eval<Op::kAbs>)
RT_REGISTER_KERNEL(RSQRT, &Prepare<Op::kRsqrt>, &Eval<Op::kRsqrt>)

}  // namespace arenaplan::rt
