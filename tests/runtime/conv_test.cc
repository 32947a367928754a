// CONV_2D kernel: float cases from TFLM's conv_test.cc (SimpleTestFloat) and hand-computed cases
// for padding, dilation, groups, per-channel int8 and int16x8 with an int64 bias.
#include <gtest/gtest.h>

#include <vector>

#include "kernel_a_testutil.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::testing {
namespace {

using rt::MakeView;
using rt::Status;
using rt::TensorType;
using rt::TensorView;

std::unique_ptr<OpHolder> ConvOp(tfl::Padding padding, int stride_w, int stride_h,
                                 tfl::ActivationFunctionType act = tfl::ActivationFunctionType::NONE,
                                 int dilation_w = 1, int dilation_h = 1) {
  return MakeOp(tfl::BuiltinOptions::Conv2DOptions, [&](flatbuffers::FlatBufferBuilder& fbb) {
    return tfl::CreateConv2DOptions(fbb, padding, stride_w, stride_h, act, dilation_w, dilation_h);
  });
}

TEST(ConvKernel, FloatTflmSimpleTest) {
  float in[16] = {1, 1, 1, 1, 2, 2, 2, 2, 1, 2, 3, 4, 1, 2, 3, 4};
  float w[12] = {1, 2, 3, 4, -1, 1, -1, 1, -1, -1, 1, 1};
  float b[3] = {1, 2, 3};
  float out[12] = {};
  int32_t in_dims[4] = {2, 2, 4, 1}, w_dims[4] = {3, 2, 2, 1}, b_dims[1] = {3}, out_dims[4] = {2, 1, 2, 3};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 4), vw = MakeView(w, TensorType::FLOAT32, w_dims, 4);
  TensorView vb = MakeView(b, TensorType::FLOAT32, b_dims, 1), vo = MakeView(out, TensorType::FLOAT32, out_dims, 4);
  auto op = ConvOp(tfl::Padding::VALID, 2, 2);
  auto r = RunKernel(rt::Register_CONV_2D(), {&vi, &vw, &vb}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  const float want[12] = {18, 2, 5, 18, 2, 5, 17, 4, 3, 37, 4, 3};
  for (int i = 0; i < 12; ++i) EXPECT_EQ(out[i], want[i]) << i;
}

TEST(ConvKernel, FloatSamePaddingRelu6CountsInImageTaps) {
  float in[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  float w[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  float out[9] = {};
  int32_t in_dims[4] = {1, 3, 3, 1}, w_dims[4] = {1, 3, 3, 1};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 4), vw = MakeView(w, TensorType::FLOAT32, w_dims, 4);
  TensorView vo = MakeView(out, TensorType::FLOAT32, in_dims, 4);
  auto op = ConvOp(tfl::Padding::SAME, 1, 1, tfl::ActivationFunctionType::RELU6);
  auto r = RunKernel(rt::Register_CONV_2D(), {&vi, &vw}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  // 4 taps in corners, 6 on edges, 9 in the centre, clamped to 6.
  const float want[9] = {4, 6, 4, 6, 6, 6, 4, 6, 4};
  for (int i = 0; i < 9; ++i) EXPECT_EQ(out[i], want[i]) << i;
}

TEST(ConvKernel, FloatDilation) {
  float in[16];
  for (int i = 0; i < 16; ++i) in[i] = static_cast<float>(i);
  float w[4] = {1, 1, 1, 1};
  float out[4] = {};
  int32_t in_dims[4] = {1, 4, 4, 1}, w_dims[4] = {1, 2, 2, 1}, out_dims[4] = {1, 2, 2, 1};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 4), vw = MakeView(w, TensorType::FLOAT32, w_dims, 4);
  TensorView vo = MakeView(out, TensorType::FLOAT32, out_dims, 4);
  auto op = ConvOp(tfl::Padding::VALID, 1, 1, tfl::ActivationFunctionType::NONE, 2, 2);
  auto r = RunKernel(rt::Register_CONV_2D(), {&vi, &vw, nullptr}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  // in(y,x) + in(y,x+2) + in(y+2,x) + in(y+2,x+2)
  EXPECT_EQ(out[0], 0 + 2 + 8 + 10);
  EXPECT_EQ(out[1], 1 + 3 + 9 + 11);
  EXPECT_EQ(out[2], 4 + 6 + 12 + 14);
  EXPECT_EQ(out[3], 5 + 7 + 13 + 15);
}

TEST(ConvKernel, FloatGroupedReadsOwnInputChannels) {
  float in[2] = {3, 5};
  float w[2] = {2, 10};
  float out[2] = {};
  int32_t in_dims[4] = {1, 1, 1, 2}, w_dims[4] = {2, 1, 1, 1};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 4), vw = MakeView(w, TensorType::FLOAT32, w_dims, 4);
  TensorView vo = MakeView(out, TensorType::FLOAT32, in_dims, 4);
  auto op = ConvOp(tfl::Padding::VALID, 1, 1);
  auto r = RunKernel(rt::Register_CONV_2D(), {&vi, &vw}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(out[0], 6);
  EXPECT_EQ(out[1], 50);
}

TEST(ConvKernel, Int8PerChannel) {
  // Input scale 0.5, zero point -1; filter scales {1, 0.5}; output scale 0.5, zero point 3:
  // multipliers are exactly 1 and 0.5.
  int8_t in[4] = {1, 3, 5, 7};  // real offsets 2, 4, 6, 8
  int8_t w[8] = {1, 1, 1, 1, 1, -1, 2, 0};
  int32_t b[2] = {10, -3};
  int8_t out[2] = {};
  int32_t in_dims[4] = {1, 2, 2, 1}, w_dims[4] = {2, 2, 2, 1}, b_dims[1] = {2}, out_dims[4] = {1, 1, 1, 2};
  TensorView vi = MakeView(in, TensorType::INT8, in_dims, 4, 0.5f, -1);
  TensorView vw = MakeView(w, TensorType::INT8, w_dims, 4);
  std::vector<float> scales = {1.0f, 0.5f};
  std::vector<int64_t> zps;
  SetPerChannel(&vw, scales, &zps, 0);
  TensorView vb = MakeView(b, TensorType::INT32, b_dims, 1);
  TensorView vo = MakeView(out, TensorType::INT8, out_dims, 4, 0.5f, 3);
  auto op = ConvOp(tfl::Padding::VALID, 1, 1);
  auto r = RunKernel(rt::Register_CONV_2D(), {&vi, &vw, &vb}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(out[0], 33);  // (2+4+6+8) + 10 = 30, x1, + 3
  EXPECT_EQ(out[1], 7);   // (2-4+12) - 3 = 7, x0.5 = 3.5 -> 4, + 3
}

TEST(ConvKernel, Int8ReluClampsAtZeroPoint) {
  int8_t in[1] = {-5};
  int8_t w[1] = {1};
  int8_t out[1] = {};
  int32_t dims[4] = {1, 1, 1, 1};
  TensorView vi = MakeView(in, TensorType::INT8, dims, 4, 1.0f, 0);
  TensorView vw = MakeView(w, TensorType::INT8, dims, 4, 1.0f, 0);
  TensorView vo = MakeView(out, TensorType::INT8, dims, 4, 1.0f, 2);
  auto op = ConvOp(tfl::Padding::VALID, 1, 1, tfl::ActivationFunctionType::RELU);
  auto r = RunKernel(rt::Register_CONV_2D(), {&vi, &vw}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(out[0], 2);  // -5 + 2 = -3, clamped to the zero point (real 0)
}

TEST(ConvKernel, Int16x8WithInt64Bias) {
  int16_t in[4] = {100, -200, 300, 400};
  int8_t w[4] = {1, 2, 3, 4};
  int64_t b[1] = {1001};
  int16_t out[1] = {};
  int32_t in_dims[4] = {1, 2, 2, 1}, w_dims[4] = {1, 2, 2, 1}, b_dims[1] = {1}, out_dims[4] = {1, 1, 1, 1};
  TensorView vi = MakeView(in, TensorType::INT16, in_dims, 4, 1.0f, 0);
  TensorView vw = MakeView(w, TensorType::INT8, w_dims, 4, 0.5f, 0);
  TensorView vb = MakeView(b, TensorType::INT64, b_dims, 1);
  TensorView vo = MakeView(out, TensorType::INT16, out_dims, 4, 1.0f, 0);
  auto op = ConvOp(tfl::Padding::VALID, 1, 1);
  auto r = RunKernel(rt::Register_CONV_2D(), {&vi, &vw, &vb}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(out[0], 1601);  // (100 - 400 + 900 + 1600 + 1001) * 0.5 = 1600.5 -> 1601
}

TEST(ConvKernel, RejectsHybridAndBadShapes) {
  float in[4] = {};
  int8_t w8[4] = {};
  float w[4] = {};
  float out[4] = {};
  int32_t dims[4] = {1, 2, 2, 1}, bad_out[4] = {1, 1, 1, 3};
  TensorView vi = MakeView(in, TensorType::FLOAT32, dims, 4), vw8 = MakeView(w8, TensorType::INT8, dims, 4, 1.0f);
  TensorView vo = MakeView(out, TensorType::FLOAT32, dims, 4);
  auto r = RunKernel(rt::Register_CONV_2D(), {&vi, &vw8}, {&vo});
  EXPECT_EQ(r.status, Status::kUnsupported);
  EXPECT_NE(r.error.find("hybrid"), std::string::npos) << r.error;
  TensorView vw = MakeView(w, TensorType::FLOAT32, dims, 4), vbad = MakeView(out, TensorType::FLOAT32, bad_out, 4);
  r = RunKernel(rt::Register_CONV_2D(), {&vi, &vw}, {&vbad});
  EXPECT_EQ(r.status, Status::kInvalidModel) << r.error;
  r = RunKernel(rt::Register_CONV_2D(), {&vi}, {&vo});
  EXPECT_EQ(r.status, Status::kInvalidModel) << r.error;
}

TEST(ConvKernel, RejectsShortConstantFilterAndZeroStride) {
  float in[4] = {}, w[4] = {}, out[4] = {};
  int32_t dims[4] = {1, 2, 2, 1};
  TensorView vi = MakeView(in, TensorType::FLOAT32, dims, 4), vw = MakeView(w, TensorType::FLOAT32, dims, 4);
  TensorView vo = MakeView(out, TensorType::FLOAT32, dims, 4);
  vw.bytes = 8;  // the buffer holds 2 of the 4 floats the shape promises
  auto r = RunKernel(rt::Register_CONV_2D(), {&vi, &vw}, {&vo});
  EXPECT_EQ(r.status, Status::kInvalidModel) << r.error;
  vw.bytes = 16;
  auto op = ConvOp(tfl::Padding::SAME, 0, 1);
  r = RunKernel(rt::Register_CONV_2D(), {&vi, &vw}, {&vo}, op->op);
  EXPECT_EQ(r.status, Status::kInvalidModel) << r.error;
  EXPECT_NE(r.error.find("strides"), std::string::npos) << r.error;
}

TEST(ConvKernel, OutputLargerThanValidReadsOnlyInImageTaps) {
  // A model may declare a bigger output than VALID padding gives; taps past the image are skipped
  // (as in TFLM), never read out of bounds.
  float in[4] = {1, 2, 3, 4}, w[4] = {1, 1, 1, 1}, out[9] = {};
  int32_t in_dims[4] = {1, 2, 2, 1}, out_dims[4] = {1, 3, 3, 1};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 4), vw = MakeView(w, TensorType::FLOAT32, in_dims, 4);
  TensorView vo = MakeView(out, TensorType::FLOAT32, out_dims, 4);
  auto op = ConvOp(tfl::Padding::VALID, 1, 1);
  auto r = RunKernel(rt::Register_CONV_2D(), {&vi, &vw}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  const float want[9] = {10, 6, 0, 7, 4, 0, 0, 0, 0};
  for (int i = 0; i < 9; ++i) EXPECT_EQ(out[i], want[i]) << i;
}

}  // namespace
}  // namespace arenaplan::testing
