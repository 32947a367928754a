// KISS FFT v1.3.0 as TFLM's Signal library builds it (kiss_fft_wrappers: FIXED_POINT=16 for int16,
// FIXED_POINT=32 for int32, float), for SignalRfft and SignalIrfft: the same butterflies, twiddles
// and rounding, so results are bit-exact. Only radix-4 and radix-2 stages are implemented (every
// power-of-two complex length); Factor() refuses other lengths. Twiddle tables are filled by
// the caller's Prepare (KissTwiddles); the transforms work in caller memory, never allocate.
// Complex FFT O(n log n); the real-FFT split / merge O(n).
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace arenaplan::rt {

template <typename S>
struct KissCpx {
  S r, i;
};

// Scalar arithmetic per build. Fixed point: Q15 / Q31 with KISS's sround (round half up), the
// int16 build's 32-bit products and sums wrapping as its int32 arithmetic does.
template <typename S>
struct KissMath;

template <>
struct KissMath<float> {
  static constexpr bool kFixed = false;
  static float Mul(float a, float b) { return a * b; }
  static float Cos(double phase) { return static_cast<float>(std::cos(phase)); }
  static float Sin(double phase) { return static_cast<float>(std::sin(phase)); }
  static KissCpx<float> CMul(KissCpx<float> a, KissCpx<float> b) {
    return {a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r};
  }
  static void FixDiv(KissCpx<float>*, int32_t) {}
  static float Add(float a, float b) { return a + b; }
  static float Sub(float a, float b) { return a - b; }
  static float Neg(float x) { return -x; }
  static float NegByMul(float x) { return x * -1; }  // keeps -0.0 where 0 - x would not
  static float HalfSum(float a, float b, bool add) { return static_cast<float>((add ? a + b : a - b) * .5); }
};

template <typename S, typename P, int kFracBits, P kSampMax>
struct KissFixedMath {
  static constexpr bool kFixed = true;
  using U = std::make_unsigned_t<P>;
  static P Wrap(P a, P b, bool add) {  // P arithmetic that wraps instead of overflowing
    return static_cast<P>(add ? static_cast<U>(a) + static_cast<U>(b) : static_cast<U>(a) - static_cast<U>(b));
  }
  static S Round(P x) { return static_cast<S>(Wrap(x, P{1} << (kFracBits - 1), true) >> kFracBits); }
  static P Prod(S a, S b) { return static_cast<P>(a) * static_cast<P>(b); }
  static S Mul(S a, S b) { return Round(Prod(a, b)); }
  static S Cos(double phase) { return static_cast<S>(std::floor(.5 + static_cast<double>(kSampMax) * std::cos(phase))); }
  static S Sin(double phase) { return static_cast<S>(std::floor(.5 + static_cast<double>(kSampMax) * std::sin(phase))); }
  static KissCpx<S> CMul(KissCpx<S> a, KissCpx<S> b) {
    return {Round(Wrap(Prod(a.r, b.r), Prod(a.i, b.i), false)), Round(Wrap(Prod(a.r, b.i), Prod(a.i, b.r), true))};
  }
  static void FixDiv(KissCpx<S>* c, int32_t div) {
    c->r = Mul(c->r, static_cast<S>(kSampMax / div));
    c->i = Mul(c->i, static_cast<S>(kSampMax / div));
  }
  static S Add(S a, S b) { return static_cast<S>(Wrap(a, b, true)); }
  static S Sub(S a, S b) { return static_cast<S>(Wrap(a, b, false)); }
  static S Neg(S x) { return Sub(0, x); }
  static S NegByMul(S x) { return Sub(0, x); }
  // HALF_OF(a +- b): the sum in C's int (int16 promotes, int32 wraps), then >> 1.
  static S HalfSum(S a, S b, bool add) {
    using W = std::conditional_t<(sizeof(S) < sizeof(int32_t)), int32_t, S>;
    using UW = std::make_unsigned_t<W>;
    const W sum = static_cast<W>(add ? static_cast<UW>(static_cast<W>(a)) + static_cast<UW>(static_cast<W>(b))
                                     : static_cast<UW>(static_cast<W>(a)) - static_cast<UW>(static_cast<W>(b)));
    return static_cast<S>(sum >> 1);
  }
};

template <>
struct KissMath<int16_t> : KissFixedMath<int16_t, int32_t, 15, 32767> {};
template <>
struct KissMath<int32_t> : KissFixedMath<int32_t, int64_t, 31, 2147483647> {};

inline constexpr int32_t kKissMaxFactors = 32;

// KISS kf_factor into (radix, remaining) pairs; false when a radix other than 4 or 2 is needed.
bool KissFactor(int32_t n, int32_t* factors);

// Complex FFT state: nfft twiddles, the inverse flag, the factors.
template <typename S>
struct KissFft {
  int32_t nfft = 0;
  bool inverse = false;
  int32_t factors[2 * kKissMaxFactors] = {};
  const KissCpx<S>* twiddles = nullptr;
};

// kiss_fft_alloc / kiss_fftr_alloc's tables: twiddles[nfft] (phase -2 pi i / nfft, negated for
// the inverse) and, for a real FFT of 2 * nfft, super_twiddles[nfft / 2].
template <typename S>
void KissTwiddles(int32_t nfft, bool inverse, KissCpx<S>* twiddles, KissCpx<S>* super_twiddles) {
  using M = KissMath<S>;
  const double pi = 3.14159265358979323846264338327;
  for (int32_t i = 0; i < nfft; ++i) {
    double phase = -2 * pi * i / nfft;
    if (inverse) phase *= -1;
    twiddles[i] = {M::Cos(phase), M::Sin(phase)};
  }
  for (int32_t i = 0; super_twiddles != nullptr && i < nfft / 2; ++i) {
    double phase = -pi * (static_cast<double>(i + 1) / nfft + .5);
    if (inverse) phase *= -1;
    super_twiddles[i] = {M::Cos(phase), M::Sin(phase)};
  }
}

template <typename S>
void KissBfly2(KissCpx<S>* out, int32_t fstride, const KissFft<S>& st, int32_t m) {
  using M = KissMath<S>;
  KissCpx<S>* out2 = out + m;
  const KissCpx<S>* tw = st.twiddles;
  for (int32_t k = 0; k < m; ++k, ++out, ++out2, tw += fstride) {
    M::FixDiv(out, 2);
    M::FixDiv(out2, 2);
    const KissCpx<S> t = M::CMul(*out2, *tw);
    *out2 = {M::Sub(out->r, t.r), M::Sub(out->i, t.i)};
    *out = {M::Add(out->r, t.r), M::Add(out->i, t.i)};
  }
}

template <typename S>
void KissBfly4(KissCpx<S>* out, int32_t fstride, const KissFft<S>& st, int32_t m) {
  using M = KissMath<S>;
  const KissCpx<S>*tw1 = st.twiddles, *tw2 = st.twiddles, *tw3 = st.twiddles;
  const int32_t m2 = 2 * m, m3 = 3 * m;
  for (int32_t k = 0; k < m; ++k, ++out) {
    M::FixDiv(&out[0], 4);
    M::FixDiv(&out[m], 4);
    M::FixDiv(&out[m2], 4);
    M::FixDiv(&out[m3], 4);
    const KissCpx<S> s0 = M::CMul(out[m], *tw1), s1 = M::CMul(out[m2], *tw2), s2 = M::CMul(out[m3], *tw3);
    const KissCpx<S> s5{M::Sub(out[0].r, s1.r), M::Sub(out[0].i, s1.i)};
    out[0] = {M::Add(out[0].r, s1.r), M::Add(out[0].i, s1.i)};
    const KissCpx<S> s3{M::Add(s0.r, s2.r), M::Add(s0.i, s2.i)};
    const KissCpx<S> s4{M::Sub(s0.r, s2.r), M::Sub(s0.i, s2.i)};
    out[m2] = {M::Sub(out[0].r, s3.r), M::Sub(out[0].i, s3.i)};
    tw1 += fstride;
    tw2 += fstride * 2;
    tw3 += fstride * 3;
    out[0] = {M::Add(out[0].r, s3.r), M::Add(out[0].i, s3.i)};
    if (st.inverse) {
      out[m] = {M::Sub(s5.r, s4.i), M::Add(s5.i, s4.r)};
      out[m3] = {M::Add(s5.r, s4.i), M::Sub(s5.i, s4.r)};
    } else {
      out[m] = {M::Add(s5.r, s4.i), M::Sub(s5.i, s4.r)};
      out[m3] = {M::Sub(s5.r, s4.i), M::Add(s5.i, s4.r)};
    }
  }
}

// KISS kf_work (decimation in time; recursion depth = number of factors <= 32).
template <typename S>
void KissWork(KissCpx<S>* out, const KissCpx<S>* f, int32_t fstride, const int32_t* factors, const KissFft<S>& st) {
  KissCpx<S>* const begin = out;
  const int32_t p = factors[0], m = factors[1];
  KissCpx<S>* const end = out + p * m;
  if (m == 1) {
    do {
      *out = *f;
      f += fstride;
    } while (++out != end);
  } else {
    do {
      KissWork(out, f, fstride * p, factors + 2, st);
      f += fstride;
    } while ((out += m) != end);
  }
  if (p == 4) {
    KissBfly4(begin, fstride, st, m);
  } else {
    KissBfly2(begin, fstride, st, m);
  }
}

// kiss_fftr: the real FFT of 2 * st.nfft samples via one complex FFT (tmp: st.nfft values).
template <typename S>
void KissFftr(const KissFft<S>& st, const KissCpx<S>* super_twiddles, const S* time, KissCpx<S>* tmp,
              KissCpx<S>* freq) {
  using M = KissMath<S>;
  const int32_t n = st.nfft;
  KissWork(tmp, reinterpret_cast<const KissCpx<S>*>(time), 1, st.factors, st);
  KissCpx<S> tdc = tmp[0];
  M::FixDiv(&tdc, 2);
  freq[0].r = M::Add(tdc.r, tdc.i);
  freq[n].r = M::Sub(tdc.r, tdc.i);
  freq[n].i = freq[0].i = 0;
  for (int32_t k = 1; k <= n / 2; ++k) {
    KissCpx<S> fpk = tmp[k];
    KissCpx<S> fpnk{tmp[n - k].r, M::Neg(tmp[n - k].i)};
    M::FixDiv(&fpk, 2);
    M::FixDiv(&fpnk, 2);
    const KissCpx<S> f1k{M::Add(fpk.r, fpnk.r), M::Add(fpk.i, fpnk.i)};
    const KissCpx<S> f2k{M::Sub(fpk.r, fpnk.r), M::Sub(fpk.i, fpnk.i)};
    const KissCpx<S> tw = M::CMul(f2k, super_twiddles[k - 1]);
    freq[k] = {M::HalfSum(f1k.r, tw.r, true), M::HalfSum(f1k.i, tw.i, true)};
    freq[n - k] = {M::HalfSum(f1k.r, tw.r, false), M::HalfSum(tw.i, f1k.i, false)};
  }
}

// kiss_fftri: 2 * st.nfft real samples from st.nfft + 1 bins (st built with inverse = true;
// tmp: st.nfft values). Unscaled, as KISS returns it.
template <typename S>
void KissFftri(const KissFft<S>& st, const KissCpx<S>* super_twiddles, const KissCpx<S>* freq, KissCpx<S>* tmp,
               S* time) {
  using M = KissMath<S>;
  const int32_t n = st.nfft;
  tmp[0] = {M::Add(freq[0].r, freq[n].r), M::Sub(freq[0].r, freq[n].r)};
  M::FixDiv(&tmp[0], 2);
  for (int32_t k = 1; k <= n / 2; ++k) {
    KissCpx<S> fk = freq[k];
    KissCpx<S> fnkc{freq[n - k].r, M::Neg(freq[n - k].i)};
    M::FixDiv(&fk, 2);
    M::FixDiv(&fnkc, 2);
    const KissCpx<S> fek{M::Add(fk.r, fnkc.r), M::Add(fk.i, fnkc.i)};
    const KissCpx<S> diff{M::Sub(fk.r, fnkc.r), M::Sub(fk.i, fnkc.i)};
    const KissCpx<S> fok = M::CMul(diff, super_twiddles[k - 1]);
    tmp[k] = {M::Add(fek.r, fok.r), M::Add(fek.i, fok.i)};
    tmp[n - k] = {M::Sub(fek.r, fok.r), M::NegByMul(M::Sub(fek.i, fok.i))};
  }
  KissWork(reinterpret_cast<KissCpx<S>*>(time), tmp, 1, st.factors, st);
}

}  // namespace arenaplan::rt
