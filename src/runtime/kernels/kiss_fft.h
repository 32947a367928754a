// KISS FFT v1.3.0 as TFLM's Signal library builds it (kiss_fft_wrappers: FIXED_POINT=16 for int16,
// FIXED_POINT=32 for int32, float), for SignalRfft and SignalIrfft: the same butterflies, twiddles
// and rounding, so results are bit-exact. Radix-4, 2, 3 and 5 stages are implemented; a length
// with another prime factor is refused (KissFactor), as TFLM cannot run it either: its KISS build
// patches KISS_FFT_MALLOC to return null, and the generic butterfly writes through that pointer. Twiddle tables are
// filled by the caller's Prepare (KissTwiddles); the transforms work in caller memory, never allocate. Complex FFT O(n
// log n); the real-FFT split / merge O(n).
#pragma once

#include <cmath>
#include <cstdint>
#include <initializer_list>
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
  // a - HALF_OF(b): HALF_OF is b * .5 in double, so the difference is taken in double.
  static float SubHalf(float a, float b) { return static_cast<float>(a - b * .5); }
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
  static S Cos(double phase) {
    return static_cast<S>(std::floor(.5 + static_cast<double>(kSampMax) * std::cos(phase)));
  }
  static S Sin(double phase) {
    return static_cast<S>(std::floor(.5 + static_cast<double>(kSampMax) * std::sin(phase)));
  }
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
  // a - HALF_OF(b) = a - (b >> 1), in C's int for int16 (the store wraps), wrapping for int32.
  static S SubHalf(S a, S b) { return Sub(a, static_cast<S>(b >> 1)); }
};

template <>
struct KissMath<int16_t> : KissFixedMath<int16_t, int32_t, 15, 32767> {};
template <>
struct KissMath<int32_t> : KissFixedMath<int32_t, int64_t, 31, 2147483647> {};

inline constexpr int32_t kKissMaxFactors = 32;

// KISS kf_factor into (radix, remaining) pairs; false when a radix other than 4, 2, 3 or 5 is needed.
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

template <typename S>
void KissBfly3(KissCpx<S>* out, int32_t fstride, const KissFft<S>& st, int32_t m) {
  using M = KissMath<S>;
  const KissCpx<S>*tw1 = st.twiddles, *tw2 = st.twiddles;
  const KissCpx<S> epi3 = st.twiddles[fstride * m];
  const int32_t m2 = 2 * m;
  for (int32_t k = 0; k < m; ++k, ++out) {
    M::FixDiv(&out[0], 3);
    M::FixDiv(&out[m], 3);
    M::FixDiv(&out[m2], 3);
    const KissCpx<S> s1 = M::CMul(out[m], *tw1), s2 = M::CMul(out[m2], *tw2);
    const KissCpx<S> s3{M::Add(s1.r, s2.r), M::Add(s1.i, s2.i)};
    KissCpx<S> s0{M::Sub(s1.r, s2.r), M::Sub(s1.i, s2.i)};
    tw1 += fstride;
    tw2 += fstride * 2;
    out[m] = {M::SubHalf(out[0].r, s3.r), M::SubHalf(out[0].i, s3.i)};
    s0 = {M::Mul(s0.r, epi3.i), M::Mul(s0.i, epi3.i)};
    out[0] = {M::Add(out[0].r, s3.r), M::Add(out[0].i, s3.i)};
    out[m2] = {M::Add(out[m].r, s0.i), M::Sub(out[m].i, s0.r)};
    out[m] = {M::Sub(out[m].r, s0.i), M::Add(out[m].i, s0.r)};
  }
}

template <typename S>
void KissBfly5(KissCpx<S>* out, int32_t fstride, const KissFft<S>& st, int32_t m) {
  using M = KissMath<S>;
  const KissCpx<S>* tw = st.twiddles;
  const KissCpx<S> ya = tw[fstride * m], yb = tw[fstride * 2 * m];
  KissCpx<S>*f0 = out, *f1 = out + m, *f2 = out + 2 * m, *f3 = out + 3 * m, *f4 = out + 4 * m;
  for (int32_t u = 0; u < m; ++u, ++f0, ++f1, ++f2, ++f3, ++f4) {
    for (KissCpx<S>* f : {f0, f1, f2, f3, f4}) M::FixDiv(f, 5);
    const KissCpx<S> s0 = *f0;
    const KissCpx<S> s1 = M::CMul(*f1, tw[u * fstride]), s2 = M::CMul(*f2, tw[2 * u * fstride]);
    const KissCpx<S> s3 = M::CMul(*f3, tw[3 * u * fstride]), s4 = M::CMul(*f4, tw[4 * u * fstride]);
    const KissCpx<S> s7{M::Add(s1.r, s4.r), M::Add(s1.i, s4.i)}, s10{M::Sub(s1.r, s4.r), M::Sub(s1.i, s4.i)};
    const KissCpx<S> s8{M::Add(s2.r, s3.r), M::Add(s2.i, s3.i)}, s9{M::Sub(s2.r, s3.r), M::Sub(s2.i, s3.i)};
    *f0 = {M::Add(f0->r, M::Add(s7.r, s8.r)), M::Add(f0->i, M::Add(s7.i, s8.i))};
    const KissCpx<S> s5{M::Add(M::Add(s0.r, M::Mul(s7.r, ya.r)), M::Mul(s8.r, yb.r)),
                        M::Add(M::Add(s0.i, M::Mul(s7.i, ya.r)), M::Mul(s8.i, yb.r))};
    const KissCpx<S> s6{M::Add(M::Mul(s10.i, ya.i), M::Mul(s9.i, yb.i)),
                        M::Sub(M::Neg(M::Mul(s10.r, ya.i)), M::Mul(s9.r, yb.i))};
    *f1 = {M::Sub(s5.r, s6.r), M::Sub(s5.i, s6.i)};
    *f4 = {M::Add(s5.r, s6.r), M::Add(s5.i, s6.i)};
    const KissCpx<S> s11{M::Add(M::Add(s0.r, M::Mul(s7.r, yb.r)), M::Mul(s8.r, ya.r)),
                         M::Add(M::Add(s0.i, M::Mul(s7.i, yb.r)), M::Mul(s8.i, ya.r))};
    const KissCpx<S> s12{M::Add(M::Neg(M::Mul(s10.i, yb.i)), M::Mul(s9.i, ya.i)),
                         M::Sub(M::Mul(s10.r, yb.i), M::Mul(s9.r, ya.i))};
    *f2 = {M::Add(s11.r, s12.r), M::Add(s11.i, s12.i)};
    *f3 = {M::Sub(s11.r, s12.r), M::Sub(s11.i, s12.i)};
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
  switch (p) {
    case 2: KissBfly2(begin, fstride, st, m); break;
    case 3: KissBfly3(begin, fstride, st, m); break;
    case 4: KissBfly4(begin, fstride, st, m); break;
    default: KissBfly5(begin, fstride, st, m); break;  // KissFactor admits 2, 3, 4 and 5 only
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
