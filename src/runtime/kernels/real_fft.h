// What SignalRfft and SignalIrfft share: their Prepare checks and the KISS real-FFT state
// (kiss_fftr_alloc: the complex FFT of fft_length / 2, its twiddles, the real FFT's super
// twiddles and its temporary buffer), allocated from persistent memory. O(fft_length).
#pragma once

#include <cstdint>

#include "runtime/kernel_api.h"
#include "runtime/kernels/kiss_fft.h"

namespace arenaplan::rt {

template <typename S>
struct RealFft {
  KissFft<S> fft;              // complex FFT of fft_length / 2
  KissCpx<S>* super_twiddles;  // fft_length / 4
  KissCpx<S>* tmpbuf;          // fft_length / 2
};

// One input, one output, options T (int16, int32 or float32: the type of both) and fft_length
// (even, 4 to 65536), as the Signal library's RFFT / IRFFT read them; `op` names the op in messages.
StatusCode ReadRealFftOptions(KernelContext& ctx, const char* op, TensorView* in, TensorView* out, TensorType* type,
                              int32_t* fft_length);

// Factors fft_length / 2 (radix 4, 2, 3 and 5 only, else kUnsupported) and fills the tables.
template <typename S>
StatusCode PrepareRealFft(KernelContext& ctx, int32_t fft_length, bool inverse, RealFft<S>* r) {
  const int32_t n = fft_length / 2;
  r->fft.nfft = n;
  r->fft.inverse = inverse;
  if (!KissFactor(n, r->fft.factors)) {
    return ctx.Fail(StatusCode::kUnsupported,
                    "fft_length %d: half of it has a prime factor above 5 (TFLM's KISS FFT cannot run it)", fft_length);
  }
  const uint32_t cpx = static_cast<uint32_t>(sizeof(KissCpx<S>));
  void *tw = nullptr, *stw = nullptr, *tmp = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(cpx * static_cast<uint32_t>(n), &tw));
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(cpx * static_cast<uint32_t>(n / 2 + 1), &stw));
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(cpx * static_cast<uint32_t>(n), &tmp));
  r->super_twiddles = static_cast<KissCpx<S>*>(stw);
  r->tmpbuf = static_cast<KissCpx<S>*>(tmp);
  KissTwiddles<S>(n, inverse, static_cast<KissCpx<S>*>(tw), r->super_twiddles);
  r->fft.twiddles = static_cast<KissCpx<S>*>(tw);
  return StatusCode::kOk;
}

}  // namespace arenaplan::rt
