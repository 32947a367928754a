// FULLY_CONNECTED with the int8 fast path; the portable kernel (kernels/fully_connected.cc)
// prepares every case and evaluates all others (float, int16). Four weight rows (units) at a time
// against one input row: four input bytes are widened with the input offset added (Sxtab16 /
// Sxtab16Ror8) once for the four rows, four weight bytes per row with the filter offset added
// (zero for per-channel weights), and Smlad sums both halves, so each step is 16 multiply-
// accumulates (24 instructions on the device); the depth % 4 tail runs the same sums one by one.
// Fewer than four remaining units repeat rows (computed twice, stored once). Sums of 16 units at a
// time (on the stack) then go through the output stage (requantize.h) in one run. The sums are
// exact mod 2^32 like the reference's int32 accumulator. No scratch. O(batches * units * depth).
#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/dsp/intrinsics.h"
#include "runtime/kernels/dsp/registrations.h"
#include "runtime/kernels/dsp/requantize.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

// The rows w0, w0 + stride, w2, w2 + stride against x, for depth / 4 groups of four; the layout is
// the device loop's register load order.
struct FourRows {
  const int8_t* x;
  const int8_t* w0;
  const int8_t* w2;
  int32_t stride;
  uint32_t groups;
  uint32_t x_offset2;  // the input offset in both halves
  int32_t* acc;        // four sums, added to
};

// acc[r] += sum over the groups of (w_r[i] + w_offset) * (x[i] + x_offset).
void Groups(FourRows* f, int32_t w_offset) {
  const uint32_t wo2 = dsp::Splat16(w_offset);
  const int8_t *x = f->x, *w0 = f->w0, *w2 = f->w2;
  int32_t a0 = f->acc[0], a1 = f->acc[1], a2 = f->acc[2], a3 = f->acc[3];
  for (uint32_t g = f->groups; g > 0; --g, x += 4, w0 += 4, w2 += 4) {
    const uint32_t xv = dsp::Load32(x);
    const uint32_t xe = dsp::Sxtab16(f->x_offset2, xv), xo = dsp::Sxtab16Ror8(f->x_offset2, xv);
    const auto row = [&](const int8_t* w, int32_t a) {
      const uint32_t v = dsp::Load32(w);
      return dsp::Smlad(dsp::Sxtab16Ror8(wo2, v), xo, dsp::Smlad(dsp::Sxtab16(wo2, v), xe, a));
    };
    a0 = row(w0, a0);
    a1 = row(w0 + f->stride, a1);
    a2 = row(w2, a2);
    a3 = row(w2 + f->stride, a3);
  }
  f->acc[0] = a0;
  f->acc[1] = a1;
  f->acc[2] = a2;
  f->acc[3] = a3;
}

#if ARENAPLAN_DSP_NATIVE
// One group of four depth values for the four rows (registers as in SymmetricGroups).
#define ARENAPLAN_FC_GROUP           \
  "ldr r10, [r0], #4\n\t"            \
  "sxtab16 r11, r9, r10\n\t"         \
  "sxtab16 r12, r9, r10, ror #8\n\t" \
  "ldr r10, [r1, r3]\n\t"            \
  "sxtb16 lr, r10\n\t"               \
  "sxtb16 r10, r10, ror #8\n\t"      \
  "smlad r5, lr, r11, r5\n\t"        \
  "smlad r5, r10, r12, r5\n\t"       \
  "ldr r10, [r1], #4\n\t"            \
  "sxtb16 lr, r10\n\t"               \
  "sxtb16 r10, r10, ror #8\n\t"      \
  "smlad r4, lr, r11, r4\n\t"        \
  "smlad r4, r10, r12, r4\n\t"       \
  "ldr r10, [r2, r3]\n\t"            \
  "sxtb16 lr, r10\n\t"               \
  "sxtb16 r10, r10, ror #8\n\t"      \
  "smlad r7, lr, r11, r7\n\t"        \
  "smlad r7, r10, r12, r7\n\t"       \
  "ldr r10, [r2], #4\n\t"            \
  "sxtb16 lr, r10\n\t"               \
  "sxtb16 r10, r10, ror #8\n\t"      \
  "smlad r6, lr, r11, r6\n\t"        \
  "smlad r6, r10, r12, r6\n\t"

// Groups() for weights without an offset (the int8 quantization spec's symmetric weights), in
// assembly: the loop needs all 14 registers (4 sums, 3 row pointers and the stride, the count, the
// offset, 4 temporaries), more than GCC's schedule of the C finds. Two groups per iteration: 24
// instructions per 16 multiply-accumulates. f->groups is even and > 0.
__attribute__((naked, noinline)) void SymmetricPairs(FourRows* /*f*/) {
  __asm volatile(
      "push {r4-r11, lr}\n\t"
      "push {r0}\n\t"
      "ldm r0, {r0-r3, r8-r10}\n\t"  // x w0 w2 stride groups x_offset2 acc
      "ldm r10, {r4-r7}\n\t"
      "lsrs r8, r8, #1\n\t"
      "1:\n\t" ARENAPLAN_FC_GROUP ARENAPLAN_FC_GROUP
      "subs r8, r8, #1\n\t"
      "bne 1b\n\t"
      "pop {r0}\n\t"
      "ldr r0, [r0, #24]\n\t"
      "stm r0, {r4-r7}\n\t"
      "pop {r4-r11, pc}\n\t");
}
#undef ARENAPLAN_FC_GROUP
#endif

