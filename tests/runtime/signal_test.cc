// TFLM Signal library kernels (audio front end). Golden figures come from TFLM's own signal kernel
// tests (signal/micro/kernels/*_test.cc: window, fft, filter_bank_log, spectral subtraction incl.
// its FlexBuffer option bytes, pcan) or are worked out by hand in the comments.
#include <flatbuffers/flatbuffers.h>
#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/kernels/registrations.h"
#include "runtime/kernels/signal_util.h"
#include "runtime/standalone_context.h"

namespace arenaplan::rt {
namespace {

struct OpHolder {
  flatbuffers::FlatBufferBuilder fbb;
  const tfl::Operator* op = nullptr;
};

std::unique_ptr<OpHolder> CustomOp(const std::vector<uint8_t>& options) {
  auto h = std::make_unique<OpHolder>();
  auto opts = h->fbb.CreateVector(options);
  auto op = tfl::CreateOperator(h->fbb, 0, 0, 0, tfl::BuiltinOptions::NONE, 0, opts);
  h->fbb.Finish(op);
  h->op = flatbuffers::GetRoot<tfl::Operator>(h->fbb.GetBufferPointer());
  return h;
}

// FlexBuffer map of integer options, as TFLM's converter writes them.
std::vector<uint8_t> IntMap(const std::vector<std::pair<std::string, int64_t>>& kv) {
  flexbuffers::Builder b;
  b.Map([&]() {
    for (const auto& [k, v] : kv) b.Int(k.c_str(), v);
  });
  b.Finish();
  return b.GetBuffer();
}

struct KRun {
  std::vector<uint8_t> mem = std::vector<uint8_t>(1 << 16);
  std::unique_ptr<StandaloneContext> ctx;
  KRun(std::vector<TensorView*> ins, std::vector<TensorView*> outs, const tfl::Operator* op, const char* name)
      : ins_(std::move(ins)), outs_(std::move(outs)) {
    ctx = std::make_unique<StandaloneContext>(ins_.data(), static_cast<uint32_t>(ins_.size()), outs_.data(),
                                              static_cast<uint32_t>(outs_.size()), op, mem.data(), mem.size(), name);
  }
  std::vector<TensorView*> ins_, outs_;
};

// --- FlexBuffer reader -------------------------------------------------------------------------------

TEST(SignalFlexTest, ReadsBuilderMapsAndRejectsGarbage) {
  const auto buf = IntMap({{"shift", 12}, {"big", 70000}, {"neg", -5}});
  FlexMap m;
  ASSERT_TRUE(FlexParseMap(buf.data(), buf.size(), &m));
  int64_t v = 0;
  ASSERT_TRUE(FlexGetInt(m, "shift", &v));
  EXPECT_EQ(v, 12);
  ASSERT_TRUE(FlexGetInt(m, "big", &v));
  EXPECT_EQ(v, 70000);
  ASSERT_TRUE(FlexGetInt(m, "neg", &v));
  EXPECT_EQ(v, -5);
  EXPECT_FALSE(FlexGetInt(m, "shif", &v));
  EXPECT_FALSE(FlexGetInt(m, "shiftx", &v));
  // Every truncation and a few byte flips must be refused or read safely, never crash.
  for (size_t n = 0; n < buf.size(); ++n) {
    FlexMap t;
    if (FlexParseMap(buf.data(), n, &t)) FlexGetInt(t, "shift", &v);
  }
  for (size_t i = 0; i < buf.size(); ++i) {
    std::vector<uint8_t> bad = buf;
    bad[i] ^= 0xA5;
    FlexMap t;
    if (FlexParseMap(bad.data(), bad.size(), &t)) FlexGetInt(t, "neg", &v);
  }
  const uint8_t not_a_map[] = {5, 4, 1};
  EXPECT_FALSE(FlexParseMap(not_a_map, sizeof(not_a_map), &m));
}

// --- SignalWindow ------------------------------------------------------------------------------------

TEST(SignalWindowTest, TflmGoldenLength16Shift12AndOuterDims) {
  int16_t in[64], w[16], out[64];
  for (int i = 0; i < 16; ++i) {
    w[i] = static_cast<int16_t>(0xF00 - 0x100 * i);
    for (int r = 0; r < 4; ++r) in[16 * r + i] = static_cast<int16_t>(0x100 * i);
  }
  const int16_t golden[16] = {0, 224, 416, 576, 704, 800, 864, 896, 896, 864, 800, 704, 576, 416, 224, 0};
  int32_t in_dims[3] = {2, 2, 16}, w_dims[1] = {16};
  TensorView vi = MakeView(in, TensorType::INT16, in_dims, 3);
  TensorView vw = MakeView(w, TensorType::INT16, w_dims, 1);
  TensorView vo = MakeView(out, TensorType::INT16, in_dims, 3);
  auto op = CustomOp(IntMap({{"shift", 12}}));
  KRun r({&vi, &vw}, {&vo}, op->op, "SignalWindow");
  ASSERT_EQ(r.ctx->Run(*Register_SIGNAL_WINDOW()), StatusCode::kOk) << r.ctx->error().text;
  for (int i = 0; i < 64; ++i) EXPECT_EQ(out[i], golden[i % 16]) << i;
}

TEST(SignalWindowTest, TflmGoldenLength32Shift8Saturates) {
  const int16_t in[32] = {1221, 1920, 9531, 2795, 1826, 371,  8446, 850,  3129, 8218, 4199,
                          8358, 205,  5268, 3263, 2849, 8398, 1381, 6305, 668,  8867, 4651,
                          9121, 6141, 1961, 3750, 8418, 8085, 3308, 1788, 1608, 4761};
  const int16_t w[32] = {1323, 764,  9100, 4220, 1745, 9311, 178,  9442, 5676, 1817, 5433,
                         5837, 7635, 4539, 6548, 9690, 6097, 4275, 1523, 3694, 7506, 2797,
                         5153, 172,  2172, 4540, 6643, 7845, 1719, 7564, 1700, 5227};
  const int16_t golden[32] = {6310,  5730, 32767, 32767, 12446, 13493, 5872,  31350, 32767, 32767, 32767,
                              32767, 6113, 32767, 32767, 32767, 32767, 23061, 32767, 9639,  32767, 32767,
                              32767, 4125, 16637, 32767, 32767, 32767, 22212, 32767, 10678, 32767};
  int16_t out[32];
  int32_t dims[1] = {32};
  TensorView vi = MakeView(const_cast<int16_t*>(in), TensorType::INT16, dims, 1);
  TensorView vw = MakeView(const_cast<int16_t*>(w), TensorType::INT16, dims, 1);
  TensorView vo = MakeView(out, TensorType::INT16, dims, 1);
  auto op = CustomOp(IntMap({{"shift", 8}}));
  KRun r({&vi, &vw}, {&vo}, op->op, "SignalWindow");
  ASSERT_EQ(r.ctx->Run(*Register_SIGNAL_WINDOW()), StatusCode::kOk) << r.ctx->error().text;
  for (int i = 0; i < 32; ++i) EXPECT_EQ(out[i], golden[i]) << i;
}

TEST(SignalWindowTest, MissingOptionIsAnError) {
  int16_t buf[16] = {};
  int32_t dims[1] = {16};
  TensorView v = MakeView(buf, TensorType::INT16, dims, 1);
  auto op = CustomOp(IntMap({{"shiftt", 3}}));
  KRun r({&v, &v}, {&v}, op->op, "SignalWindow");
  EXPECT_EQ(r.ctx->Prepare(*Register_SIGNAL_WINDOW()), StatusCode::kInvalidModel);
  EXPECT_NE(std::string(r.ctx->error().text).find("'shift'"), std::string::npos) << r.ctx->error().text;
  KRun no_op({&v, &v}, {&v}, nullptr, "SignalWindow");
  EXPECT_EQ(no_op.ctx->Prepare(*Register_SIGNAL_WINDOW()), StatusCode::kInvalidModel);
}

// --- SignalFftAutoScale / SignalRfft -------------------------------------------------------------

TEST(SignalFftTest, AutoScaleShiftsToFullRange) {
  // max |x| = 256 (msb 9): 16 - 9 - 1 = 6 bits of headroom, every sample times 64.
  int16_t in[4] = {256, -100, 3, 0}, out[4];
  int32_t bits = -1;
  int32_t dims[1] = {4};
  TensorView vi = MakeView(in, TensorType::INT16, dims, 1);
  TensorView vo = MakeView(out, TensorType::INT16, dims, 1);
  TensorView vb = MakeView(&bits, TensorType::INT32, nullptr, 0);
  KRun r({&vi}, {&vo, &vb}, nullptr, "SignalFftAutoScale");
  ASSERT_EQ(r.ctx->Run(*Register_SIGNAL_FFT_AUTO_SCALE()), StatusCode::kOk) << r.ctx->error().text;
  EXPECT_EQ(bits, 6);
  EXPECT_EQ(out[0], 16384);
  EXPECT_EQ(out[1], -6400);
  EXPECT_EQ(out[2], 192);
  // All zeros: no scaling. Full-scale -32768: none either.
  for (int16_t& v : in) v = 0;
  ASSERT_EQ(r.ctx->Eval(*Register_SIGNAL_FFT_AUTO_SCALE()), StatusCode::kOk);
  EXPECT_EQ(bits, 0);
  in[1] = -32768;
  ASSERT_EQ(r.ctx->Eval(*Register_SIGNAL_FFT_AUTO_SCALE()), StatusCode::kOk);
  EXPECT_EQ(bits, 0);
  EXPECT_EQ(out[1], -32768);
}

TEST(SignalFftTest, RfftInt16ImpulseTflmGoldenLength64) {
  // TFLM fft_test RfftTestSize64Int16: an impulse of 16384 gives 256 + 0i in all 33 bins (the
  // radix 4, 4, 2 stages each divide by their radix, the real split by 2 more).
  int16_t in[64] = {16384}, out[66];
  int32_t in_dims[1] = {64}, out_dims[1] = {66};
  TensorView vi = MakeView(in, TensorType::INT16, in_dims, 1);
  TensorView vo = MakeView(out, TensorType::INT16, out_dims, 1);
  auto op = CustomOp(IntMap({{"T", static_cast<int64_t>(TensorType::INT16)}, {"fft_length", 64}}));
  KRun r({&vi}, {&vo}, op->op, "SignalRfft");
  ASSERT_EQ(r.ctx->Run(*Register_SIGNAL_RFFT()), StatusCode::kOk) << r.ctx->error().text;
  for (int k = 0; k < 33; ++k) {
    EXPECT_EQ(out[2 * k], 256) << k;
    EXPECT_EQ(out[2 * k + 1], 0) << k;
  }
}

TEST(SignalFftTest, RfftZeroPadsShortFramesAndFindsTheTone) {
  // A cosine at bin 4 over 24 of 32 samples (zero-padded): the energy peaks at bin 4.
  int16_t in[2 * 24], out[2 * 34];
  for (int f = 0; f < 2; ++f) {
    for (int i = 0; i < 24; ++i)
      in[24 * f + i] = static_cast<int16_t>(std::lround(8000 * std::cos(2 * M_PI * 4 * i / 32)));
  }
  int32_t in_dims[2] = {2, 24}, out_dims[2] = {2, 34};
  TensorView vi = MakeView(in, TensorType::INT16, in_dims, 2);
  TensorView vo = MakeView(out, TensorType::INT16, out_dims, 2);
  auto op = CustomOp(IntMap({{"T", static_cast<int64_t>(TensorType::INT16)}, {"fft_length", 32}}));
  KRun r({&vi}, {&vo}, op->op, "SignalRfft");
  ASSERT_EQ(r.ctx->Run(*Register_SIGNAL_RFFT()), StatusCode::kOk) << r.ctx->error().text;
  for (int f = 0; f < 2; ++f) {
    int best = -1;
    int64_t best_e = -1;
    for (int k = 0; k < 17; ++k) {
      const int64_t e = int64_t{out[34 * f + 2 * k]} * out[34 * f + 2 * k] +
                        int64_t{out[34 * f + 2 * k + 1]} * out[34 * f + 2 * k + 1];
      if (e > best_e) best_e = e, best = k;
    }
    EXPECT_EQ(best, 4) << "frame " << f;
  }
  EXPECT_EQ(std::vector<int16_t>(out, out + 34), std::vector<int16_t>(out + 34, out + 68));
}

// The mixed-radix stages (3 and 5, with 2 and 4) against a DFT in double: fixed-point KISS divides
// every stage by its radix and the real split by 2, so its bins are the DFT over fft_length.
// Lengths: 12 (6 = 2 x 3), 20 (10 = 2 x 5), 24 (12 = 4 x 3), 90 (45 = 3 x 3 x 5), 120 (60 = 4 x 3 x 5).
struct Dft {
  std::vector<double> re, im;  // bins 0 .. n / 2
};
Dft RealDft(const std::vector<double>& x) {
  const size_t n = x.size();
  Dft d{std::vector<double>(n / 2 + 1), std::vector<double>(n / 2 + 1)};
  for (size_t k = 0; k <= n / 2; ++k) {
    for (size_t t = 0; t < n; ++t) {
      d.re[k] += x[t] * std::cos(2 * M_PI * static_cast<double>(k * t) / n);
      d.im[k] -= x[t] * std::sin(2 * M_PI * static_cast<double>(k * t) / n);
    }
  }
  return d;
}

template <typename S>
double MaxRfftError(int32_t n, TensorType type, double amplitude, double scale) {
  std::vector<S> in(static_cast<size_t>(n)), out(static_cast<size_t>(n + 2));
  std::vector<double> x(in.size());
  for (int32_t t = 0; t < n; ++t) {  // two tones and a ramp: every bin different
    x[t] = amplitude * (0.5 * std::sin(0.7 * t) + 0.3 * std::cos(2.3 * t + 1) + 0.2 * (t % 7) / 7.0);
    in[t] = static_cast<S>(std::is_floating_point<S>::value ? x[t] : std::lround(x[t]));
    x[t] = static_cast<double>(in[t]);
  }
  int32_t in_dims[1] = {n}, out_dims[1] = {n + 2};
  TensorView vi = MakeView(in.data(), type, in_dims, 1);
  TensorView vo = MakeView(out.data(), type, out_dims, 1);
  auto op = CustomOp(IntMap({{"T", static_cast<int64_t>(type)}, {"fft_length", n}}));
  KRun r({&vi}, {&vo}, op->op, "SignalRfft");
  if (r.ctx->Run(*Register_SIGNAL_RFFT()) != StatusCode::kOk) return 1e30;
  const Dft d = RealDft(x);
  double worst = 0;
  for (int32_t k = 0; k <= n / 2; ++k) {
    worst = std::max(worst, std::fabs(static_cast<double>(out[2 * k]) - d.re[k] * scale));
    worst = std::max(worst, std::fabs(static_cast<double>(out[2 * k + 1]) - d.im[k] * scale));
  }
  return worst;
}

TEST(SignalFftTest, RfftMixedRadixMatchesTheDft) {
  for (int32_t n : {12, 20, 24, 90, 120}) {
    SCOPED_TRACE(n);
    EXPECT_LT(MaxRfftError<float>(n, TensorType::FLOAT32, 1000, 1), 1e-6 * 1000 * n);  // float rounding
    EXPECT_LE(MaxRfftError<int16_t>(n, TensorType::INT16, 20000, 1.0 / n), 3);         // a few rounding steps
    EXPECT_LE(MaxRfftError<int32_t>(n, TensorType::INT32, 1 << 30, 1.0 / n), 8);
  }
}

TEST(SignalIrfftTest, MixedRadixInvertsTheRfft) {
  for (int32_t n : {12, 20, 90}) {
    SCOPED_TRACE(n);
    std::vector<float> x(static_cast<size_t>(n)), bins(static_cast<size_t>(n + 2)), back(x.size());
    for (int32_t t = 0; t < n; ++t) x[t] = static_cast<float>(std::sin(0.9 * t) + 0.25 * (t % 5));
    int32_t time_dims[1] = {n}, bin_dims[1] = {n + 2};
    TensorView vx = MakeView(x.data(), TensorType::FLOAT32, time_dims, 1);
    TensorView vb = MakeView(bins.data(), TensorType::FLOAT32, bin_dims, 1);
    TensorView vback = MakeView(back.data(), TensorType::FLOAT32, time_dims, 1);
    auto op = CustomOp(IntMap({{"T", static_cast<int64_t>(TensorType::FLOAT32)}, {"fft_length", n}}));
    KRun fwd({&vx}, {&vb}, op->op, "SignalRfft");
    ASSERT_EQ(fwd.ctx->Run(*Register_SIGNAL_RFFT()), StatusCode::kOk) << fwd.ctx->error().text;
    KRun inv({&vb}, {&vback}, op->op, "SignalIrfft");
    ASSERT_EQ(inv.ctx->Run(*Register_SIGNAL_IRFFT()), StatusCode::kOk) << inv.ctx->error().text;
    for (int32_t t = 0; t < n; ++t) EXPECT_NEAR(back[t], x[t], 1e-5) << t;
  }
}

TEST(SignalFftTest, RfftRejectsUnsupportedLengthsAndTypes) {
  int16_t buf[64] = {};
  int32_t in_dims[1] = {28}, out_dims[1] = {30};
  TensorView vi = MakeView(buf, TensorType::INT16, in_dims, 1);
  TensorView vo = MakeView(buf, TensorType::INT16, out_dims, 1);
  auto op = CustomOp(IntMap({{"T", static_cast<int64_t>(TensorType::INT16)}, {"fft_length", 28}}));
  KRun r({&vi}, {&vo}, op->op, "SignalRfft");
  // 14 = 2 x 7: TFLM's KISS would need its generic butterfly, whose scratch allocation is null.
  EXPECT_EQ(r.ctx->Prepare(*Register_SIGNAL_RFFT()), StatusCode::kUnsupported);
  auto op_f = CustomOp(IntMap({{"T", static_cast<int64_t>(TensorType::FLOAT32)}, {"fft_length", 64}}));
  KRun rf({&vi}, {&vo}, op_f->op, "SignalRfft");
  EXPECT_EQ(rf.ctx->Prepare(*Register_SIGNAL_RFFT()), StatusCode::kUnsupported);
}

// --- SignalEnergy ------------------------------------------------------------------------------------

TEST(SignalEnergyTest, SquaredMagnitudeInRangeOnly) {
  int16_t in[8] = {3, 4, -5, 12, 32767, 32767, 1, 1};
  uint32_t out[4] = {7, 7, 7, 7};
  int32_t in_dims[1] = {8}, out_dims[1] = {4};
  TensorView vi = MakeView(in, TensorType::INT16, in_dims, 1);
  TensorView vo = MakeView(out, TensorType::UINT32, out_dims, 1);
  auto op = CustomOp(IntMap({{"start_index", 1}, {"end_index", 3}}));
  KRun r({&vi}, {&vo}, op->op, "SignalEnergy");
  ASSERT_EQ(r.ctx->Run(*Register_SIGNAL_ENERGY()), StatusCode::kOk) << r.ctx->error().text;
  EXPECT_EQ(out[0], 7u);  // outside [start, end): untouched, as in TFLM
  EXPECT_EQ(out[1], 169u);
  EXPECT_EQ(out[2], 2u * 32767u * 32767u);
  EXPECT_EQ(out[3], 7u);
  auto bad = CustomOp(IntMap({{"start_index", 2}, {"end_index", 5}}));
  KRun rb({&vi}, {&vo}, bad->op, "SignalEnergy");
  EXPECT_EQ(rb.ctx->Prepare(*Register_SIGNAL_ENERGY()), StatusCode::kInvalidModel);
}

// --- SignalFilterBank / SquareRoot / Log -------------------------------------------------------------

TEST(SignalFilterBankTest, WeightsGoToTheirChannelUnweightsToTheNext) {
  // 2 channels (+ scratch channel 0). Channel i covers bins [start_i, start_i + width_i).
  uint32_t spectrum[6] = {100, 200, 300, 400, 500, 600};
  int16_t weights[5] = {1, 2, 3, 4, 5}, unweights[5] = {10, 20, 30, 40, 50};
  int16_t freq_starts[3] = {0, 1, 3}, weight_starts[3] = {0, 1, 3}, widths[3] = {1, 2, 2};
  uint64_t out[2];
  int32_t sd[1] = {6}, wd[1] = {5}, cd[1] = {3}, od[1] = {2};
  TensorView v[6] = {MakeView(spectrum, TensorType::UINT32, sd, 1),     MakeView(weights, TensorType::INT16, wd, 1),
                     MakeView(unweights, TensorType::INT16, wd, 1),     MakeView(freq_starts, TensorType::INT16, cd, 1),
                     MakeView(weight_starts, TensorType::INT16, cd, 1), MakeView(widths, TensorType::INT16, cd, 1)};
  TensorView vo = MakeView(out, TensorType::UINT64, od, 1);
  auto op = CustomOp(IntMap({{"num_channels", 2}}));
  KRun r({&v[0], &v[1], &v[2], &v[3], &v[4], &v[5]}, {&vo}, op->op, "SignalFilterBank");
  ASSERT_EQ(r.ctx->Run(*Register_SIGNAL_FILTER_BANK()), StatusCode::kOk) << r.ctx->error().text;
  // channel 1 = unweights of channel 0's bins (10*100) + weights of its own (2*200 + 3*300)
  EXPECT_EQ(out[0], 1000u + 400u + 900u);
  // channel 2 = unweights of channel 1 (20*200 + 30*300) + weights of its own (4*400 + 5*500)
  EXPECT_EQ(out[1], 4000u + 9000u + 1600u + 2500u);
  widths[2] = 4;  // would read bin 6 of 6
  KRun bad({&v[0], &v[1], &v[2], &v[3], &v[4], &v[5]}, {&vo}, op->op, "SignalFilterBank");
  EXPECT_EQ(bad.ctx->Prepare(*Register_SIGNAL_FILTER_BANK()), StatusCode::kInvalidModel);
}

TEST(SignalFilterBankTest, SquareRootRoundsAndScalesDown) {
  // 16 -> 4; 15 -> 3.87 -> 4 (rounded); 2^40 -> 2^20 (64-bit path); (2^20+1)^2 + 5 -> 2^20 + 1.
  uint64_t in[5] = {16, 15, 1ull << 40, (((1ull << 20) + 1) * ((1ull << 20) + 1)) + 5, 0};
  uint32_t out[5];
  int32_t shift = 0;
  int32_t dims[1] = {5};
  TensorView vi = MakeView(in, TensorType::UINT64, dims, 1);
  TensorView vs = MakeView(&shift, TensorType::INT32, nullptr, 0);
  TensorView vo = MakeView(out, TensorType::UINT32, dims, 1);
  KRun r({&vi, &vs}, {&vo}, nullptr, "SignalFilterBankSquareRoot");
  ASSERT_EQ(r.ctx->Run(*Register_SIGNAL_FILTER_BANK_SQUARE_ROOT()), StatusCode::kOk) << r.ctx->error().text;
  EXPECT_EQ(out[0], 4u);
  EXPECT_EQ(out[1], 4u);
  EXPECT_EQ(out[2], 1u << 20);
  EXPECT_EQ(out[3], (1u << 20) + 1);
  EXPECT_EQ(out[4], 0u);
  shift = 2;
  ASSERT_EQ(r.ctx->Eval(*Register_SIGNAL_FILTER_BANK_SQUARE_ROOT()), StatusCode::kOk);
  EXPECT_EQ(out[2], 1u << 18);
}

void CheckLog(const std::vector<uint32_t>& in, const std::vector<int16_t>& golden, int scale, int bits) {
  std::vector<uint32_t> x = in;
  std::vector<int16_t> out(in.size());
  int32_t dims[1] = {static_cast<int32_t>(in.size())};
  TensorView vi = MakeView(x.data(), TensorType::UINT32, dims, 1);
  TensorView vo = MakeView(out.data(), TensorType::INT16, dims, 1);
  auto op = CustomOp(IntMap({{"input_correction_bits", bits}, {"output_scale", scale}}));
  KRun r({&vi}, {&vo}, op->op, "SignalFilterBankLog");
  ASSERT_EQ(r.ctx->Run(*Register_SIGNAL_FILTER_BANK_LOG()), StatusCode::kOk) << r.ctx->error().text;
  EXPECT_EQ(out, golden);
}

TEST(SignalFilterBankTest, LogTflmGolden32ChannelScale1600Bits3) {
  CheckLog({29, 21, 29, 40, 19, 11, 13, 23, 13, 11, 25, 17, 5,  4,  46, 14,
            17, 14, 20, 14, 10, 10, 15, 11, 17, 12, 15, 16, 19, 18, 6,  2},
           {8715, 8198, 8715, 9229, 8038, 7164, 7431, 8344, 7431, 7164, 8477, 7860, 5902, 5545, 9453, 7550,
            7860, 7550, 8120, 7550, 7011, 7011, 7660, 7164, 7860, 7303, 7660, 7763, 8038, 7952, 6194, 4436},
           1600, 3);
}

TEST(SignalFilterBankTest, LogTflmGolden16ChannelScale32768Bits5IncludingWrap) {
  // TFLM multiplies output_scale by the Q16 log in uint32, so large inputs wrap (14 -> 3434).
  CheckLog(
      {48, 20, 19, 24, 35, 47, 23, 30, 31, 10, 48, 21, 46, 14, 18, 27},
      {32767, 15121, 13440, 21095, 32767, 32767, 19701, 28407, 29482, 32767, 32767, 16720, 32767, 3434, 11669, 24955},
      32768, 5);
}

// --- SignalFilterBankSpectralSubtraction -------------------------------------------------------------

// TFLM's generated FlexBuffer options (filter_bank_spectral_subtraction_flexbuffers_generated_data.cc,
// 32-channel variant): the real converter layout (2-byte values, bool clamping).
const std::vector<uint8_t> kSpectralSubtraction32 = {
    0x6e, 0x75, 0x6d, 0x5f, 0x63, 0x68, 0x61, 0x6e, 0x6e, 0x65, 0x6c, 0x73, 0x00, 0x73, 0x6d, 0x6f, 0x6f, 0x74,
    0x68, 0x69, 0x6e, 0x67, 0x00, 0x6f, 0x6e, 0x65, 0x5f, 0x6d, 0x69, 0x6e, 0x75, 0x73, 0x5f, 0x73, 0x6d, 0x6f,
    0x6f, 0x74, 0x68, 0x69, 0x6e, 0x67, 0x00, 0x61, 0x6c, 0x74, 0x65, 0x72, 0x6e, 0x61, 0x74, 0x65, 0x5f, 0x73,
    0x6d, 0x6f, 0x6f, 0x74, 0x68, 0x69, 0x6e, 0x67, 0x00, 0x61, 0x6c, 0x74, 0x65, 0x72, 0x6e, 0x61, 0x74, 0x65,
    0x5f, 0x6f, 0x6e, 0x65, 0x5f, 0x6d, 0x69, 0x6e, 0x75, 0x73, 0x5f, 0x73, 0x6d, 0x6f, 0x6f, 0x74, 0x68, 0x69,
    0x6e, 0x67, 0x00, 0x73, 0x6d, 0x6f, 0x6f, 0x74, 0x68, 0x69, 0x6e, 0x67, 0x5f, 0x62, 0x69, 0x74, 0x73, 0x00,
    0x6d, 0x69, 0x6e, 0x5f, 0x73, 0x69, 0x67, 0x6e, 0x61, 0x6c, 0x5f, 0x72, 0x65, 0x6d, 0x61, 0x69, 0x6e, 0x69,
    0x6e, 0x67, 0x00, 0x63, 0x6c, 0x61, 0x6d, 0x70, 0x69, 0x6e, 0x67, 0x00, 0x73, 0x70, 0x65, 0x63, 0x74, 0x72,
    0x61, 0x6c, 0x5f, 0x73, 0x75, 0x62, 0x74, 0x72, 0x61, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x5f, 0x62, 0x69, 0x74,
    0x73, 0x00, 0x09, 0x66, 0x7b, 0x26, 0x3c, 0xa9, 0x93, 0x9e, 0x4f, 0x23, 0x09, 0x00, 0x01, 0x00, 0x09, 0x00,
    0x71, 0x3d, 0x8f, 0x02, 0x00, 0x00, 0x33, 0x03, 0x20, 0x00, 0x71, 0x3d, 0x8f, 0x02, 0x00, 0x00, 0x0e, 0x00,
    0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x1b, 0x25, 0x01};

TEST(SignalSpectralSubtractionTest, TflmGolden32ChannelAndStateAcrossInvokes) {
  uint32_t in[32] = {322, 308, 210, 212, 181, 251, 403, 259, 65, 48, 76, 48, 50, 46,  53,  52,
                     112, 191, 136, 59,  70,  51,  39,  64,  33, 44, 41, 49, 74, 107, 262, 479};
  const uint32_t golden1[32] = {310, 296, 202, 204, 174, 241, 387, 249, 63, 47, 73, 47, 49, 45,  51,  50,
                                108, 184, 131, 57,  68,  49,  38,  62,  32, 43, 40, 48, 72, 103, 252, 460};
  const uint32_t golden2[32] = {12, 12, 8, 8, 7, 10, 16, 10, 2, 1, 3, 1, 1, 1, 2,  2,
                                4,  7,  5, 2, 2, 2,  1,  2,  1, 1, 1, 1, 2, 4, 10, 19};
  uint32_t out[32], noise[32];
  int32_t dims[1] = {32};
  TensorView vi = MakeView(in, TensorType::UINT32, dims, 1);
  TensorView vo = MakeView(out, TensorType::UINT32, dims, 1);
  TensorView vn = MakeView(noise, TensorType::UINT32, dims, 1);
  auto op = CustomOp(kSpectralSubtraction32);
  KRun r({&vi}, {&vo, &vn}, op->op, "SignalFilterBankSpectralSubtraction");
  ASSERT_EQ(r.ctx->Run(*Register_SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION()), StatusCode::kOk) << r.ctx->error().text;
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(out[i], golden1[i]) << i;
    EXPECT_EQ(noise[i], golden2[i]) << i;
  }
  // The noise estimate is internal state: the same input again now subtracts more.
  ASSERT_EQ(r.ctx->Eval(*Register_SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION()), StatusCode::kOk);
  int larger = 0;
  for (int i = 0; i < 32; ++i) {
    EXPECT_GE(noise[i], golden2[i]) << i;
    EXPECT_LE(out[i], golden1[i]) << i;
    larger += noise[i] > golden2[i];
  }
  EXPECT_GT(larger, 16);
  // A fresh prepare (TFLM: AllocateTensors / Reset) starts from a zero estimate again.
  KRun fresh({&vi}, {&vo, &vn}, op->op, "SignalFilterBankSpectralSubtraction");
  std::fill(fresh.mem.begin(), fresh.mem.end(), 0xAB);  // persistent memory is not pre-zeroed
  ASSERT_EQ(fresh.ctx->Run(*Register_SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION()), StatusCode::kOk);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(out[i], golden1[i]) << i;
}

// --- SignalPCAN --------------------------------------------------------------------------------------

TEST(SignalPcanTest, TflmGoldenMix1Ref1) {
  uint32_t in[40] = {286, 298, 305, 291, 290, 279, 273, 257, 250, 240, 240, 233, 234, 230,
                     221, 205, 183, 159, 156, 188, 239, 298, 345, 374, 380, 369, 359, 364,
                     372, 354, 302, 243, 194, 135, 64,  72,  171, 245, 277, 304};
  uint32_t noise[40] = {7310, 18308, 7796, 17878, 7413, 17141, 6978, 15789, 6390, 14745, 6135, 14314, 5981, 14130,
                        5649, 12594, 4677, 9768,  3987, 11550, 6109, 18308, 8819, 22977, 9713, 22670, 9176, 22363,
                        9509, 21748, 7719, 14929, 4959, 8294,  1636, 4423,  4371, 15052, 7080, 18677};
  int16_t lut[125] = {
      32636, 32633,  32630, -6,    0,    -21589, 32624, -12,   0,    -21589, 32612, -23,   -2,   -21589, 32587, -48,
      0,     -21589, 32539, -96,   0,    -21589, 32443, -190,  0,    -21589, 32253, -378,  4,    -21589, 31879, -739,
      18,    -21589, 31158, -1409, 62,   -21589, 29811, -2567, 202,  -21589, 27446, -4301, 562,  -21589, 23707, -6265,
      1230,  -21589, 18672, -7458, 1952, -21589, 13166, -7030, 2212, -21589, 8348,  -5342, 1868, -21589, 4874,  -3459,
      1282,  -21589, 2697,  -2025, 774,  -21589, 1446,  -1120, 436,  -21589, 762,   -596,  232,  -21589, 398,   -313,
      122,   -21589, 207,   -164,  64,   -21589, 107,   -85,   34,   -21589, 56,    -45,   18,   -21589, 29,    -22,
      8,     -21589, 15,    -13,   6,    -21589, 8,     -8,    4,    -21589, 4,     -2,    0,    -21589, 2,     -3,
      2,     -21589, 1,     0,     0,    -21589, 1,     -3,    2,    -21589, 0,     0,     0};
  const uint32_t golden[40] = {1301, 836, 1354, 827, 1312, 811, 1263, 779, 1192, 753, 1160, 743, 1140, 738,
                               1096, 698, 956,  607, 845,  667, 1157, 836, 1461, 912, 1546, 908, 1496, 904,
                               1527, 895, 1346, 758, 999,  548, 378,  344, 908,  761, 1274, 843};
  uint32_t out[40] = {};
  int32_t dims[1] = {40}, lut_dims[1] = {125};
  TensorView vi = MakeView(in, TensorType::UINT32, dims, 1);
  TensorView vn = MakeView(noise, TensorType::UINT32, dims, 1);
  TensorView vl = MakeView(lut, TensorType::INT16, lut_dims, 1);
  TensorView vo = MakeView(out, TensorType::UINT32, dims, 1);
  auto op = CustomOp(IntMap({{"snr_shift", 6}}));
  KRun r({&vi, &vn, &vl}, {&vo}, op->op, "SignalPCAN");
  ASSERT_EQ(r.ctx->Run(*Register_SIGNAL_PCAN()), StatusCode::kOk) << r.ctx->error().text;
  for (int i = 0; i < 40; ++i) EXPECT_EQ(out[i], golden[i]) << i;
  lut_dims[0] = 100;  // too short for msb up to 32
  KRun bad({&vi, &vn, &vl}, {&vo}, op->op, "SignalPCAN");
  EXPECT_EQ(bad.ctx->Prepare(*Register_SIGNAL_PCAN()), StatusCode::kInvalidModel);
}

// --- stateful ops over several Invokes: expected streams worked out by hand ------------------------

// A FlexBuffer map of integer options plus one bool (the converter writes prefill as a bool).
std::vector<uint8_t> IntMapWithBool(const std::vector<std::pair<std::string, int64_t>>& kv, const char* key,
                                    bool value) {
  flexbuffers::Builder b;
  b.Map([&]() {
    for (const auto& [k, v] : kv) b.Int(k.c_str(), v);
    b.Bool(key, value);
  });
  b.Finish();
  return b.GetBuffer();
}

TEST(SignalDelayTest, EachRowComesOutDelayLengthSamplesLate) {
  // Two rows of 4, delay 3: row r's stream is 3 zeros, then its inputs in order.
  int16_t in[8], out[8];
  int32_t dims[2] = {2, 4};
  TensorView vi = MakeView(in, TensorType::INT16, dims, 2);
  TensorView vo = MakeView(out, TensorType::INT16, dims, 2);
  auto op = CustomOp(IntMap({{"delay_length", 3}}));
  KRun r({&vi}, {&vo}, op->op, "SignalDelay");
  const int16_t in1[8] = {1, 2, 3, 4, 11, 12, 13, 14}, in2[8] = {5, 6, 7, 8, 15, 16, 17, 18};
  std::copy(in1, in1 + 8, in);
  ASSERT_EQ(r.ctx->Run(*Register_SIGNAL_DELAY()), StatusCode::kOk) << r.ctx->error().text;
  EXPECT_EQ(std::vector<int16_t>(out, out + 8), (std::vector<int16_t>{0, 0, 0, 1, 0, 0, 0, 11}));
  std::copy(in2, in2 + 8, in);
  ASSERT_EQ(r.ctx->Eval(*Register_SIGNAL_DELAY()), StatusCode::kOk);
  EXPECT_EQ(std::vector<int16_t>(out, out + 8), (std::vector<int16_t>{2, 3, 4, 5, 12, 13, 14, 15}));
  ASSERT_EQ(Register_SIGNAL_DELAY()->reset(*r.ctx), StatusCode::kOk);  // back to the leading zeros
  ASSERT_EQ(r.ctx->Eval(*Register_SIGNAL_DELAY()), StatusCode::kOk);
  EXPECT_EQ(std::vector<int16_t>(out, out + 8), (std::vector<int16_t>{0, 0, 0, 5, 0, 0, 0, 15}));
}

TEST(SignalFramerTest, PrefilledWindowsAndASkippedFirstFrame) {
  // frame 3, step 1, prefill: the stream starts with 2 zeros; two frames per Invoke.
  int16_t in[2], out[6];
  bool valid = false;
  int32_t in_dims[1] = {2}, out_dims[2] = {2, 3};
  TensorView vi = MakeView(in, TensorType::INT16, in_dims, 1);
  TensorView vo = MakeView(out, TensorType::INT16, out_dims, 2);
  TensorView vv = MakeView(&valid, TensorType::BOOL, nullptr, 0);
  auto op = CustomOp(IntMapWithBool({{"frame_size", 3}, {"frame_step", 1}}, "prefill", true));
  KRun r({&vi}, {&vo, &vv}, op->op, "SignalFramer");
  in[0] = 1, in[1] = 2;
  ASSERT_EQ(r.ctx->Run(*Register_SIGNAL_FRAMER()), StatusCode::kOk) << r.ctx->error().text;
  EXPECT_EQ(std::vector<int16_t>(out, out + 6), (std::vector<int16_t>{0, 0, 1, 0, 1, 2}));
  EXPECT_TRUE(valid);
  in[0] = 3, in[1] = 4;
  ASSERT_EQ(r.ctx->Eval(*Register_SIGNAL_FRAMER()), StatusCode::kOk);
  EXPECT_EQ(std::vector<int16_t>(out, out + 6), (std::vector<int16_t>{1, 2, 3, 2, 3, 4}));
  // frame 4, step 2, no prefill, one frame per Invoke: the first frame is not ready (output left
  // as it was, valid false), then windows [0, 4), [2, 6) of the stream.
  int16_t in2[2], out2[4] = {-7, -7, -7, -7};
  int32_t in2_dims[1] = {2}, out2_dims[2] = {1, 4};
  TensorView wi = MakeView(in2, TensorType::INT16, in2_dims, 1);
  TensorView wo = MakeView(out2, TensorType::INT16, out2_dims, 2);
  auto op2 = CustomOp(IntMapWithBool({{"frame_size", 4}, {"frame_step", 2}}, "prefill", false));
  KRun s({&wi}, {&wo, &vv}, op2->op, "SignalFramer");
  in2[0] = 1, in2[1] = 2;
  ASSERT_EQ(s.ctx->Run(*Register_SIGNAL_FRAMER()), StatusCode::kOk) << s.ctx->error().text;
  EXPECT_FALSE(valid);
  EXPECT_EQ(std::vector<int16_t>(out2, out2 + 4), (std::vector<int16_t>{-7, -7, -7, -7}));
  in2[0] = 3, in2[1] = 4;
  ASSERT_EQ(s.ctx->Eval(*Register_SIGNAL_FRAMER()), StatusCode::kOk);
  EXPECT_TRUE(valid);
  EXPECT_EQ(std::vector<int16_t>(out2, out2 + 4), (std::vector<int16_t>{1, 2, 3, 4}));
  in2[0] = 5, in2[1] = 6;
  ASSERT_EQ(s.ctx->Eval(*Register_SIGNAL_FRAMER()), StatusCode::kOk);
  EXPECT_EQ(std::vector<int16_t>(out2, out2 + 4), (std::vector<int16_t>{3, 4, 5, 6}));
}

TEST(SignalStackerTest, WindowsOfFramesWithContextAndStep) {
  // 2 channels, right context 1, step 2: a window of 2 frames every second Invoke.
  int16_t in[2], out[4] = {};
  bool valid = true;
  int32_t in_dims[1] = {2}, out_dims[1] = {4};
  TensorView vi = MakeView(in, TensorType::INT16, in_dims, 1);
  TensorView vo = MakeView(out, TensorType::INT16, out_dims, 1);
  TensorView vv = MakeView(&valid, TensorType::BOOL, nullptr, 0);
  auto op = CustomOp(
      IntMap({{"num_channels", 2}, {"stacker_left_context", 0}, {"stacker_right_context", 1}, {"stacker_step", 2}}));
  KRun r({&vi}, {&vo, &vv}, op->op, "SignalStacker");
  const std::vector<std::vector<int16_t>> frames = {{1, 2}, {3, 4}, {5, 6}, {7, 8}};
  const std::vector<std::vector<int16_t>> want = {{0, 0, 0, 0}, {1, 2, 3, 4}, {1, 2, 3, 4}, {5, 6, 7, 8}};
  for (size_t t = 0; t < frames.size(); ++t) {
    std::copy(frames[t].begin(), frames[t].end(), in);
    ASSERT_EQ(t == 0 ? r.ctx->Run(*Register_SIGNAL_STACKER()) : r.ctx->Eval(*Register_SIGNAL_STACKER()),
              StatusCode::kOk)
        << r.ctx->error().text;
    EXPECT_EQ(std::vector<int16_t>(out, out + 4), want[t]) << t;
    EXPECT_EQ(valid, t % 2 == 1) << t;
  }
  // Left context 2: the first frame fills the left context (three copies) and is output at once.
  int16_t out3[6] = {};
  int32_t out3_dims[1] = {6};
  TensorView wo = MakeView(out3, TensorType::INT16, out3_dims, 1);
  auto op3 = CustomOp(
      IntMap({{"num_channels", 2}, {"stacker_left_context", 2}, {"stacker_right_context", 0}, {"stacker_step", 1}}));
  KRun s({&vi}, {&wo, &vv}, op3->op, "SignalStacker");
  std::copy(frames[0].begin(), frames[0].end(), in);
  ASSERT_EQ(s.ctx->Run(*Register_SIGNAL_STACKER()), StatusCode::kOk) << s.ctx->error().text;
  EXPECT_TRUE(valid);
  EXPECT_EQ(std::vector<int16_t>(out3, out3 + 6), (std::vector<int16_t>{1, 2, 1, 2, 1, 2}));
  std::copy(frames[1].begin(), frames[1].end(), in);
  ASSERT_EQ(s.ctx->Eval(*Register_SIGNAL_STACKER()), StatusCode::kOk);
  EXPECT_EQ(std::vector<int16_t>(out3, out3 + 6), (std::vector<int16_t>{1, 2, 1, 2, 3, 4}));
}

TEST(SignalOverlapAddTest, Int16SaturatesFloatDoesNot) {
  // frame 4, step 2, one frame per Invoke: out = the buffer's first 2 samples, then it shifts by 2.
  int16_t in[4], out[2];
  int32_t in_dims[2] = {1, 4}, out_dims[1] = {2};
  TensorView vi = MakeView(in, TensorType::INT16, in_dims, 2);
  TensorView vo = MakeView(out, TensorType::INT16, out_dims, 1);
  auto op = CustomOp(IntMap({{"T", static_cast<int64_t>(tfl::TensorType::INT16)}, {"frame_step", 2}}));
  KRun r({&vi}, {&vo}, op->op, "SignalOverlapAdd");
  const int16_t f1[4] = {10000, 20000, 30000, 1}, f2[4] = {30000, 30000, 5, 5};
  std::copy(f1, f1 + 4, in);
  ASSERT_EQ(r.ctx->Run(*Register_SIGNAL_OVERLAP_ADD()), StatusCode::kOk) << r.ctx->error().text;
  EXPECT_EQ(std::vector<int16_t>(out, out + 2), (std::vector<int16_t>{10000, 20000}));
  std::copy(f2, f2 + 4, in);
  ASSERT_EQ(r.ctx->Eval(*Register_SIGNAL_OVERLAP_ADD()), StatusCode::kOk);
  EXPECT_EQ(std::vector<int16_t>(out, out + 2), (std::vector<int16_t>{32767, 30001}));
  float fin[4], fout[2];
  TensorView ui = MakeView(fin, TensorType::FLOAT32, in_dims, 2);
  TensorView uo = MakeView(fout, TensorType::FLOAT32, out_dims, 1);
  auto fop = CustomOp(IntMap({{"T", static_cast<int64_t>(tfl::TensorType::FLOAT32)}, {"frame_step", 2}}));
  KRun s({&ui}, {&uo}, fop->op, "SignalOverlapAdd");
  std::copy(f1, f1 + 4, fin);
  ASSERT_EQ(s.ctx->Run(*Register_SIGNAL_OVERLAP_ADD()), StatusCode::kOk) << s.ctx->error().text;
  std::copy(f2, f2 + 4, fin);
  ASSERT_EQ(s.ctx->Eval(*Register_SIGNAL_OVERLAP_ADD()), StatusCode::kOk);
  EXPECT_EQ(std::vector<float>(fout, fout + 2), (std::vector<float>{60000, 30001}));
}

TEST(SignalIrfftTest, FloatDcAndOneCosine) {
  // fft_length 4: bins X0..X2 (re, im). X0 = 4 -> all ones; X1 = 2 -> cos(pi n / 2).
  float in[6] = {4, 0, 0, 0, 0, 0}, out[4];
  int32_t in_dims[1] = {6}, out_dims[1] = {4};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 1);
  TensorView vo = MakeView(out, TensorType::FLOAT32, out_dims, 1);
  auto op = CustomOp(IntMap({{"T", static_cast<int64_t>(tfl::TensorType::FLOAT32)}, {"fft_length", 4}}));
  KRun r({&vi}, {&vo}, op->op, "SignalIrfft");
  ASSERT_EQ(r.ctx->Run(*Register_SIGNAL_IRFFT()), StatusCode::kOk) << r.ctx->error().text;
  for (int n = 0; n < 4; ++n) EXPECT_NEAR(out[n], 1.0f, 1e-6) << n;
  const float cosine[6] = {0, 0, 2, 0, 0, 0};
  std::copy(cosine, cosine + 6, in);
  ASSERT_EQ(r.ctx->Eval(*Register_SIGNAL_IRFFT()), StatusCode::kOk);
  const float want[4] = {1, 0, -1, 0};
  for (int n = 0; n < 4; ++n) EXPECT_NEAR(out[n], want[n], 1e-6) << n;
}

