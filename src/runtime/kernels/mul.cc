// MUL for float32, int32, int8 and int16 with broadcasting (up to 6D), bit-exact with TFLM's
// reference kernels. Quantized: out = zp_out + MultiplyByQuantizedMultiplier((a - zp_a) * (b - zp_b),
// M, s) with M, s = QuantizeMultiplier(s_a * s_b / s_out) in double, clamped to the activation
// range. int16 requires zero points 0 (as TFLM). O(output elements).
#include "runtime/kernels/binary_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

StatusCode Prepare(KernelContext& ctx) {
  return PrepareArithmetic<tfl::MulOptions, MulParams>(
      ctx, /*clamp_int32=*/true, [&ctx](const TensorView& a, const TensorView& b, const TensorView& out, MulParams* q) {
        if (out.type == TensorType::INT16 && (a.zero_point != 0 || b.zero_point != 0 || out.zero_point != 0)) {
          return ctx.Fail(StatusCode::kInvalidModel, "int16 MUL needs zero points 0");
        }
        int shift = 0;
        QuantizeMultiplier(static_cast<double>(a.scale) * static_cast<double>(b.scale) / static_cast<double>(out.scale),
                           &q->out_mult, &shift);
        q->out_shift = shift;
        q->in1_offset = -a.zero_point;
        q->in2_offset = -b.zero_point;
        q->out_offset = out.zero_point;
        return StatusCode::kOk;
      });
}

template <typename T>
void MulQuant(const ArithmeticData<MulParams>& d, const T* x, const T* y, T* z) {
  const MulParams& q = d.q;
  ForEachBroadcast(d.bc, [&](int32_t o, int32_t i, int32_t j) {
    const int32_t v = (q.in1_offset + x[i]) * (q.in2_offset + y[j]);
    const int32_t r = q.out_offset + MultiplyByQuantizedMultiplier(v, q.out_mult, q.out_shift);
    z[o] = static_cast<T>(ClampInt32(r, q.act_min, q.act_max));
  });
}

StatusCode Eval(KernelContext& ctx) {
  return EvalArithmetic<MulParams>(
      ctx, [](auto x, auto y) { return x * y; },
      [](const auto& d, const auto* x, const auto* y, auto* z) { MulQuant(d, x, y, z); });
}

}  // namespace

RT_REGISTER_KERNEL(MUL, &Prepare, &Eval)

}  // namespace arenaplan::rt
