// TFLM Signal library FFT ops:
//  * SignalFftAutoScale: shifts an int16 frame left by the headroom of its largest magnitude
//    (16 - msb(max|x|) - 1 bits, at least 0) and outputs that shift as an int32 scalar. O(n).
//  * SignalRfft (int16): real FFT of each frame zero-padded to fft_length, bit-exact with the
//    KISS FFT v1.3.0 fixed-point (FIXED_POINT=16) build TFLM links: a complex FFT of length
//    fft_length/2 over the packed (even, odd) samples, every butterfly stage dividing by its radix
//    with rounding (Q15), then kiss_fftr's split into fft_length/2 + 1 bins. Twiddles are
//    floor(0.5 + 32767 cos/sin(phase)) computed in double at prepare. O(n log n) per frame.
//    Radix 4 and 2 stages are supported (every power-of-two length); other lengths are refused.
#include <cmath>
#include <cstring>

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
  int32_t scale_bits = 16 - static_cast<int32_t>(MostSignificantBit32(static_cast<uint32_t>(
                                static_cast<int32_t>(max)))) - 1;
  if (scale_bits < 0) scale_bits = 0;
  for (int32_t i = 0; i < n; ++i) y[i] = static_cast<int16_t>(x[i] * (1 << scale_bits));
  *bits.As<int32_t>() = scale_bits;
  return StatusCode::kOk;
}

// --- SignalRfft (int16, KISS FFT fixed point) -------------------------------------------------

struct Cpx {
  int16_t r, i;
};

constexpr int32_t kMaxFactors = 32;

struct RfftData {
  int32_t fft_length, input_length, input_size, output_length;
  int32_t ncfft;                     // complex FFT length = fft_length / 2
  int32_t factors[2 * kMaxFactors];  // (radix, remaining length) pairs, KISS order
  int32_t scratch_index;
  Cpx* twiddles;        // ncfft
  Cpx* super_twiddles;  // ncfft / 2
  Cpx* tmpbuf;          // ncfft
};

// Q15 helpers of KISS FFT's FIXED_POINT=16 build.
inline int16_t Sround(int32_t x) {
  // (x + 2^14) >> 15 with the add wrapping like KISS's int32 arithmetic (no signed overflow).
  return static_cast<int16_t>(static_cast<int32_t>(static_cast<uint32_t>(x) + (1u << 14)) >> 15);
}
inline int32_t Smul(int32_t a, int32_t b) { return a * b; }
inline void FixDiv(Cpx* c, int32_t div) {
  c->r = Sround(Smul(c->r, 32767 / div));
  c->i = Sround(Smul(c->i, 32767 / div));
}
inline Cpx Mul(Cpx a, Cpx b) {
  // Products are < 2^30 each; their sum/difference is taken mod 2^32 like KISS's int32 math.
  const int32_t re = static_cast<int32_t>(static_cast<uint32_t>(Smul(a.r, b.r)) -
                                          static_cast<uint32_t>(Smul(a.i, b.i)));
  const int32_t im = static_cast<int32_t>(static_cast<uint32_t>(Smul(a.r, b.i)) +
                                          static_cast<uint32_t>(Smul(a.i, b.r)));
  return Cpx{Sround(re), Sround(im)};
}
inline Cpx Add(Cpx a, Cpx b) { return Cpx{static_cast<int16_t>(a.r + b.r), static_cast<int16_t>(a.i + b.i)}; }
inline Cpx Sub(Cpx a, Cpx b) { return Cpx{static_cast<int16_t>(a.r - b.r), static_cast<int16_t>(a.i - b.i)}; }

void Bfly2(Cpx* out, int32_t fstride, const Cpx* tw, int32_t m) {
  Cpx* out2 = out + m;
  const Cpx* tw1 = tw;
  for (int32_t k = 0; k < m; ++k) {
    FixDiv(out, 2);
    FixDiv(out2, 2);
    const Cpx t = Mul(*out2, *tw1);
    tw1 += fstride;
    *out2 = Sub(*out, t);
    *out = Add(*out, t);
    ++out2;
    ++out;
  }
}

