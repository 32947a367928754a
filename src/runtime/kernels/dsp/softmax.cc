// SOFTMAX with an int8 fast path; the portable kernel (kernels/softmax.cc) prepares every case and
// evaluates all others (float, int16, rows over kMaxDepth). The reference evaluates the
// fixed-point exponential of each element twice, once for the sum and once for the output; here
// each is evaluated once, kept on the stack, and both passes use it. Every value is the one the
// reference computes (the same softmax_fixed_point steps, in the same order). O(outer * depth),
// kMaxDepth * 4 bytes of stack.
#include <limits>

#include "runtime/kernels/dsp/registrations.h"
#include "runtime/kernels/registrations.h"
#include "runtime/kernels/softmax.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

constexpr int32_t kMaxDepth = 256;

template <typename Out>
void SoftmaxInt8(const SoftmaxData& d, const int8_t* x, Out* y, int32_t outer, int32_t depth) {
  constexpr int32_t kOutMin = std::numeric_limits<Out>::min();
  constexpr int32_t kOutMax = std::numeric_limits<Out>::max();
  int32_t exps[kMaxDepth];  // 0: below diff_min (exp() of anything in range is positive)
  for (int32_t i = 0; i < outer; ++i, x += depth, y += depth) {
    int32_t max = -128;
    for (int32_t c = 0; c < depth; ++c) max = max < x[c] ? x[c] : max;
    uint32_t sum_of_exps = 0;  // Q12.19, wrapping as the reference's Add
    for (int32_t c = 0; c < depth; ++c) {
      const int32_t diff = x[c] - max;
      exps[c] = 0;
      if (diff >= d.diff_min) {
        const int32_t scaled = MultiplyByQuantizedMultiplierGreaterThanOne(diff, d.input_multiplier,
                                                                           d.input_left_shift);
        exps[c] = softmax_fixed_point::ExpOnNegativeValues(scaled);
        sum_of_exps += static_cast<uint32_t>(RoundingDivideByPOT(exps[c], kAccumulationIntegerBits));
      }
    }
    int num_bits_over_unit = 0;
    const int32_t shifted_scale = softmax_fixed_point::GetReciprocal(static_cast<int32_t>(sum_of_exps),
                                                                     kAccumulationIntegerBits, &num_bits_over_unit);
    int exponent = num_bits_over_unit + 31 - static_cast<int>(sizeof(Out) * 8);
    exponent = exponent < 0 ? 0 : (exponent > 31 ? 31 : exponent);  // TFLM checks 0..31
    for (int32_t c = 0; c < depth; ++c) {
      int32_t v = kOutMin;
      if (exps[c] != 0) {
        v = RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(shifted_scale, exps[c]), exponent) + kOutMin;
        v = v > kOutMax ? kOutMax : (v < kOutMin ? kOutMin : v);
      }
      y[c] = static_cast<Out>(v);
    }
  }
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const int32_t depth = Dim(in, -1);
  if (in.type != TensorType::INT8 || depth < 1 || depth > kMaxDepth) return Register_SOFTMAX()->eval(ctx);
  const auto& d = *static_cast<const SoftmaxData*>(ctx.op_data());
  const auto outer = static_cast<int32_t>(ElementCount(in) / depth);
  if (out.type == TensorType::INT16) {
    SoftmaxInt8(d, in.As<int8_t>(), out.As<int16_t>(), outer, depth);
  } else {
    SoftmaxInt8(d, in.As<int8_t>(), out.As<int8_t>(), outer, depth);
  }
  return StatusCode::kOk;
}

StatusCode Prepare(KernelContext& ctx) { return Register_SOFTMAX()->prepare(ctx); }

}  // namespace

RT_REGISTER_DSP_KERNEL(SOFTMAX, &Prepare, &Eval)

}  // namespace arenaplan::rt
