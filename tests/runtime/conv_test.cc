// CONV_2D kernel: float cases from TFLM's conv_test.cc (SimpleTestFloat) and hand-computed cases
// for padding, dilation, groups, per-channel int8 and int16x8 with an int64 bias.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "kernel_a_testutil.h"
#include "runtime/kernels/registrations.h"
#include "tensor_testutil.h"

namespace arenaplan::testing {
namespace {

std::unique_ptr<OpHolder> ConvOp(tfl::Padding padding, int stride_w, int stride_h,
                                 tfl::ActivationFunctionType act = tfl::ActivationFunctionType::NONE,
                                 int dilation_w = 1, int dilation_h = 1) {
  return MakeOp(tfl::BuiltinOptions::Conv2DOptions, [&](flatbuffers::FlatBufferBuilder& fbb) {
    return tfl::CreateConv2DOptions(fbb, padding, stride_w, stride_h, act, dilation_w, dilation_h);
  });
}

// CONV_2D of `ins` (input, filter, optional bias) into `out`.
KernelRun Conv(std::vector<TensorView*> ins, TensorView* out, const std::unique_ptr<OpHolder>& op) {
  return RunKernel(rt::Register_CONV_2D(), std::move(ins), {out}, op->op);
}

TEST(ConvKernel, FloatTflmSimpleTest) {
  Tensor<float> in({1, 1, 1, 1, 2, 2, 2, 2, 1, 2, 3, 4, 1, 2, 3, 4}, {2, 2, 4, 1}, TensorType::FLOAT32);
  Tensor<float> w({1, 2, 3, 4, -1, 1, -1, 1, -1, -1, 1, 1}, {3, 2, 2, 1}, TensorType::FLOAT32);
  Tensor<float> b({1, 2, 3}, {3}, TensorType::FLOAT32);
  Tensor<float> out(std::vector<float>(12), {2, 1, 2, 3}, TensorType::FLOAT32);
  auto r = Conv({&in.view, &w.view, &b.view}, &out.view, ConvOp(tfl::Padding::VALID, 2, 2));
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  const float want[12] = {18, 2, 5, 18, 2, 5, 17, 4, 3, 37, 4, 3};
  for (int i = 0; i < 12; ++i) EXPECT_EQ(out.data[i], want[i]) << i;
}

TEST(ConvKernel, FloatSamePaddingRelu6CountsInImageTaps) {
  Tensor<float> in(std::vector<float>(9, 1.0f), {1, 3, 3, 1}, TensorType::FLOAT32);
  Tensor<float> w(std::vector<float>(9, 1.0f), {1, 3, 3, 1}, TensorType::FLOAT32);
  Tensor<float> out(std::vector<float>(9), {1, 3, 3, 1}, TensorType::FLOAT32);
  auto r = Conv({&in.view, &w.view}, &out.view, ConvOp(tfl::Padding::SAME, 1, 1, tfl::ActivationFunctionType::RELU6));
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  // 4 taps in corners, 6 on edges, 9 in the centre, clamped to 6.
  const float want[9] = {4, 6, 4, 6, 6, 6, 4, 6, 4};
  for (int i = 0; i < 9; ++i) EXPECT_EQ(out.data[i], want[i]) << i;
}

TEST(ConvKernel, FloatDilation) {
  Tensor<float> in(std::vector<float>(16), {1, 4, 4, 1}, TensorType::FLOAT32);
  for (int i = 0; i < 16; ++i) in.data[i] = static_cast<float>(i);
  Tensor<float> w({1, 1, 1, 1}, {1, 2, 2, 1}, TensorType::FLOAT32);
  Tensor<float> out(std::vector<float>(4), {1, 2, 2, 1}, TensorType::FLOAT32);
  auto r = Conv({&in.view, &w.view, nullptr}, &out.view,
                ConvOp(tfl::Padding::VALID, 1, 1, tfl::ActivationFunctionType::NONE, 2, 2));
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  // in(y,x) + in(y,x+2) + in(y+2,x) + in(y+2,x+2)
  EXPECT_EQ(out.data[0], 0 + 2 + 8 + 10);
  EXPECT_EQ(out.data[1], 1 + 3 + 9 + 11);
  EXPECT_EQ(out.data[2], 4 + 6 + 12 + 14);
  EXPECT_EQ(out.data[3], 5 + 7 + 13 + 15);
}

TEST(ConvKernel, FloatGroupedReadsOwnInputChannels) {
  Tensor<float> in({3, 5}, {1, 1, 1, 2}, TensorType::FLOAT32);
  Tensor<float> w({2, 10}, {2, 1, 1, 1}, TensorType::FLOAT32);
  Tensor<float> out(std::vector<float>(2), {1, 1, 1, 2}, TensorType::FLOAT32);
  auto r = Conv({&in.view, &w.view}, &out.view, ConvOp(tfl::Padding::VALID, 1, 1));
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out.data[0], 6);
  EXPECT_EQ(out.data[1], 50);
}

TEST(ConvKernel, Int8PerChannel) {
  // Input scale 0.5, zero point -1; filter scales {1, 0.5}; output scale 0.5, zero point 3:
  // multipliers are exactly 1 and 0.5.
  Tensor<int8_t> in({1, 3, 5, 7}, {1, 2, 2, 1}, TensorType::INT8, 0.5f, -1);  // real offsets 2, 4, 6, 8
  Tensor<int8_t> w({1, 1, 1, 1, 1, -1, 2, 0}, {2, 2, 2, 1}, TensorType::INT8);
  std::vector<float> scales = {1.0f, 0.5f};
  std::vector<int64_t> zps;
  SetPerChannel(&w.view, scales, &zps, 0);
  Tensor<int32_t> b({10, -3}, {2}, TensorType::INT32);
  Tensor<int8_t> out(std::vector<int8_t>(2), {1, 1, 1, 2}, TensorType::INT8, 0.5f, 3);
  auto r = Conv({&in.view, &w.view, &b.view}, &out.view, ConvOp(tfl::Padding::VALID, 1, 1));
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out.data[0], 33);  // (2+4+6+8) + 10 = 30, x1, + 3
  EXPECT_EQ(out.data[1], 7);   // (2-4+12) - 3 = 7, x0.5 = 3.5 -> 4, + 3
}