// f->acc[r] += sum_i (w_r[i] + w_offset) * (x[i] + x_offset) over the whole row of depth values.
void FourRowSums(FourRows* f, int32_t depth, int32_t x_offset, int32_t w_offset) {
  if (f->groups > 0) {
#if ARENAPLAN_DSP_NATIVE
    if (w_offset == 0 && f->groups >= 2) {
      FourRows pairs = *f;
      pairs.groups &= ~1u;
      SymmetricPairs(&pairs);
      if (f->groups & 1u) {  // the odd last group, in C
        const int32_t done = 4 * static_cast<int32_t>(pairs.groups);
        FourRows last{f->x + done, f->w0 + done, f->w2 + done, f->stride, 1u, f->x_offset2, f->acc};
        Groups(&last, 0);
      }
    } else {
      Groups(f, w_offset);
    }
#else
    Groups(f, w_offset);
#endif
  }
  for (int32_t i = depth & ~3; i < depth; ++i) {
    const int32_t xi = f->x[i] + x_offset;
    const int8_t* rows[4] = {f->w0 + i, f->w0 + f->stride + i, f->w2 + i, f->w2 + f->stride + i};
    for (int32_t r = 0; r < 4; ++r) {
      f->acc[r] = static_cast<int32_t>(static_cast<uint32_t>(f->acc[r]) +
                                       static_cast<uint32_t>((*rows[r] + w_offset) * xi));
    }
  }
}

// The sums of units u0 .. u0 + n - 1 (n <= 4) into acc[0 .. n); acc has room for four.
void UnitSums(const FcData& d, FourRows* f, const int8_t* w, const int32_t* bias, int32_t w_offset, int32_t u0,
              int32_t n, int32_t* acc) {
  // Rows u0 + {0, k, m, m + k}: distinct for n = 4, else repeated (n = 3: 0 1 1 2, n = 2: 0 1 0 1).
  const int32_t k = n > 1 ? 1 : 0, m = n == 4 ? 2 : (n == 3 ? 1 : 0);
  f->w0 = w + u0 * d.depth;
  f->w2 = w + (u0 + m) * d.depth;
  f->stride = k * d.depth;
  f->acc = acc;
  acc[0] = bias != nullptr ? LoadUnaligned<int32_t>(bias, u0) : 0;
  acc[1] = bias != nullptr ? LoadUnaligned<int32_t>(bias, u0 + k) : 0;
  acc[2] = bias != nullptr ? LoadUnaligned<int32_t>(bias, u0 + m) : 0;
  acc[3] = bias != nullptr ? LoadUnaligned<int32_t>(bias, u0 + m + k) : 0;
  FourRowSums(f, d.depth, d.input_offset, w_offset);
  if (n == 3) acc[2] = acc[3];
}

// out[u] for every unit u of one input row x: the sums of up to kChunk units (four at a time),
// then their output stage in one run (its constants loaded once per chunk).
void EvalRow(const FcData& d, const int8_t* x, const int8_t* w, const int32_t* bias, int32_t w_offset, int8_t* out) {
  constexpr int32_t kChunk = 16;
  const dsp::RequantParams shared = dsp::MakeRequant(d.multiplier, d.shift);
  const int32_t out_offset = d.output_offset, lo = d.act_min, hi = d.act_max;
  FourRows f{x, nullptr, nullptr, 0, static_cast<uint32_t>(d.depth) / 4u, dsp::Splat16(d.input_offset), nullptr};
  int32_t acc[kChunk];
  for (int32_t c0 = 0; c0 < d.units; c0 += kChunk) {
    const int32_t chunk = d.units - c0 < kChunk ? d.units - c0 : kChunk;
    for (int32_t i = 0; i < chunk; i += 4) {
      UnitSums(d, &f, w, bias, w_offset, c0 + i, chunk - i < 4 ? chunk - i : 4, acc + i);
    }
    if (d.multipliers != nullptr) {
      for (int32_t i = 0; i < chunk; ++i) {
        const dsp::RequantParams r = dsp::MakeRequant(d.multipliers[c0 + i], d.shifts[c0 + i]);
        out[c0 + i] = static_cast<int8_t>(dsp::RequantizeClamp(acc[i], r, out_offset, lo, hi));
      }
    } else {
      dsp::RequantizeRun(acc, chunk, shared, out_offset, lo, hi, 1, out + c0);
    }
  }
}

void EvalInt8(const FcData& d, const ConvTensors& t) {
  const int8_t* in = t.in.As<int8_t>();
  const int32_t* bias = t.has_bias ? t.bias.As<int32_t>() : nullptr;
  int8_t* out = t.out.As<int8_t>();
  const int32_t w_offset = d.multipliers != nullptr ? 0 : d.filter_offset;  // per-channel: TFLM ignores it
  for (int32_t b = 0; b < d.batches; ++b, in += d.depth, out += d.units) {
    EvalRow(d, in, t.filter.As<int8_t>(), bias, w_offset, out);
  }
}

StatusCode Eval(KernelContext& ctx) {
  ConvTensors t;
  RT_RETURN_IF_ERROR(GetConvTensors(ctx, 0, 1, &t));
  if (t.in.type != TensorType::INT8 || t.filter.type != TensorType::INT8) return Register_FULLY_CONNECTED()->eval(ctx);
  EvalInt8(*static_cast<const FcData*>(ctx.op_data()), t);
  return StatusCode::kOk;
}

StatusCode Prepare(KernelContext& ctx) { return Register_FULLY_CONNECTED()->prepare(ctx); }

}  // namespace

RT_REGISTER_DSP_KERNEL(FULLY_CONNECTED, &Prepare, &Eval)

}  // namespace arenaplan::rt
