// SUB for float32, int32, int8 and int16 with broadcasting (up to 6D), bit-exact with TFLM's
// reference kernels. Quantized: both inputs are shifted left (20 bits for int8, 15 for int16),
// rescaled to a common scale 2 * max(s1, s2), subtracted and rescaled to the output; the three
// multipliers come from QuantizeMultiplierSmallerThanOneExp of ratios TFLM computes in float.
// O(output elements).
#include "runtime/kernels/binary_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

StatusCode Prepare(KernelContext& ctx) {
  return PrepareArithmetic<tfl::SubOptions, AddSubParams>(
      ctx, /*clamp_int32=*/true,
      [&ctx](const TensorView& a, const TensorView& b, const TensorView& out, AddSubParams* q) {
        PrepareAddSubParams<float>(a, b, out, q);  // sub_common.cc takes the ratios in float
        if (q->in1_shift > 0 || q->in2_shift > 0 || q->out_shift > 0) {
          // TFLM assumes multipliers < 1; refuse rather than misbehave
          return ctx.Fail(StatusCode::kUnsupported, "scales give a rescaling multiplier >= 1");
        }
        return StatusCode::kOk;
      });
}

StatusCode Eval(KernelContext& ctx) {
  return EvalAddSub(ctx, [](auto x, auto y) { return x - y; });
}

}  // namespace

RT_REGISTER_KERNEL(SUB, &Prepare, &Eval)

}  // namespace arenaplan::rt