TEST(ConvKernel, Int8ReluClampsAtZeroPoint) {
  Tensor<int8_t> in({-5}, {1, 1, 1, 1}, TensorType::INT8, 1.0f, 0);
  Tensor<int8_t> w({1}, {1, 1, 1, 1}, TensorType::INT8, 1.0f, 0);
  Tensor<int8_t> out({0}, {1, 1, 1, 1}, TensorType::INT8, 1.0f, 2);
  auto r = Conv({&in.view, &w.view}, &out.view, ConvOp(tfl::Padding::VALID, 1, 1, tfl::ActivationFunctionType::RELU));
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out.data[0], 2);  // -5 + 2 = -3, clamped to the zero point (real 0)
}

TEST(ConvKernel, Int16x8WithInt64Bias) {
  Tensor<int16_t> in({100, -200, 300, 400}, {1, 2, 2, 1}, TensorType::INT16, 1.0f, 0);
  Tensor<int8_t> w({1, 2, 3, 4}, {1, 2, 2, 1}, TensorType::INT8, 0.5f, 0);
  Tensor<int64_t> b({1001}, {1}, TensorType::INT64);
  Tensor<int16_t> out({0}, {1, 1, 1, 1}, TensorType::INT16, 1.0f, 0);
  auto r = Conv({&in.view, &w.view, &b.view}, &out.view, ConvOp(tfl::Padding::VALID, 1, 1));
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out.data[0], 1601);  // (100 - 400 + 900 + 1600 + 1001) * 0.5 = 1600.5 -> 1601
}