void Bfly4(Cpx* out, int32_t fstride, const Cpx* tw, int32_t m) {
  const Cpx *tw1 = tw, *tw2 = tw, *tw3 = tw;
  const int32_t m2 = 2 * m, m3 = 3 * m;
  for (int32_t k = 0; k < m; ++k) {
    FixDiv(&out[0], 4);
    FixDiv(&out[m], 4);
    FixDiv(&out[m2], 4);
    FixDiv(&out[m3], 4);
    const Cpx s0 = Mul(out[m], *tw1);
    const Cpx s1 = Mul(out[m2], *tw2);
    const Cpx s2 = Mul(out[m3], *tw3);
    const Cpx s5 = Sub(out[0], s1);
    out[0] = Add(out[0], s1);
    const Cpx s3 = Add(s0, s2);
    const Cpx s4 = Sub(s0, s2);
    out[m2] = Sub(out[0], s3);
    tw1 += fstride;
    tw2 += fstride * 2;
    tw3 += fstride * 3;
    out[0] = Add(out[0], s3);
    out[m].r = static_cast<int16_t>(s5.r + s4.i);
    out[m].i = static_cast<int16_t>(s5.i - s4.r);
    out[m3].r = static_cast<int16_t>(s5.r - s4.i);
    out[m3].i = static_cast<int16_t>(s5.i + s4.r);
    ++out;
  }
}

// KISS kf_work: decimation in time, recursion depth = number of factors (<= 32).
void Work(Cpx* out, const Cpx* f, int32_t fstride, const int32_t* factors, const Cpx* tw) {
  Cpx* const begin = out;
  const int32_t p = factors[0];
  const int32_t m = factors[1];
  Cpx* const end = out + p * m;
  if (m == 1) {
    do {
      *out = *f;
      f += fstride;
    } while (++out != end);
  } else {
    do {
      Work(out, f, fstride * p, factors + 2, tw);
      f += fstride;
    } while ((out += m) != end);
  }
  if (p == 4) {
    Bfly4(begin, fstride, tw, m);
  } else {
    Bfly2(begin, fstride, tw, m);
  }
}

// KISS kf_factor; false when a radix other than 4 or 2 would be needed.
bool Factor(int32_t n, int32_t* facbuf) {
  int32_t p = 4;
  const double floor_sqrt = std::floor(std::sqrt(static_cast<double>(n)));
  int32_t used = 0;
  do {
    while (n % p) {
      switch (p) {
        case 4: p = 2; break;
        case 2: p = 3; break;
        default: p += 2; break;
      }
      if (p > floor_sqrt) p = n;
    }
    if (p != 4 && p != 2) return false;
    if (used == kMaxFactors) return false;
    n /= p;
    facbuf[2 * used] = p;
    facbuf[2 * used + 1] = n;
    ++used;
  } while (n > 1);
  return true;
}

inline int16_t KissCos(double phase) { return static_cast<int16_t>(std::floor(0.5 + 32767 * std::cos(phase))); }
inline int16_t KissSin(double phase) { return static_cast<int16_t>(std::floor(0.5 + 32767 * std::sin(phase))); }

StatusCode RfftPrepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  int32_t type = 0, fft_length = 0;
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "T", &type));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "fft_length", &fft_length));
  if (type != static_cast<int32_t>(TensorType::INT16)) {
    return ctx.Fail(StatusCode::kUnsupported, "only int16 RFFT is supported (T = %d)", type);
  }
  RT_RETURN_IF_ERROR(RequireType(ctx, in, TensorType::INT16, "input"));
  RT_RETURN_IF_ERROR(RequireType(ctx, out, TensorType::INT16, "output"));
  if (in.rank < 1 || in.rank != out.rank) return ctx.Fail(StatusCode::kInvalidModel, "input and output ranks differ");
  if (fft_length < 4 || fft_length > (1 << 16) || fft_length % 2 != 0) {
    return ctx.Fail(StatusCode::kInvalidModel, "fft_length %d invalid", fft_length);
  }
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(RfftData), &mem));
  auto* d = static_cast<RfftData*>(mem);
  *d = RfftData{};
  d->fft_length = fft_length;
  d->ncfft = fft_length / 2;
  d->input_length = in.dims[in.rank - 1];
  d->input_size = static_cast<int32_t>(ElementCount(in));
  d->output_length = out.dims[out.rank - 1] / 2;
  if (d->input_length <= 0 || d->input_length > fft_length || d->input_size % d->input_length != 0 ||
      d->output_length != d->ncfft + 1 ||
      ElementCount(out) / 2 != static_cast<int64_t>(d->input_size / d->input_length) * d->output_length) {
    return ctx.Fail(StatusCode::kInvalidModel,
                    "frames of %d samples, fft_length %d and %d output bins do not match",
                    d->input_length, fft_length, d->output_length);
  }
  if (!Factor(d->ncfft, d->factors)) {
    return ctx.Fail(StatusCode::kUnsupported, "fft_length %d needs a radix other than 2 or 4", fft_length);
  }
  const uint32_t cpx_bytes = static_cast<uint32_t>(sizeof(Cpx));
  void* tw = nullptr;
  void* stw = nullptr;
  void* tmp = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(cpx_bytes * d->ncfft, &tw));
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(cpx_bytes * (d->ncfft / 2 + 1), &stw));
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(cpx_bytes * d->ncfft, &tmp));
  d->twiddles = static_cast<Cpx*>(tw);
  d->super_twiddles = static_cast<Cpx*>(stw);
  d->tmpbuf = static_cast<Cpx*>(tmp);
  const double pi = 3.141592653589793238462643383279502884197169399375105820974944;
  for (int32_t i = 0; i < d->ncfft; ++i) {
    const double phase = -2 * pi * i / d->ncfft;
    d->twiddles[i] = Cpx{KissCos(phase), KissSin(phase)};
  }
  for (int32_t i = 0; i < d->ncfft / 2; ++i) {
    const double phase = -3.14159265358979323846264338327 * (static_cast<double>(i + 1) / d->ncfft + .5);
    d->super_twiddles[i] = Cpx{KissCos(phase), KissSin(phase)};
  }
  RT_RETURN_IF_ERROR(ctx.RequestScratch(static_cast<uint32_t>(fft_length) * 2u, &d->scratch_index));
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

