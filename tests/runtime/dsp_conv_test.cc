// The fast int8 CONV_2D and DEPTHWISE_CONV_2D (kernels/dsp/, DSP instructions emulated on the
// host) against the portable kernels on random shapes, strides, dilations, paddings, channel
// counts that are not multiples of the SIMD width, per-tensor and per-channel filters, activations
// and extreme biases: every output byte must be equal, and the fast path must have run.
#include <gtest/gtest.h>

#include <cmath>

#include "dsp_testutil.h"
#include "runtime/kernels/dsp/registrations.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::testing {
namespace {

struct ConvCase {
  int32_t batches, in_h, in_w, in_d, out_d, f_h, f_w, stride_h, stride_w, dil_h, dil_w;
  tfl::Padding padding;
  tfl::ActivationFunctionType act;
  bool per_channel, bias, huge_bias;
};

int32_t OutSize(tfl::Padding p, int32_t in, int32_t f, int32_t stride, int32_t dil) {
  const int32_t eff = (f - 1) * dil + 1;
  return p == tfl::Padding::SAME ? (in + stride - 1) / stride : (in - eff + stride) / stride;
}

ConvCase RandomConvCase(Random& r) {
  ConvCase c;
  c.batches = r.Int(1, 2);
  c.in_h = r.Int(1, 9);
  c.in_w = r.Int(1, 9);
  c.in_d = r.Int(1, 13);
  c.out_d = r.Int(1, 11);
  c.f_h = r.Int(1, 4);
  c.f_w = r.Int(1, 4);
  c.stride_h = r.Int(1, 3);
  c.stride_w = r.Int(1, 3);
  c.dil_h = r.Int(0, 3) == 0 ? 2 : 1;
  c.dil_w = r.Int(0, 3) == 0 ? 2 : 1;
  c.padding = r.Coin() ? tfl::Padding::SAME : tfl::Padding::VALID;
  const tfl::ActivationFunctionType acts[] = {tfl::ActivationFunctionType::NONE, tfl::ActivationFunctionType::RELU,
                                              tfl::ActivationFunctionType::RELU6};
  c.act = acts[r.Int(0, 2)];
  c.per_channel = r.Coin();
  c.bias = r.Int(0, 3) != 0;
  c.huge_bias = r.Int(0, 7) == 0;
  return c;
}

std::string Describe(const ConvCase& c) {
  char s[200];
  std::snprintf(s, sizeof(s), "in [%d,%d,%d,%d] filter %dx%d out_d %d stride %d,%d dil %d,%d %s act %d %s bias %d",
                c.batches, c.in_h, c.in_w, c.in_d, c.f_h, c.f_w, c.out_d, c.stride_h, c.stride_w, c.dil_h, c.dil_w,
                c.padding == tfl::Padding::SAME ? "SAME" : "VALID", static_cast<int>(c.act),
                c.per_channel ? "per-channel" : "per-tensor", c.bias ? (c.huge_bias ? 2 : 1) : 0);
  return s;
}

// Random tensors for case c: filter [filter_n, f_h, f_w, filter_d], bias of out_d values.
struct ConvTensorsForTest {
  std::unique_ptr<Tensor<int8_t>> in, w, out;
  std::unique_ptr<Tensor<int32_t>> b;
  std::vector<float> scales;
  std::vector<int64_t> zps;
};

ConvTensorsForTest MakeTensors(Random& r, const ConvCase& c, int32_t out_h, int32_t out_w, int32_t filter_n,
                               int32_t filter_d, int32_t quant_dim) {
  ConvTensorsForTest t;
  const float s_in = r.Real(0.005f, 0.1f);
  const std::vector<int32_t> in_dims = {c.batches, c.in_h, c.in_w, c.in_d};
  const std::vector<int32_t> w_dims = {filter_n, c.f_h, c.f_w, filter_d};
  t.in = std::make_unique<Tensor<int8_t>>(r.Values<int8_t>(Count(in_dims), -128, 127), in_dims, TensorType::INT8, s_in,
                                          r.Int(-128, 127));
  t.w = std::make_unique<Tensor<int8_t>>(r.Values<int8_t>(Count(w_dims), -128, 127), w_dims, TensorType::INT8,
                                         r.Real(0.001f, 0.02f), 0);
  const int32_t channels = c.out_d;
  if (c.per_channel) {
    for (int32_t i = 0; i < channels; ++i) t.scales.push_back(r.Real(0.001f, 0.02f));
    SetPerChannel(&t.w->view, t.scales, &t.zps, quant_dim);
  }
  const int32_t depth = c.f_h * c.f_w * filter_d;
  // Output scale around the accumulator's spread, so outputs span the range, clamp sometimes,
  // and the multiplier is sometimes above 1 (a left shift).
  const float s_out = s_in * t.w->view.scale * std::sqrt(static_cast<float>(depth)) * r.Real(0.02f, 3.0f) * 60.0f;
  const std::vector<int32_t> out_dims = {c.batches, out_h, out_w, c.out_d};
  t.out = std::make_unique<Tensor<int8_t>>(std::vector<int8_t>(Count(out_dims)), out_dims, TensorType::INT8, s_out,
                                           r.Int(-128, 127));
  const int32_t bias_range = c.huge_bias ? (1 << 30) : (1 << 14);
  t.b = std::make_unique<Tensor<int32_t>>(r.Values<int32_t>(channels, -bias_range, bias_range),
                                          std::vector<int32_t>{channels}, TensorType::INT32);
  return t;
}

TEST(DspConv, MatchesPortableOnRandomCases) {
  Random r(16);
  int run = 0;
  for (int i = 0; i < 400; ++i) {
    const ConvCase c = RandomConvCase(r);
    const int32_t out_h = OutSize(c.padding, c.in_h, c.f_h, c.stride_h, c.dil_h);
    const int32_t out_w = OutSize(c.padding, c.in_w, c.f_w, c.stride_w, c.dil_w);
    if (out_h < 1 || out_w < 1) continue;
    ConvTensorsForTest t = MakeTensors(r, c, out_h, out_w, c.out_d, c.in_d, 0);
    auto op = MakeOp(tfl::BuiltinOptions::Conv2DOptions, [&](flatbuffers::FlatBufferBuilder& fbb) {
      return tfl::CreateConv2DOptions(fbb, c.padding, c.stride_w, c.stride_h, c.act, c.dil_w, c.dil_h);
    });
    std::vector<TensorView*> ins = {&t.in->view, &t.w->view, c.bias ? &t.b->view : nullptr};
    std::vector<uint32_t> scratch;
    const std::string diff = CompareKernels(rt::Register_CONV_2D(), rt::Register_CONV_2D_DSP(), ins, t.out.get(),
                                            op->op, &scratch);
    ASSERT_EQ(diff, "") << Describe(c);
    ASSERT_EQ(scratch.size(), 1u) << "fast path not taken: " << Describe(c);
    ++run;
  }
  EXPECT_GT(run, 300);
}

TEST(DspConv, GroupedAndFloatFallBackToPortable) {
  Random r(3);
  ConvCase c{1,     4,    4,    4, 4, 1, 1, 1, 1, 1, 1, tfl::Padding::VALID, tfl::ActivationFunctionType::NONE,
             false, true, false};
  ConvTensorsForTest t = MakeTensors(r, c, 4, 4, c.out_d, 2, 0);  // filter depth 2: two groups
  std::vector<uint32_t> scratch;
  const std::string diff = CompareKernels(rt::Register_CONV_2D(), rt::Register_CONV_2D_DSP(),
                                          {&t.in->view, &t.w->view, &t.b->view}, t.out.get(), nullptr, &scratch);
  EXPECT_EQ(diff, "");
  EXPECT_TRUE(scratch.empty());
}

TEST(DspDepthwiseConv, MatchesPortableOnRandomCases) {
  Random r(17);
  int fast = 0;
  for (int i = 0; i < 400; ++i) {
    ConvCase c = RandomConvCase(r);
    const int32_t multiplier = r.Int(0, 3) == 0 ? r.Int(2, 5) : 1;
    c.out_d = c.in_d * multiplier;
    const int32_t out_h = OutSize(c.padding, c.in_h, c.f_h, c.stride_h, c.dil_h);
    const int32_t out_w = OutSize(c.padding, c.in_w, c.f_w, c.stride_w, c.dil_w);
    if (out_h < 1 || out_w < 1) continue;
    ConvTensorsForTest t = MakeTensors(r, c, out_h, out_w, 1, c.out_d, 3);
    auto op = MakeOp(tfl::BuiltinOptions::DepthwiseConv2DOptions, [&](flatbuffers::FlatBufferBuilder& fbb) {
      return tfl::CreateDepthwiseConv2DOptions(fbb, c.padding, c.stride_w, c.stride_h, multiplier, c.act, c.dil_w,
                                               c.dil_h);
    });
    std::vector<TensorView*> ins = {&t.in->view, &t.w->view, c.bias ? &t.b->view : nullptr};
    std::vector<uint32_t> scratch;
    const std::string diff = CompareKernels(rt::Register_DEPTHWISE_CONV_2D(), rt::Register_DEPTHWISE_CONV_2D_DSP(), ins,
                                            t.out.get(), op->op, &scratch);
    ASSERT_EQ(diff, "") << Describe(c) << " multiplier " << multiplier;
    // The fast path (it asks for its row buffers) runs for every multiplier without dilation.
    const bool want_fast = c.dil_h == 1 && c.dil_w == 1;
    ASSERT_EQ(scratch.size(), want_fast ? 1u : 0u) << Describe(c) << " multiplier " << multiplier;
    fast += want_fast ? 1 : 0;
  }
  EXPECT_GT(fast, 100);
}

}  // namespace
}  // namespace arenaplan::testing
