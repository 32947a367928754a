// SignalIrfft (TFLM Signal library custom op; int16, int32, float32): the inverse real FFT of each
// frame of fft_length / 2 + 1 complex bins into fft_length samples, bit-exact with TFLM
// (irfft.cc, irfft_{int16,int32,float}.cc): KISS FFT's kiss_fftri (kiss_fft.h) with inverse
// twiddles; float32 then divides by fft_length (KISS does not scale), the fixed-point builds keep
// KISS's per-stage scaling. Options T and fft_length from the custom options. Radix 4 and 2
// stages only (power-of-two fft_length / 2). O(n log n) per frame.
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/kiss_fft.h"
#include "runtime/kernels/registrations.h"
#include "runtime/kernels/signal_util.h"

namespace arenaplan::rt {

namespace {

template <typename S>
struct IrfftData {
  int32_t fft_length, input_length, input_size, output_length;
  KissFft<S> fft;                // inverse complex FFT of fft_length / 2
  KissCpx<S>* super_twiddles;    // fft_length / 4
  KissCpx<S>* tmpbuf;            // fft_length / 2
};

template <typename S>
StatusCode PrepareTyped(KernelContext& ctx, const TensorView& in, const TensorView& out, int32_t fft_length) {
  IrfftData<S>* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  d->fft_length = fft_length;
  d->fft.nfft = fft_length / 2;
  d->fft.inverse = true;
  d->input_length = in.dims[in.rank - 1] / 2;
  d->input_size = static_cast<int32_t>(ElementCount(in) / 2);
  d->output_length = out.dims[out.rank - 1];
  const int32_t n = d->fft.nfft;
  if (in.dims[in.rank - 1] % 2 != 0 || d->input_length != n + 1 || d->output_length != fft_length ||
      static_cast<int64_t>(d->input_size / d->input_length) * fft_length != ElementCount(out)) {
    return ctx.Fail(StatusCode::kInvalidModel, "frames of %d bins, fft_length %d and %d output samples do not match",
                    d->input_length, fft_length, d->output_length);
  }
  if (!KissFactor(n, d->fft.factors)) {
    return ctx.Fail(StatusCode::kUnsupported, "fft_length %d needs a radix other than 2 or 4", fft_length);
  }
  const uint32_t cpx = static_cast<uint32_t>(sizeof(KissCpx<S>));
  void *tw = nullptr, *stw = nullptr, *tmp = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(cpx * n, &tw));
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(cpx * (n / 2 + 1), &stw));
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(cpx * n, &tmp));
  d->super_twiddles = static_cast<KissCpx<S>*>(stw);
  d->tmpbuf = static_cast<KissCpx<S>*>(tmp);
  KissTwiddles<S>(n, true, static_cast<KissCpx<S>*>(tw), d->super_twiddles);
  d->fft.twiddles = static_cast<KissCpx<S>*>(tw);
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  int32_t type = 0, fft_length = 0;
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "T", &type));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "fft_length", &fft_length));
  const auto t = static_cast<TensorType>(type);
  if (t != TensorType::INT16 && t != TensorType::INT32 && t != TensorType::FLOAT32) {
    return ctx.Fail(StatusCode::kUnsupported, "IRFFT type T = %d not supported (int16, int32, float32)", type);
  }
  RT_RETURN_IF_ERROR(RequireType(ctx, in, t, "input"));
  RT_RETURN_IF_ERROR(RequireType(ctx, out, t, "output"));
  if (in.rank < 1 || in.rank != out.rank) return ctx.Fail(StatusCode::kInvalidModel, "input and output ranks differ");
  if (fft_length < 4 || fft_length > (1 << 16) || fft_length % 2 != 0) {
    return ctx.Fail(StatusCode::kInvalidModel, "fft_length %d invalid", fft_length);
  }
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
    KissFftri(d.fft, d.super_twiddles, x + i, d.tmpbuf, y + o);
    if constexpr (!KissMath<S>::kFixed) {
      for (int32_t k = 0; k < d.fft_length; ++k) y[o + k] /= d.fft_length;
    }
  }
  return StatusCode::kOk;
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (in.type == TensorType::INT16) return EvalTyped<int16_t>(ctx, in, out);
  if (in.type == TensorType::INT32) return EvalTyped<int32_t>(ctx, in, out);
  return EvalTyped<float>(ctx, in, out);
}

}  // namespace

const KernelRegistration* Register_SIGNAL_IRFFT() {
  static constexpr KernelRegistration kRegistration{"SignalIrfft", &Prepare, &Eval};
  return &kRegistration;
}

}  // namespace arenaplan::rt
