// TFLM Signal library FFT ops:
//  * SignalFftAutoScale: shifts an int16 frame left by the headroom of its largest magnitude
//    (16 - msb(max|x|) - 1 bits, at least 0) and outputs that shift as an int32 scalar. O(n).
//  * SignalRfft (int16, int32, float32): real FFT of each frame zero-padded to fft_length,
//    bit-exact with the KISS FFT builds TFLM links (kiss_fft.h): a complex FFT of length
//    fft_length/2 over the packed (even, odd) samples (fixed point: every butterfly stage divides
//    by its radix with rounding), then kiss_fftr's split into fft_length/2 + 1 bins. Twiddles are
//    computed in double at prepare. O(n log n) per frame. Radix 4, 2, 3 and 5 stages; a length
//    whose half has a larger prime factor is refused (TFLM's KISS build cannot run it).
#include <cmath>
#include <cstring>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/kiss_fft.h"
#include "runtime/kernels/real_fft.h"
#include "runtime/kernels/registrations.h"
#include "runtime/kernels/signal_util.h"

namespace arenaplan::rt {

namespace {

// --- SignalFftAutoScale --------------------------------------------------------------------------

StatusCode AutoScalePrepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 2));
  TensorView in, out, bits;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 1, &bits));
  RT_RETURN_IF_ERROR(RequireType(ctx, in, TensorType::INT16, "input"));
  RT_RETURN_IF_ERROR(RequireType(ctx, out, TensorType::INT16, "output"));
  RT_RETURN_IF_ERROR(RequireType(ctx, bits, TensorType::INT32, "scale bits output"));
  if (in.rank != 1 || out.rank != 1 || bits.rank != 0 || out.dims[0] != in.dims[0]) {
    return ctx.Fail(StatusCode::kInvalidModel, "input/output must be rank 1 of equal length, scale bits a scalar");
  }
  return StatusCode::kOk;
}

StatusCode AutoScaleEval(KernelContext& ctx) {
  TensorView in, out, bits;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 1, &bits));
  const int16_t* x = in.As<int16_t>();
  int16_t* y = out.As<int16_t>();
  const int32_t n = out.dims[0];
  int16_t max = 0;
  for (int32_t i = 0; i < n; ++i) {
    const int16_t v = x[i];
    if (v > max) {
      max = v;
    } else if (-v > max) {
      max = static_cast<int16_t>(-v);  // -(-32768) wraps to -32768, as in TFLM
    }
  }
  int32_t scale_bits = 16 -
                       static_cast<int32_t>(MostSignificantBit32(static_cast<uint32_t>(static_cast<int32_t>(max)))) - 1;
  if (scale_bits < 0) scale_bits = 0;
  for (int32_t i = 0; i < n; ++i) y[i] = static_cast<int16_t>(x[i] * (1 << scale_bits));
  *bits.As<int32_t>() = scale_bits;
  return StatusCode::kOk;
}

// --- SignalRfft (int16 / int32 / float32, KISS FFT) -----------------------------------------

template <typename S>
struct RfftData {
  int32_t fft_length, input_length, input_size, output_length;
  int32_t scratch_index;
  RealFft<S> real;
};

template <typename S>
StatusCode RfftPrepareTyped(KernelContext& ctx, const TensorView& in, const TensorView& out, int32_t fft_length) {
  RfftData<S>* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  d->fft_length = fft_length;
  d->input_length = in.dims[in.rank - 1];
  d->input_size = static_cast<int32_t>(ElementCount(in));
  d->output_length = out.dims[out.rank - 1] / 2;
  if (d->input_length <= 0 || d->input_length > fft_length || d->input_size % d->input_length != 0 ||
      d->output_length != fft_length / 2 + 1 ||
      ElementCount(out) / 2 != static_cast<int64_t>(d->input_size / d->input_length) * d->output_length) {
    return ctx.Fail(StatusCode::kInvalidModel, "frames of %d samples, fft_length %d and %d output bins do not match",
                    d->input_length, fft_length, d->output_length);
  }
  RT_RETURN_IF_ERROR(PrepareRealFft(ctx, fft_length, false, &d->real));
  RT_RETURN_IF_ERROR(
      ctx.RequestScratch(static_cast<uint32_t>(fft_length) * static_cast<uint32_t>(sizeof(S)), &d->scratch_index));
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode RfftPrepare(KernelContext& ctx) {
  TensorView in, out;
  TensorType t = TensorType::INT16;
  int32_t fft_length = 0;
  RT_RETURN_IF_ERROR(ReadRealFftOptions(ctx, "RFFT", &in, &out, &t, &fft_length));
  if (t == TensorType::INT16) return RfftPrepareTyped<int16_t>(ctx, in, out, fft_length);
  if (t == TensorType::INT32) return RfftPrepareTyped<int32_t>(ctx, in, out, fft_length);
  return RfftPrepareTyped<float>(ctx, in, out, fft_length);
}

template <typename S>
StatusCode RfftEvalTyped(KernelContext& ctx, const TensorView& in, const TensorView& out) {
  const auto& d = *static_cast<const RfftData<S>*>(ctx.op_data());
  auto* work = static_cast<S*>(ctx.GetScratch(d.scratch_index));
  if (work == nullptr) return ctx.Fail(StatusCode::kKernelError, "scratch buffer missing");
  const S* x = in.As<S>();
  auto* y = out.As<KissCpx<S>>();
  for (int32_t i = 0, o = 0; i < d.input_size; i += d.input_length, o += d.output_length) {
    std::memcpy(work, x + i, sizeof(S) * static_cast<size_t>(d.input_length));
    std::memset(work + d.input_length, 0, sizeof(S) * static_cast<size_t>(d.fft_length - d.input_length));
    KissFftr(d.real.fft, d.real.super_twiddles, work, d.real.tmpbuf, y + o);
  }
  return StatusCode::kOk;
}

StatusCode RfftEval(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (in.type == TensorType::INT16) return RfftEvalTyped<int16_t>(ctx, in, out);
  if (in.type == TensorType::INT32) return RfftEvalTyped<int32_t>(ctx, in, out);
  return RfftEvalTyped<float>(ctx, in, out);
}

const KernelRegistration kAutoScale{"SignalFftAutoScale", &AutoScalePrepare, &AutoScaleEval};
const KernelRegistration kRfft{"SignalRfft", &RfftPrepare, &RfftEval};

}  // namespace

const KernelRegistration* Register_SIGNAL_FFT_AUTO_SCALE() { return &kAutoScale; }
const KernelRegistration* Register_SIGNAL_RFFT() { return &kRfft; }

}  // namespace arenaplan::rt
