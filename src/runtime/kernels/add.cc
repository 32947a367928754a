// ADD for float32, int8, int16 and int32 (with broadcasting), bit-exact with TFLM's reference kernels.
// int8/int16: both inputs are rescaled to a common scale 2 * max(s1, s2) with 20 (int16: 15) bits of headroom,
// summed, then rescaled to the output (TFLM add_common.cc); every multiplier comes from
// QuantizeMultiplierSmallerThanOneExp.
#include "runtime/kernels/binary_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

StatusCode Prepare(KernelContext& ctx) {
  // TFLM: int32 is a plain sum, the fused activation ignored (full int32 range).
  return PrepareArithmetic<tfl::AddOptions, AddSubParams>(
      ctx, /*clamp_int32=*/false, [](const TensorView& a, const TensorView& b, const TensorView& out, AddSubParams* q) {
        PrepareAddSubParams<double>(a, b, out, q);  // add_common.cc takes the ratios in double
        return StatusCode::kOk;
      });
}

StatusCode Eval(KernelContext& ctx) {
  return EvalAddSub(ctx, [](auto x, auto y) { return x + y; });
}

}  // namespace

RT_REGISTER_KERNEL(ADD, &Prepare, &Eval)

}  // namespace arenaplan::rt