// kiss_fftr: one complex FFT of the packed real frame, then the even/odd split.
void Rfft(const RfftData& d, const int16_t* frame, Cpx* freq) {
  const int32_t ncfft = d.ncfft;
  Work(d.tmpbuf, reinterpret_cast<const Cpx*>(frame), 1, d.factors, d.twiddles);
  Cpx tdc = d.tmpbuf[0];
  FixDiv(&tdc, 2);
  freq[0].r = static_cast<int16_t>(tdc.r + tdc.i);
  freq[ncfft].r = static_cast<int16_t>(tdc.r - tdc.i);
  freq[ncfft].i = freq[0].i = 0;
  for (int32_t k = 1; k <= ncfft / 2; ++k) {
    Cpx fpk = d.tmpbuf[k];
    Cpx fpnk{d.tmpbuf[ncfft - k].r, static_cast<int16_t>(-d.tmpbuf[ncfft - k].i)};
    FixDiv(&fpk, 2);
    FixDiv(&fpnk, 2);
    const Cpx f1k = Add(fpk, fpnk);
    const Cpx f2k = Sub(fpk, fpnk);
    const Cpx tw = Mul(f2k, d.super_twiddles[k - 1]);
    freq[k].r = static_cast<int16_t>((f1k.r + tw.r) >> 1);
    freq[k].i = static_cast<int16_t>((f1k.i + tw.i) >> 1);
    freq[ncfft - k].r = static_cast<int16_t>((f1k.r - tw.r) >> 1);
    freq[ncfft - k].i = static_cast<int16_t>((tw.i - f1k.i) >> 1);
  }
}

StatusCode RfftEval(KernelContext& ctx) {
  const auto* d = static_cast<const RfftData*>(ctx.op_data());
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  auto* work = static_cast<int16_t*>(ctx.GetScratch(d->scratch_index));
  if (work == nullptr) return ctx.Fail(StatusCode::kKernelError, "scratch buffer missing");
  const int16_t* x = in.As<int16_t>();
  Cpx* y = out.As<Cpx>();
  for (int32_t i = 0, o = 0; i < d->input_size; i += d->input_length, o += d->output_length) {
    std::memcpy(work, x + i, sizeof(int16_t) * static_cast<size_t>(d->input_length));
    std::memset(work + d->input_length, 0,
                sizeof(int16_t) * static_cast<size_t>(d->fft_length - d->input_length));
    Rfft(*d, work, y + o);
  }
  return StatusCode::kOk;
}

const KernelRegistration kAutoScale{"SignalFftAutoScale", &AutoScalePrepare, &AutoScaleEval};
const KernelRegistration kRfft{"SignalRfft", &RfftPrepare, &RfftEval};

}  // namespace

const KernelRegistration* Register_SIGNAL_FFT_AUTO_SCALE() { return &kAutoScale; }
const KernelRegistration* Register_SIGNAL_RFFT() { return &kRfft; }

}  // namespace arenaplan::rt
