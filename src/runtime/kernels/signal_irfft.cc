// SignalIrfft (TFLM Signal library custom op; int16, int32, float32): the inverse real FFT of each
// frame of fft_length / 2 + 1 complex bins into fft_length samples, bit-exact with TFLM
// (irfft.cc, irfft_{int16,int32,float}.cc): KISS FFT's kiss_fftri (kiss_fft.h) with inverse
// twiddles; float32 then divides by fft_length (KISS does not scale), the fixed-point builds keep
// KISS's per-stage scaling. Options T and fft_length from the custom options. Radix 4, 2, 3 and 5
// stages (fft_length / 2 with no larger prime factor). O(n log n) per frame.
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/kiss_fft.h"
#include "runtime/kernels/real_fft.h"
#include "runtime/kernels/registrations.h"
#include "runtime/kernels/signal_util.h"

namespace arenaplan::rt {

namespace {

template <typename S>
struct IrfftData {
  int32_t fft_length, input_length, input_size, output_length;
  RealFft<S> real;  // inverse
};

template <typename S>
StatusCode PrepareTyped(KernelContext& ctx, const TensorView& in, const TensorView& out, int32_t fft_length) {
  IrfftData<S>* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  d->fft_length = fft_length;
  d->input_length = in.dims[in.rank - 1] / 2;
  d->input_size = static_cast<int32_t>(ElementCount(in) / 2);
  d->output_length = out.dims[out.rank - 1];
  if (in.dims[in.rank - 1] % 2 != 0 || d->input_length != fft_length / 2 + 1 || d->output_length != fft_length ||
      static_cast<int64_t>(d->input_size / d->input_length) * fft_length != ElementCount(out)) {
    return ctx.Fail(StatusCode::kInvalidModel, "frames of %d bins, fft_length %d and %d output samples do not match",
                    d->input_length, fft_length, d->output_length);
  }
  RT_RETURN_IF_ERROR(PrepareRealFft(ctx, fft_length, true, &d->real));
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode Prepare(KernelContext& ctx) {
  TensorView in, out;
  TensorType t = TensorType::INT16;
  int32_t fft_length = 0;
  RT_RETURN_IF_ERROR(ReadRealFftOptions(ctx, "IRFFT", &in, &out, &t, &fft_length));
  if (t == TensorType::INT16) return PrepareTyped<int16_t>(ctx, in, out, fft_length);
  if (t == TensorType::INT32) return PrepareTyped<int32_t>(ctx, in, out, fft_length);
  return PrepareTyped<float>(ctx, in, out, fft_length);
}

template <typename S>
StatusCode EvalTyped(KernelContext& ctx, const TensorView& in, const TensorView& out) {
  const auto& d = *static_cast<const IrfftData<S>*>(ctx.op_data());
  const auto* x = in.As<const KissCpx<S>>();
  S* y = out.As<S>();
  for (int32_t i = 0, o = 0; i < d.input_size; i += d.input_length, o += d.output_length) {
    KissFftri(d.real.fft, d.real.super_twiddles, x + i, d.real.tmpbuf, y + o);
    if constexpr (!KissMath<S>::kFixed) {
      for (int32_t k = 0; k < d.fft_length; ++k) y[o + k] /= d.fft_length;
    }
  }
  return StatusCode::kOk;
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  if (in.type == TensorType::INT16) return EvalTyped<int16_t>(ctx, in, out);
  if (in.type == TensorType::INT32) return EvalTyped<int32_t>(ctx, in, out);
  return EvalTyped<float>(ctx, in, out);
}

}  // namespace

RT_REGISTER_NAMED_KERNEL(SIGNAL_IRFFT, "SignalIrfft", &Prepare, &Eval)

}  // namespace arenaplan::rt
