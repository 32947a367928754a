// QUANTIZE (float32 -> int8/uint8/int16/int32, or requantize from int8/uint8/int16/int32) and
// DEQUANTIZE (int8/uint8/int16 -> float32), bit-exact with TFLM's reference kernels:
//   quantize:   q = clamp(zp + (int32)round(x / scale))      (float division, roundf)
//   requantize: q = clamp(MultiplyByQuantizedMultiplier(x - zp_in, M, s) + zp_out),
//               M, s = QuantizeMultiplier(scale_in / scale_out) (double)
//   dequantize: x = (float)((double)scale * (q - zp))
#include <cmath>

#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

struct QuantizeData {
  int32_t multiplier;
  int32_t shift;
  int32_t in_zero_point;
  int32_t out_zero_point;
  int32_t out_min;
  int32_t out_max;
};

bool IsQuantType(TensorType t) { return t == TensorType::INT8 || t == TensorType::UINT8 || t == TensorType::INT16; }

StatusCode PrepareQuantize(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const bool from_float = in.type == TensorType::FLOAT32;
  if (!from_float && !IsQuantType(in.type) && in.type != TensorType::INT32) {
    return ctx.Fail(StatusCode::kUnsupported, "input type %s not supported", TypeName(in.type));
  }
  if (!IsQuantType(out.type) && out.type != TensorType::INT32) {
    return ctx.Fail(StatusCode::kUnsupported, "output type %s not supported", TypeName(out.type));
  }
  if (out.num_channels != 1 || out.scale <= 0.0f || (!from_float && (in.num_channels != 1 || in.scale <= 0.0f))) {
    return ctx.Fail(StatusCode::kUnsupported, "only per-tensor quantization with a positive scale is supported");
  }
  if (in.bytes / TypeSize(in.type) != out.bytes / TypeSize(out.type)) {
    return ctx.Fail(StatusCode::kInvalidModel, "input and output element counts differ");
  }
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(QuantizeData), &mem));
  auto* d = static_cast<QuantizeData*>(mem);
  int shift = 0;
  QuantizeMultiplier(from_float ? 0.0 : static_cast<double>(in.scale) / static_cast<double>(out.scale), &d->multiplier,
                     &shift);
  d->shift = shift;
  d->in_zero_point = in.zero_point;
  d->out_zero_point = out.zero_point;
  QuantizedTypeRange(out.type, &d->out_min, &d->out_max);
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

int32_t Clamp(int64_t v, int32_t lo, int32_t hi) { return static_cast<int32_t>(v < lo ? lo : (v > hi ? hi : v)); }

int32_t LoadInt(const TensorView& t, uint32_t i) {
  switch (t.type) {
    case TensorType::INT8: return t.As<int8_t>()[i];
    case TensorType::UINT8: return t.As<uint8_t>()[i];
    case TensorType::INT16: return t.As<int16_t>()[i];
    default: return t.As<int32_t>()[i];
  }
}

void StoreInt(const TensorView& t, uint32_t i, int32_t v) {
  switch (t.type) {
    case TensorType::INT8: t.As<int8_t>()[i] = static_cast<int8_t>(v); break;
    case TensorType::UINT8: t.As<uint8_t>()[i] = static_cast<uint8_t>(v); break;
    case TensorType::INT16: t.As<int16_t>()[i] = static_cast<int16_t>(v); break;
    default: t.As<int32_t>()[i] = v; break;
  }
}

StatusCode EvalQuantize(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const auto* d = static_cast<const QuantizeData*>(ctx.op_data());
  const uint32_t n = out.bytes / TypeSize(out.type);
  if (in.type == TensorType::FLOAT32) {
    // In place (rules/schedule.h): the output may start where the input does. Output i (at most 2
    // bytes, at 2i) is stored only after input i (bytes 4i..4i+3) is read, walking forward, so
    // only elements already read are overwritten; keep this loop's order.
    const float* x = in.As<float>();
    for (uint32_t i = 0; i < n; ++i) {
      // A NaN (input or scale) quantizes to the zero point (TFLM's cast of it is undefined).
      const int64_t q = SaturatingRoundToInt32(x[i] / out.scale);
      StoreInt(out, i, Clamp(q + d->out_zero_point, d->out_min, d->out_max));
    }
    return StatusCode::kOk;
  }
  for (uint32_t i = 0; i < n; ++i) {
    // Wrapping subtraction, as TFLM's int32 arithmetic does on every target we know.
    const int32_t x = static_cast<int32_t>(static_cast<uint32_t>(LoadInt(in, i)) -
                                           static_cast<uint32_t>(d->in_zero_point));
    const int32_t v = MultiplyByQuantizedMultiplier(x, d->multiplier, d->shift);
    StoreInt(out, i, Clamp(static_cast<int64_t>(v) + d->out_zero_point, d->out_min, d->out_max));
  }
  return StatusCode::kOk;
}

StatusCode PrepareDequantize(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (!IsQuantType(in.type)) {
    return ctx.Fail(StatusCode::kUnsupported, "input type %s not supported", TypeName(in.type));
  }
  RT_RETURN_IF_ERROR(RequireType(ctx, out, TensorType::FLOAT32, "output"));
  if (in.num_channels != 1) { return ctx.Fail(StatusCode::kUnsupported, "only per-tensor quantization is supported"); }
  if (in.bytes / TypeSize(in.type) != out.bytes / 4) {
    return ctx.Fail(StatusCode::kInvalidModel, "input and output element counts differ");
  }
  return StatusCode::kOk;
}

StatusCode EvalDequantize(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const double scale = static_cast<double>(in.scale);
  const uint32_t n = out.bytes / 4;
  float* y = out.As<float>();
  for (uint32_t i = 0; i < n; ++i) y[i] = static_cast<float>(scale * (LoadInt(in, i) - in.zero_point));
  return StatusCode::kOk;
}

const KernelRegistration kQuantize{"QUANTIZE", &PrepareQuantize, &EvalQuantize};
const KernelRegistration kDequantize{"DEQUANTIZE", &PrepareDequantize, &EvalDequantize};

}  // namespace

const KernelRegistration* Register_QUANTIZE() { return &kQuantize; }
const KernelRegistration* Register_DEQUANTIZE() { return &kDequantize; }

}  // namespace arenaplan::rt
