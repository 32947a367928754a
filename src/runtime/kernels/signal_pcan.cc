// SignalPCAN (TFLM Signal library custom op): per-channel automatic gain control,
//   gain = wide_dynamic(noise_estimate) (piecewise quadratic from the int16 gain LUT, 4 entries
//          per octave), snr = (signal * gain) >> snr_shift (Q12),
//   out  = shrink(snr) = snr^2 / 4 below 2.0, snr - 1 above, in Q6.
// Inputs: filter-bank signal (uint32), noise estimate (uint32), gain LUT (int16); option
// 'snr_shift'. O(channels).
#include <cstring>

#include "runtime/kernels/registrations.h"
#include "runtime/kernels/signal_util.h"

namespace arenaplan::rt {

namespace {

constexpr uint32_t kPcanSnrBits = 12;
constexpr uint32_t kPcanOutputBits = 6;

int16_t WideDynamicFunction(uint32_t x, const int16_t* lut) {
  if (x <= 2) return lut[x];
  const int16_t interval = static_cast<int16_t>(MostSignificantBit32(x));
  lut += 4 * interval - 6;
  const int16_t frac = static_cast<int16_t>(((interval < 11) ? (x << (11 - interval)) : (x >> (interval - 11))) &
                                            0x3FF);
  int32_t result = (static_cast<int32_t>(lut[2]) * frac) >> 5;
  result += static_cast<int32_t>(static_cast<uint32_t>(lut[1]) << 5);
  result = static_cast<int32_t>(static_cast<uint32_t>(result) * static_cast<uint32_t>(frac));
  result = (result + (1 << 14)) >> 15;
  result += lut[0];
  return static_cast<int16_t>(result);
}

uint32_t PcanShrink(uint32_t x) {
  if (x < (2u << kPcanSnrBits)) return (x * x) >> (2 + 2 * kPcanSnrBits - kPcanOutputBits);
  return (x >> (kPcanSnrBits - kPcanOutputBits)) - (1u << kPcanOutputBits);
}

struct PcanData {
  int32_t snr_shift;
  int32_t num_channels;
};

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 3, 1));
  TensorView in, noise, lut, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &noise));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 2, &lut));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  RT_RETURN_IF_ERROR(RequireType(ctx, in, TensorType::UINT32, "input"));
  RT_RETURN_IF_ERROR(RequireType(ctx, noise, TensorType::UINT32, "noise estimate"));
  RT_RETURN_IF_ERROR(RequireType(ctx, lut, TensorType::INT16, "gain LUT"));
  RT_RETURN_IF_ERROR(RequireType(ctx, out, TensorType::UINT32, "output"));
  if (in.rank != 1 || noise.rank != 1 || lut.rank != 1 || out.rank != 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "all tensors must be rank 1");
  }
  if (in.dims[0] <= 0 || noise.dims[0] != in.dims[0] || out.dims[0] != in.dims[0]) {
    return ctx.Fail(StatusCode::kInvalidModel, "input, noise estimate and output lengths differ");
  }
  // The LUT is read at 4 * msb(x) - 6 + 2 for msb up to 32: it needs 4 * 32 - 3 = 125 entries.
  if (lut.dims[0] < 125) return ctx.Fail(StatusCode::kInvalidModel, "gain LUT has %d entries, needs 125", lut.dims[0]);
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(PcanData), &mem));
  auto* d = static_cast<PcanData*>(mem);
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "snr_shift", &d->snr_shift));
  if (d->snr_shift < 0 || d->snr_shift > 63)
    return ctx.Fail(StatusCode::kInvalidModel, "snr_shift %d out of range", d->snr_shift);
  d->num_channels = in.dims[0];
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode Eval(KernelContext& ctx) {
  const auto* d = static_cast<const PcanData*>(ctx.op_data());
  TensorView in, noise, lut, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &noise));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 2, &lut));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const uint32_t* x = in.As<uint32_t>();
  const uint32_t* est = noise.As<uint32_t>();
  const int16_t* table = lut.As<int16_t>();
  uint32_t* y = out.As<uint32_t>();
  for (int32_t i = 0; i < d->num_channels; ++i) {
    // int16 gain widened to uint32 (sign-extending), as TFLM's implicit conversion does.
    const uint32_t gain = static_cast<uint32_t>(static_cast<int32_t>(WideDynamicFunction(est[i], table)));
    const uint32_t snr = static_cast<uint32_t>((static_cast<uint64_t>(x[i]) * gain) >> d->snr_shift);
    y[i] = PcanShrink(snr);
  }
  return StatusCode::kOk;
}

const KernelRegistration kPcan{"SignalPCAN", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_SIGNAL_PCAN() { return &kPcan; }

}  // namespace arenaplan::rt
