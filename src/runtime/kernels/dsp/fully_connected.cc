// FULLY_CONNECTED with the int8 fast path; the portable kernel (kernels/fully_connected.cc)
// prepares every case and evaluates all others (float, int16). Two weight rows (units) at a time
// against one input row: four input bytes are widened with the input offset added (Sxtab16 /
// Sxtab16Ror8) once for both rows, four weight bytes per row with the filter offset added (zero
// for per-channel weights), and Smlad sums both halves, so each step is 8 multiply-accumulates in
// 13 instructions; the depth % 4 tail and an odd last unit run the same sums one by one. The sums
// are exact mod 2^32 like the reference's int32 accumulator, the output stage is requantize.h.
// No scratch. O(batches * units * depth).
#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/dsp/intrinsics.h"
#include "runtime/kernels/dsp/registrations.h"
#include "runtime/kernels/dsp/requantize.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

// acc[r] += sum_i (w_r[i] + w_offset) * (x[i] + x_offset), rows r = 0, 1. Not inlined: on its own
// the loop keeps every value in a register.
__attribute__((noinline)) void TwoRows(const int8_t* x, const int8_t* w0, const int8_t* w1, int32_t depth,
                                       int32_t x_offset, int32_t w_offset, int32_t* acc) {
  const uint32_t xo2 = dsp::Splat16(x_offset), wo2 = dsp::Splat16(w_offset);
  int32_t a0 = acc[0], a1 = acc[1];
  const int8_t* end = x + (depth & ~3);
  for (; x != end; x += 4, w0 += 4, w1 += 4) {
    const uint32_t xv = dsp::Load32(x);
    const uint32_t xe = dsp::Sxtab16(xo2, xv), xo = dsp::Sxtab16Ror8(xo2, xv);
    const uint32_t v0 = dsp::Load32(w0), v1 = dsp::Load32(w1);
    a0 = dsp::Smlad(dsp::Sxtab16(wo2, v0), xe, a0);
    a0 = dsp::Smlad(dsp::Sxtab16Ror8(wo2, v0), xo, a0);
    a1 = dsp::Smlad(dsp::Sxtab16(wo2, v1), xe, a1);
    a1 = dsp::Smlad(dsp::Sxtab16Ror8(wo2, v1), xo, a1);
  }
  for (int32_t i = 0; i < (depth & 3); ++i) {
    const int32_t xi = x[i] + x_offset;
    a0 = static_cast<int32_t>(static_cast<uint32_t>(a0) + static_cast<uint32_t>((w0[i] + w_offset) * xi));
    a1 = static_cast<int32_t>(static_cast<uint32_t>(a1) + static_cast<uint32_t>((w1[i] + w_offset) * xi));
  }
  acc[0] = a0;
  acc[1] = a1;
}

void EvalInt8(const FcData& d, const ConvTensors& t) {
  const int8_t* in = t.in.As<int8_t>();
  const int8_t* w = t.filter.As<int8_t>();
  const int32_t* bias = t.has_bias ? t.bias.As<int32_t>() : nullptr;
  int8_t* out = t.out.As<int8_t>();
  const int32_t w_offset = d.multipliers != nullptr ? 0 : d.filter_offset;  // per-channel: TFLM ignores it
  const int32_t out_offset = d.output_offset, lo = d.act_min, hi = d.act_max;
  const dsp::RequantParams shared = dsp::MakeRequant(d.multiplier, d.shift);
  for (int32_t b = 0; b < d.batches; ++b, in += d.depth, out += d.units) {
    for (int32_t u0 = 0; u0 < d.units; u0 += 2) {
      const int32_t u1 = u0 + 1 < d.units ? u0 + 1 : u0;  // a lone last unit is paired with itself
      int32_t acc[2] = {bias != nullptr ? LoadUnaligned<int32_t>(bias, u0) : 0,
                        bias != nullptr ? LoadUnaligned<int32_t>(bias, u1) : 0};
      TwoRows(in, w + u0 * d.depth, w + u1 * d.depth, d.depth, d.input_offset, w_offset, acc);
      const int32_t us[2] = {u0, u1};
      for (int32_t i = 0; i < 2; ++i) {
        const dsp::RequantParams r =
            d.multipliers != nullptr ? dsp::MakeRequant(d.multipliers[us[i]], d.shifts[us[i]]) : shared;
        out[us[i]] = static_cast<int8_t>(dsp::RequantizeClamp(acc[i], r, out_offset, lo, hi));
      }
    }
  }
}

Status Eval(KernelContext& ctx) {
  ConvTensors t;
  RT_RETURN_IF_ERROR(GetConvTensors(ctx, 0, 1, &t));
  if (t.in.type != TensorType::INT8) return Register_FULLY_CONNECTED()->eval(ctx);
  EvalInt8(*static_cast<const FcData*>(ctx.op_data()), t);
  return Status::kOk;
}

Status Prepare(KernelContext& ctx) { return Register_FULLY_CONNECTED()->prepare(ctx); }

}  // namespace

RT_REGISTER_DSP_KERNEL(FULLY_CONNECTED, &Prepare, &Eval)

}  // namespace arenaplan::rt
