// LOG_SOFTMAX over the last dim, as TFLM (log_softmax.cc, reference/log_softmax.h):
//   float32: x - max - log(sum exp(x - max)), exp / log in float;
//   int8 (output scale 16/256, zero point 127, as TFLM requires): diffs from the row maximum are
//     scaled to Q5.26 (beta = 1), exp'ed in Q0.31 and summed in Q12.19 (gemmlowp), the log of the
//     sum taken in Q5.26 (log_x_for_x_greater_than_or_equal_to_1); each output is
//     (scaled diff - log sum) on the 1/16 output scale + 127, clamped; diffs below the adjusted
//     minimum give -128. Parameters from TFLM's PreprocessLogSoftmaxScalingExp.
// Other types pass Prepare and fail at eval, as on TFLM. O(elements).
#include <cmath>
#include <cstdint>
#include <limits>

#include "runtime/kernels/fixed_point.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

constexpr int kInputIntegerBits = 5;
constexpr int kAccumulationIntegerBits = 12;
constexpr int kOutputIntegerBits = 4;

struct LogSoftmaxData {
  int32_t input_multiplier, input_left_shift;
  int32_t reverse_scaling_divisor, reverse_scaling_left_shift;
  int32_t diff_min;
};

StatusCode PrepareInt8(KernelContext& ctx, const TensorView& in, const TensorView& out) {
  if (out.scale != 16.0f / 256 || out.zero_point != 127) {
    return ctx.Fail(StatusCode::kUnsupported, "int8 output must have scale 1/16 and zero point 127");
  }
  if (!(in.scale > 0.0f)) return ctx.Fail(StatusCode::kInvalidModel, "input scale must be positive");
  LogSoftmaxData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  // PreprocessSoftmaxScaling (beta 1), then the reverse multiplier.
  const double max_real = static_cast<double>((1LL << 31) - 1);
  double real = 1.0 * static_cast<double>(in.scale) * static_cast<double>(1 << (31 - kInputIntegerBits));
  if (real > max_real) real = max_real;
  int left_shift = 0;
  QuantizeMultiplier(real, &d->input_multiplier, &left_shift);
  if (left_shift < 0 || left_shift > 30) return ctx.Fail(StatusCode::kUnsupported, "input scale out of range");
  d->input_left_shift = left_shift;
  const double reverse = static_cast<double>(static_cast<int32_t>(1u << (31 - left_shift))) /
                         static_cast<double>(d->input_multiplier);
  int reverse_shift = 0;
  QuantizeMultiplierSmallerThanOneExp(reverse, &d->reverse_scaling_divisor, &reverse_shift);
  d->reverse_scaling_left_shift = reverse_shift;
  // CalculateInputRadius(5, left_shift).
  const double radius = 1.0 * ((1 << kInputIntegerBits) - 1) * static_cast<double>(1LL << (31 - kInputIntegerBits)) /
                        static_cast<double>(1LL << left_shift);
  d->diff_min = -static_cast<int32_t>(std::floor(radius));
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireSameTypeIo(ctx, &in, &out));
  RT_RETURN_IF_ERROR(RequireSameShape(ctx, in, out, "input and output"));
  if (in.rank < 1) return ctx.Fail(StatusCode::kInvalidModel, "input must have rank >= 1");
  return in.type == TensorType::INT8 ? PrepareInt8(ctx, in, out) : StatusCode::kOk;
}

void LogSoftmaxFloat(const float* x, float* y, int64_t outer, int32_t depth) {
  for (int64_t i = 0; i < outer; ++i, x += depth, y += depth) {
    float max = std::numeric_limits<float>::lowest();
    for (int32_t c = 0; c < depth; ++c) max = max < x[c] ? x[c] : max;
    float sum = 0.f;
    for (int32_t c = 0; c < depth; ++c) sum += std::exp(x[c] - max);
    const float log_sum = std::log(sum);
    for (int32_t c = 0; c < depth; ++c) y[c] = x[c] - max - log_sum;
  }
}

void LogSoftmaxInt8(const LogSoftmaxData& d, const int8_t* x, int8_t* y, int64_t outer, int32_t depth) {
  for (int64_t i = 0; i < outer; ++i, x += depth, y += depth) {
    int8_t max = -128;
    for (int32_t c = 0; c < depth; ++c) max = max < x[c] ? x[c] : max;
    int32_t sum_q12 = 0;
    for (int32_t c = 0; c < depth; ++c) {
      const int32_t diff = static_cast<int32_t>(x[c]) - max;
      if (diff < d.diff_min) continue;
      const int32_t q5 = MultiplyByQuantizedMultiplier(diff, d.input_multiplier, d.input_left_shift);
      sum_q12 = FpAdd(sum_q12, FpRescale(FpExpOnNegativeValues(q5, kInputIntegerBits), 0, kAccumulationIntegerBits));
    }
    const int32_t log_sum_q5 = FpLogXGreaterThanOrEqualTo1(sum_q12, kAccumulationIntegerBits, kInputIntegerBits);
    const int32_t shifted_log_sum = FpAdd(log_sum_q5, std::numeric_limits<int32_t>::min());
    const int32_t reversed = MultiplyByQuantizedMultiplier(shifted_log_sum, d.reverse_scaling_divisor,
                                                           d.reverse_scaling_left_shift);
    const int32_t adjusted_diff_min = d.diff_min - 1 > reversed ? d.diff_min - 1 : reversed;
    for (int32_t c = 0; c < depth; ++c) {
      const int32_t diff = static_cast<int32_t>(x[c]) - max;
      if (diff <= adjusted_diff_min) {
        y[c] = -128;
        continue;
      }
      const int32_t q5 = MultiplyByQuantizedMultiplier(diff, d.input_multiplier, d.input_left_shift);
      int32_t v = RoundingDivideByPOT(FpSub(q5, log_sum_q5), 31 - kInputIntegerBits - kOutputIntegerBits) + 127;
      v = v > 127 ? 127 : (v < -128 ? -128 : v);
      y[c] = static_cast<int8_t>(v);
    }
  }
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  const int32_t depth = Dim(in, -1);
  const int64_t outer = depth > 0 ? ElementCount(in) / depth : 0;
  if (in.type == TensorType::FLOAT32) {
    LogSoftmaxFloat(in.As<float>(), out.As<float>(), outer, depth);
    return StatusCode::kOk;
  }
  if (in.type == TensorType::INT8) {
    LogSoftmaxInt8(*static_cast<const LogSoftmaxData*>(ctx.op_data()), in.As<int8_t>(), out.As<int8_t>(), outer, depth);
    return StatusCode::kOk;
  }
  return ctx.Fail(StatusCode::kUnsupported, "LOG_SOFTMAX only supports float32, int8, got %s.", TypeName(in.type));
}

}  // namespace

RT_REGISTER_KERNEL(LOG_SOFTMAX, &Prepare, &Eval)

}  // namespace arenaplan::rt
