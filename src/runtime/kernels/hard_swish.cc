// HARD_SWISH, as TFLM (hard_swish.cc, reference/hard_swish.h): float32 x * min(6, max(0, x + 3)) / 6;
// int8 in the reference's 16-bit fixed point: the input (minus its zero point, << 7) is brought to
// the output scale (a rounding doubling high multiply by a 16-bit multiplier) and, separately, to
// a "relu-ish" factor in [0, 1] (saturating shifts around a second 16-bit multiplier, 3.0 ~ 32768);
// their truncating doubling high product is shifted to the output scale, offset and clamped. Both
// multipliers are computed in Prepare as TFLM does (float scale ratios, QuantizeMultiplier, then
// rounded to 16 bits). Other types pass Prepare and fail at eval. O(elements).
#include <cstdint>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

struct HardSwishData {
  int32_t input_zero_point, output_zero_point;
  int16_t reluish_multiplier, output_multiplier;  // Q0.15
  int32_t reluish_exponent, output_exponent;
};

// TFLM DownScaleInt32ToInt16Multiplier: round a Q0.31 multiplier to Q0.15.
int16_t DownScale(int32_t m) {
  constexpr int32_t kRounding = 1 << 15;
  if (m >= INT32_MAX - kRounding) return INT16_MAX;
  return static_cast<int16_t>((m + kRounding) >> 16);
}

// gemmlowp's 16-bit SaturatingRoundingDoublingHighMul.
int16_t Srdhm16(int16_t a, int16_t b) {
  if (a == b && a == INT16_MIN) return INT16_MAX;
  const int32_t ab = static_cast<int32_t>(a) * static_cast<int32_t>(b);
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<int16_t>((ab + nudge) / (1 << 15));
}

// The reference's SaturatingDoublingHighMul: like Srdhm16, truncating toward zero.
int16_t Sdhm16(int16_t a, int16_t b) {
  if (a == b && a == INT16_MIN) return INT16_MAX;
  return static_cast<int16_t>((static_cast<int32_t>(a) * static_cast<int32_t>(b)) / (1 << 15));
}

// gemmlowp's RoundingDivideByPOT on int16 values (exponent in [0, 15]).
int16_t RoundingDivideByPot16(int16_t x, int32_t exponent) {
  const int32_t mask = (1 << exponent) - 1;
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return static_cast<int16_t>((x >> exponent) + (remainder > threshold ? 1 : 0));
}

int16_t SaturatingLeftShift16(int16_t v, int32_t amount) {
  const int64_t r = static_cast<int64_t>(v) * (int64_t{1} << amount);
  return static_cast<int16_t>(r < INT16_MIN ? INT16_MIN : (r > INT16_MAX ? INT16_MAX : r));
}

StatusCode Prepare(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireElementwiseIo(ctx, &in, &out));
  HardSwishData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  if (in.type == TensorType::INT8 || in.type == TensorType::UINT8) {
    if (!(in.scale > 0.0f) || !(out.scale > 0.0f))
      return ctx.Fail(StatusCode::kInvalidModel, "scales must be positive");
    d->input_zero_point = in.zero_point;
    d->output_zero_point = out.zero_point;
    const float hires_input_scale = (1.0f / 128.0f) * in.scale;
    const float reluish_scale = 3.0f / 32768.0f;
    int32_t m = 0;
    int e = 0;
    QuantizeMultiplier(static_cast<double>(hires_input_scale / out.scale), &m, &e);
    d->output_multiplier = DownScale(m);
    d->output_exponent = e;
    if (e > 0) return ctx.Fail(StatusCode::kUnsupported, "output multiplier exponent %d > 0", e);
    QuantizeMultiplier(static_cast<double>(hires_input_scale / reluish_scale), &m, &e);
    d->reluish_multiplier = DownScale(m);
    d->reluish_exponent = e;
    if (e < -15 || e > 30 || d->output_exponent < -15) {
      return ctx.Fail(StatusCode::kUnsupported, "input / output scale ratio out of the 16-bit fixed-point range");
    }
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

int8_t QuantizedHardSwish(const HardSwishData& d, int8_t x) {
  const int16_t v = static_cast<int16_t>(x - d.input_zero_point);
  const int16_t hires = static_cast<int16_t>(v * (1 << 7));
  const int16_t preshift_out = Srdhm16(hires, d.output_multiplier);
  int16_t reluish = hires;
  if (d.reluish_exponent > 0) reluish = SaturatingLeftShift16(reluish, d.reluish_exponent - 1);
  reluish = Srdhm16(reluish, d.reluish_multiplier);
  if (d.reluish_exponent > 0) reluish = SaturatingLeftShift16(reluish, 1);
  if (d.reluish_exponent < 0) reluish = RoundingDivideByPot16(reluish, -d.reluish_exponent);
  reluish = static_cast<int16_t>((reluish + (1 << 15)) >> 1);
  const int16_t preshift = Sdhm16(reluish, preshift_out);
  int32_t o = RoundingDivideByPot16(preshift, -d.output_exponent);
  o = static_cast<int16_t>(o + d.output_zero_point);
  return static_cast<int8_t>(o < -128 ? -128 : (o > 127 ? 127 : o));
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  const int64_t n = ElementCount(in);
  if (in.type == TensorType::FLOAT32) {
    const float* x = in.As<float>();
    float* y = out.As<float>();
    for (int64_t i = 0; i < n; ++i) {
      const float v = x[i];
      const float r = v + 3 > 0.0f ? v + 3 : 0.0f;
      y[i] = v * (r < 6.0f ? r : 6.0f) / 6;
    }
    return StatusCode::kOk;
  }
  if (in.type == TensorType::INT8) {
    const auto& d = *static_cast<const HardSwishData*>(ctx.op_data());
    const int8_t* x = in.As<int8_t>();
    int8_t* y = out.As<int8_t>();
    for (int64_t i = 0; i < n; ++i) y[i] = QuantizedHardSwish(d, x[i]);
    return StatusCode::kOk;
  }
  return ctx.Fail(StatusCode::kUnsupported, "Unsupported type %s", TypeName(in.type));
}

}  // namespace

RT_REGISTER_KERNEL(HARD_SWISH, &Prepare, &Eval)

}  // namespace arenaplan::rt