// A hostile int64 bias at the type's limit: the accumulator (2200 + INT64_MAX) wraps instead of
// overflowing. It was a signed overflow, found by the runtime fuzzer; under UBSan this test then
// stops. TFLM's reference kernel has the overflow, so there is no output to match, only no UB.
TEST(ConvKernel, Int16x8BiasAtTheInt64LimitWraps) {
  Tensor<int16_t> in({100, -200, 300, 400}, {1, 2, 2, 1}, TensorType::INT16, 1.0f, 0);
  Tensor<int8_t> w({1, 2, 3, 4}, {1, 2, 2, 1}, TensorType::INT8, 0.5f, 0);
  Tensor<int64_t> b({std::numeric_limits<int64_t>::max()}, {1}, TensorType::INT64);
  Tensor<int16_t> out({0}, {1, 1, 1, 1}, TensorType::INT16, 1.0f, 0);
  auto r = Conv({&in.view, &w.view, &b.view}, &out.view, ConvOp(tfl::Padding::VALID, 1, 1));
  EXPECT_EQ(r.status, StatusCode::kOk) << r.error;
}

TEST(ConvKernel, RejectsHybridAndBadShapes) {
  Tensor<float> in(std::vector<float>(4), {1, 2, 2, 1}, TensorType::FLOAT32);
  Tensor<int8_t> w8(std::vector<int8_t>(4), {1, 2, 2, 1}, TensorType::INT8, 1.0f);
  Tensor<float> out(std::vector<float>(4), {1, 2, 2, 1}, TensorType::FLOAT32);
  auto r = RunKernel(rt::Register_CONV_2D(), {&in.view, &w8.view}, {&out.view});
  EXPECT_EQ(r.status, StatusCode::kUnsupported);
  EXPECT_NE(r.error.find("hybrid"), std::string::npos) << r.error;
  Tensor<float> w(std::vector<float>(4), {1, 2, 2, 1}, TensorType::FLOAT32);
  int32_t bad_out[4] = {1, 1, 1, 3};
  TensorView vbad = MakeView(out.data.data(), TensorType::FLOAT32, bad_out, 4);
  r = RunKernel(rt::Register_CONV_2D(), {&in.view, &w.view}, {&vbad});
  EXPECT_EQ(r.status, StatusCode::kInvalidModel) << r.error;
  r = RunKernel(rt::Register_CONV_2D(), {&in.view}, {&out.view});
  EXPECT_EQ(r.status, StatusCode::kInvalidModel) << r.error;
}

TEST(ConvKernel, RejectsShortConstantFilterAndZeroStride) {
  Tensor<float> in(std::vector<float>(4), {1, 2, 2, 1}, TensorType::FLOAT32);
  Tensor<float> w(std::vector<float>(4), {1, 2, 2, 1}, TensorType::FLOAT32);
  Tensor<float> out(std::vector<float>(4), {1, 2, 2, 1}, TensorType::FLOAT32);
  w.view.bytes = 8;  // the buffer holds 2 of the 4 floats the shape promises
  auto r = RunKernel(rt::Register_CONV_2D(), {&in.view, &w.view}, {&out.view});
  EXPECT_EQ(r.status, StatusCode::kInvalidModel) << r.error;
  w.view.bytes = 16;
  r = Conv({&in.view, &w.view}, &out.view, ConvOp(tfl::Padding::SAME, 0, 1));
  EXPECT_EQ(r.status, StatusCode::kInvalidModel) << r.error;
  EXPECT_NE(r.error.find("strides"), std::string::npos) << r.error;
}

TEST(ConvKernel, OutputLargerThanValidReadsOnlyInImageTaps) {
  // A model may declare a bigger output than VALID padding gives; taps past the image are skipped
  // (as in TFLM), never read out of bounds.
  Tensor<float> in({1, 2, 3, 4}, {1, 2, 2, 1}, TensorType::FLOAT32);
  Tensor<float> w({1, 1, 1, 1}, {1, 2, 2, 1}, TensorType::FLOAT32);
  Tensor<float> out(std::vector<float>(9), {1, 3, 3, 1}, TensorType::FLOAT32);
  auto r = Conv({&in.view, &w.view}, &out.view, ConvOp(tfl::Padding::VALID, 1, 1));
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  const float want[9] = {10, 6, 0, 7, 4, 0, 0, 0, 0};
  for (int i = 0; i < 9; ++i) EXPECT_EQ(out.data[i], want[i]) << i;
}

}  // namespace
}  // namespace arenaplan::testing