TEST(CircularBufferTest, RunsEveryCyclesMaxInvokesAndShiftsEachTime) {
  // 3 slots of depth 2, cycles_max 2: every Invoke shifts the input in; only every second one
  // lets the graph go on (the others end it: kAborted, TFLM's kTfLiteAbort).
  int8_t in[2], out[6];
  int32_t in_dims[4] = {1, 1, 1, 2}, out_dims[4] = {1, 3, 1, 2};
  TensorView vi = MakeView(in, TensorType::INT8, in_dims, 4, 0.1f, 0);
  TensorView vo = MakeView(out, TensorType::INT8, out_dims, 4, 0.1f, 0);
  auto op = CustomOp(IntMap({{"cycles_max", 2}}));
  KRun r({&vi}, {&vo}, op->op, "CIRCULAR_BUFFER");
  in[0] = 1, in[1] = 2;
  EXPECT_EQ(r.ctx->Run(*Register_CIRCULAR_BUFFER()), StatusCode::kAborted);
  EXPECT_EQ(std::vector<int8_t>(out, out + 6), (std::vector<int8_t>{0, 0, 0, 0, 1, 2}));
  in[0] = 3, in[1] = 4;
  EXPECT_EQ(r.ctx->Eval(*Register_CIRCULAR_BUFFER()), StatusCode::kOk);
  EXPECT_EQ(std::vector<int8_t>(out, out + 6), (std::vector<int8_t>{0, 0, 1, 2, 3, 4}));
  in[0] = 5, in[1] = 6;
  EXPECT_EQ(r.ctx->Eval(*Register_CIRCULAR_BUFFER()), StatusCode::kAborted);
  EXPECT_EQ(std::vector<int8_t>(out, out + 6), (std::vector<int8_t>{1, 2, 3, 4, 5, 6}));
  ASSERT_EQ(Register_CIRCULAR_BUFFER()->reset(*r.ctx), StatusCode::kOk);  // empty again, cycle restarted
  EXPECT_EQ(r.ctx->Eval(*Register_CIRCULAR_BUFFER()), StatusCode::kAborted);
  EXPECT_EQ(std::vector<int8_t>(out, out + 6), (std::vector<int8_t>{0, 0, 0, 0, 5, 6}));
}

}  // namespace
}  // namespace arenaplan::rt
