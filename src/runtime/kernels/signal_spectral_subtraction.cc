// SignalFilterBankSpectralSubtraction (TFLM Signal library custom op): per channel, a one-pole
// low-pass noise estimate (even / odd channels may use different coefficients)
//   noise = (signal << smoothing_bits) * smoothing + noise * (1 - smoothing)   (Q spectral bits)
// and output = max((signal_up - min(noise, signal_up)) >> smoothing_bits,
//                  signal * min_signal_remaining >> spectral_subtraction_bits).
// Outputs: the cleaned spectrum and a copy of the noise estimate. The estimate itself is
// kernel-internal state in persistent op data: it survives Invokes and is zeroed in prepare
// (TFLM also zeroes it on MicroInterpreter::Reset; see the runtime's reset path). O(channels).
#include <cstring>

#include "runtime/kernels/registrations.h"
#include "runtime/kernels/signal_util.h"

namespace arenaplan::rt {

namespace {

struct SpectralSubtractionData {
  int32_t num_channels;
  uint32_t smoothing, one_minus_smoothing, alternate_smoothing, alternate_one_minus_smoothing;
  uint32_t min_signal_remaining, smoothing_bits, spectral_subtraction_bits;
  bool clamping;
  uint32_t* noise_estimate;  // num_channels, persistent
};

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 2));
  TensorView in, out, noise;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 1, &noise));
  RT_RETURN_IF_ERROR(RequireType(ctx, in, TensorType::UINT32, "input"));
  RT_RETURN_IF_ERROR(RequireType(ctx, out, TensorType::UINT32, "output"));
  RT_RETURN_IF_ERROR(RequireType(ctx, noise, TensorType::UINT32, "noise estimate output"));
  if (in.rank != 1 || out.rank != 1 || noise.rank != 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "input and outputs must be rank 1");
  }
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(SpectralSubtractionData), &mem));
  auto* d = static_cast<SpectralSubtractionData*>(mem);
  *d = SpectralSubtractionData{};
  int32_t v[7] = {};
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "num_channels", &d->num_channels));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "smoothing", &v[0]));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "one_minus_smoothing", &v[1]));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "alternate_smoothing", &v[2]));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "alternate_one_minus_smoothing", &v[3]));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "min_signal_remaining", &v[4]));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "smoothing_bits", &v[5]));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "spectral_subtraction_bits", &v[6]));
  int32_t clamping = 0;
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "clamping", &clamping));
  d->smoothing = static_cast<uint32_t>(v[0]);
  d->one_minus_smoothing = static_cast<uint32_t>(v[1]);
  d->alternate_smoothing = static_cast<uint32_t>(v[2]);
  d->alternate_one_minus_smoothing = static_cast<uint32_t>(v[3]);
  d->min_signal_remaining = static_cast<uint32_t>(v[4]);
  d->smoothing_bits = static_cast<uint32_t>(v[5]);
  d->spectral_subtraction_bits = static_cast<uint32_t>(v[6]);
  d->clamping = clamping != 0;
  const int32_t n = d->num_channels;
  if (n <= 0 || n > in.dims[0] || n > out.dims[0] || n > noise.dims[0] || d->smoothing_bits > 31 ||
      d->spectral_subtraction_bits > 63) {
    return ctx.Fail(StatusCode::kInvalidModel, "num_channels %d / bit counts do not fit the tensors", n);
  }
  void* est = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(static_cast<uint32_t>(n) * 4u, &est));
  d->noise_estimate = static_cast<uint32_t*>(est);
  std::memset(d->noise_estimate, 0, static_cast<size_t>(n) * 4u);  // TFLM's ResetState
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode Eval(KernelContext& ctx) {
  const auto* d = static_cast<const SpectralSubtractionData*>(ctx.op_data());
  TensorView in, out, noise;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 1, &noise));
  const uint32_t* x = in.As<uint32_t>();
  uint32_t* y = out.As<uint32_t>();
  uint32_t* est = d->noise_estimate;
  for (int32_t i = 0; i < d->num_channels; ++i) {
    const bool odd = (i & 1) != 0;
    const uint32_t smoothing = odd ? d->alternate_smoothing : d->smoothing;
    const uint32_t one_minus = odd ? d->alternate_one_minus_smoothing : d->one_minus_smoothing;
    const uint32_t signal_up = x[i] << d->smoothing_bits;
    est[i] = static_cast<uint32_t>(
        (static_cast<uint64_t>(signal_up) * smoothing + static_cast<uint64_t>(est[i]) * one_minus) >>
        d->spectral_subtraction_bits);
    uint32_t estimate_up = est[i];
    if (estimate_up > signal_up) {
      estimate_up = signal_up;
      if (d->clamping) est[i] = estimate_up;
    }
    const uint32_t floor = static_cast<uint32_t>((static_cast<uint64_t>(x[i]) * d->min_signal_remaining) >>
                                                 d->spectral_subtraction_bits);
    const uint32_t subtracted = (signal_up - estimate_up) >> d->smoothing_bits;
    y[i] = subtracted > floor ? subtracted : floor;
  }
  std::memcpy(noise.As<uint32_t>(), est, sizeof(uint32_t) * static_cast<size_t>(d->num_channels));
  return StatusCode::kOk;
}

// Interpreter::Reset: forget the noise estimate (TFLM's Reset of this op zeroes it as Prepare does).
StatusCode Reset(KernelContext& ctx) {
  auto* d = static_cast<SpectralSubtractionData*>(ctx.op_data());
  if (d != nullptr && d->noise_estimate != nullptr && d->num_channels > 0) {
    std::memset(d->noise_estimate, 0, static_cast<size_t>(d->num_channels) * 4u);
  }
  return StatusCode::kOk;
}

const KernelRegistration kSpectralSubtraction{"SignalFilterBankSpectralSubtraction", &Prepare, &Eval, &Reset};

}  // namespace

const KernelRegistration* Register_SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION() { return &kSpectralSubtraction; }

}  // namespace arenaplan::rt
