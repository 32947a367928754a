// FULLY_CONNECTED with the int8 fast path; the portable kernel (kernels/fully_connected.cc)
// prepares every case and evaluates all others (float, int16). Three weight rows (units) at a time
// against one input row: four input bytes are widened with the input offset added (Sxtab16 /
// Sxtab16Ror8) once for the three rows, four weight bytes per row with the filter offset added
// (zero for per-channel weights), and Smlad sums both halves, so each step is 12 multiply-
// accumulates in 20 instructions; the depth % 4 tail runs the same sums one by one. The sums
// are exact mod 2^32 like the reference's int32 accumulator, the output stage is requantize.h.
// No scratch. O(batches * units * depth).
#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/dsp/intrinsics.h"
#include "runtime/kernels/dsp/registrations.h"
#include "runtime/kernels/dsp/requantize.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

// acc[r] += sum_i (w_r[i] + w_offset) * (x[i] + x_offset), rows r = 0..2. Not inlined: on its
// own the loop keeps every value in a register. On the device, weights without an offset (the
// int8 quantization spec's symmetric weights) take the same steps in assembly: 20 instructions per
// 12 multiply-accumulates, where GCC's schedule of the C needs a register it does not have.
__attribute__((noinline)) void ThreeRows(const int8_t* x, const int8_t* w0, const int8_t* w1, const int8_t* w2,
                                         int32_t depth, int32_t x_offset, int32_t w_offset, int32_t* acc) {
  const uint32_t xo2 = dsp::Splat16(x_offset), wo2 = dsp::Splat16(w_offset);
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2];
  uint32_t groups = static_cast<uint32_t>(depth) / 4u;
#if ARENAPLAN_DSP_NATIVE
  if (w_offset == 0 && groups > 0) {
    uint32_t t, xe, xo, we;
    __asm volatile(
        "1:\n\t"
        "ldr %[t], [%[x]], #4\n\t"
        "sxtab16 %[xe], %[xo2], %[t]\n\t"
        "sxtab16 %[xo], %[xo2], %[t], ror #8\n\t"
        "ldr %[t], [%[w0]], #4\n\t"
        "sxtb16 %[we], %[t]\n\t"
        "sxtb16 %[t], %[t], ror #8\n\t"
        "smlad %[a0], %[we], %[xe], %[a0]\n\t"
        "smlad %[a0], %[t], %[xo], %[a0]\n\t"
        "ldr %[t], [%[w1]], #4\n\t"
        "sxtb16 %[we], %[t]\n\t"
        "sxtb16 %[t], %[t], ror #8\n\t"
        "smlad %[a1], %[we], %[xe], %[a1]\n\t"
        "smlad %[a1], %[t], %[xo], %[a1]\n\t"
        "ldr %[t], [%[w2]], #4\n\t"
        "sxtb16 %[we], %[t]\n\t"
        "sxtb16 %[t], %[t], ror #8\n\t"
        "smlad %[a2], %[we], %[xe], %[a2]\n\t"
        "smlad %[a2], %[t], %[xo], %[a2]\n\t"
        "subs %[groups], %[groups], #1\n\t"
        "bne 1b"
        : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [x] "+r"(x), [w0] "+r"(w0), [w1] "+r"(w1), [w2] "+r"(w2),
          [groups] "+r"(groups), [t] "=&r"(t), [xe] "=&r"(xe), [xo] "=&r"(xo), [we] "=&r"(we)
        : [xo2] "r"(xo2)
        : "cc", "memory");
  }
#endif
  for (; groups > 0; --groups, x += 4, w0 += 4, w1 += 4, w2 += 4) {
    const uint32_t xv = dsp::Load32(x);
    const uint32_t xe = dsp::Sxtab16(xo2, xv), xo = dsp::Sxtab16Ror8(xo2, xv);
    const uint32_t v0 = dsp::Load32(w0), v1 = dsp::Load32(w1), v2 = dsp::Load32(w2);
    a0 = dsp::Smlad(dsp::Sxtab16(wo2, v0), xe, a0);
    a0 = dsp::Smlad(dsp::Sxtab16Ror8(wo2, v0), xo, a0);
    a1 = dsp::Smlad(dsp::Sxtab16(wo2, v1), xe, a1);
    a1 = dsp::Smlad(dsp::Sxtab16Ror8(wo2, v1), xo, a1);
    a2 = dsp::Smlad(dsp::Sxtab16(wo2, v2), xe, a2);
    a2 = dsp::Smlad(dsp::Sxtab16Ror8(wo2, v2), xo, a2);
  }
  for (uint32_t i = 0; i < (static_cast<uint32_t>(depth) & 3u); ++i) {
    const int32_t xi = x[i] + x_offset;
    a0 = static_cast<int32_t>(static_cast<uint32_t>(a0) + static_cast<uint32_t>((w0[i] + w_offset) * xi));
    a1 = static_cast<int32_t>(static_cast<uint32_t>(a1) + static_cast<uint32_t>((w1[i] + w_offset) * xi));
    a2 = static_cast<int32_t>(static_cast<uint32_t>(a2) + static_cast<uint32_t>((w2[i] + w_offset) * xi));
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
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
    for (int32_t u0 = 0; u0 < d.units; u0 += 3) {
      // The last unit stands in for missing ones (computed again, stored again: same value).
      const int32_t us[3] = {u0, u0 + 1 < d.units ? u0 + 1 : d.units - 1, u0 + 2 < d.units ? u0 + 2 : d.units - 1};
      int32_t acc[3];
      for (int32_t i = 0; i < 3; ++i) acc[i] = bias != nullptr ? LoadUnaligned<int32_t>(bias, us[i]) : 0;
      ThreeRows(in, w + us[0] * d.depth, w + us[1] * d.depth, w + us[2] * d.depth, d.depth, d.input_offset, w_offset,
                acc);
      for (int32_t i = 0; i < 3; ++i) {
        const dsp::RequantParams r =
            d.multipliers != nullptr ? dsp::MakeRequant(d.multipliers[us[i]], d.shifts[us[i]]) : shared;
        out[us[i]] = static_cast<int8_t>(dsp::RequantizeClamp(acc[i], r, out_offset, lo, hi));
      }
    }
  }
}

StatusCode Eval(KernelContext& ctx) {
  ConvTensors t;
  RT_RETURN_IF_ERROR(GetConvTensors(ctx, 0, 1, &t));
  if (t.in.type != TensorType::INT8) return Register_FULLY_CONNECTED()->eval(ctx);
  EvalInt8(*static_cast<const FcData*>(ctx.op_data()), t);
  return StatusCode::kOk;
}

StatusCode Prepare(KernelContext& ctx) { return Register_FULLY_CONNECTED()->prepare(ctx); }

}  // namespace

RT_REGISTER_DSP_KERNEL(FULLY_CONNECTED, &Prepare, &Eval)

}  // namespace arenaplan::rt
