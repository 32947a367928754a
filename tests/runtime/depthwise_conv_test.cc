// DEPTHWISE_CONV_2D kernel: TFLM's depthwise_conv_test.cc SimpleTest (float, depth multiplier 2) and
// hand-computed int8 per-channel / int16 cases with SAME padding and dilation.
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

std::unique_ptr<OpHolder> DwOp(tfl::Padding padding, int stride, int depth_multiplier, int dilation = 1,
                               tfl::ActivationFunctionType act = tfl::ActivationFunctionType::NONE) {
  return MakeOp(tfl::BuiltinOptions::DepthwiseConv2DOptions, [&](flatbuffers::FlatBufferBuilder& fbb) {
    return tfl::CreateDepthwiseConv2DOptions(fbb, padding, stride, stride, depth_multiplier, act, dilation, dilation);
  });
}

TEST(DepthwiseConvKernel, FloatTflmSimpleTest) {
  float in[12] = {1, 2, 7, 8, 3, 4, 9, 10, 5, 6, 11, 12};
  float w[16] = {1, 2, 3, 4, -9, 10, -11, 12, 5, 6, 7, 8, 13, -14, 15, -16};
  float b[4] = {1, 2, 3, 4};
  float out[8] = {};
  int32_t in_dims[4] = {1, 3, 2, 2}, w_dims[4] = {1, 2, 2, 4}, b_dims[1] = {4}, out_dims[4] = {1, 2, 1, 4};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 4), vw = MakeView(w, TensorType::FLOAT32, w_dims, 4);
  TensorView vb = MakeView(b, TensorType::FLOAT32, b_dims, 1), vo = MakeView(out, TensorType::FLOAT32, out_dims, 4);
  auto op = DwOp(tfl::Padding::VALID, 1, 2);
  auto r = RunKernel(rt::Register_DEPTHWISE_CONV_2D(), {&vi, &vw, &vb}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  const float want[8] = {71, -34, 99, -20, 91, -26, 127, -4};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], want[i]) << i;
}

TEST(DepthwiseConvKernel, Int8PerChannelSamePaddingDilation) {
  // W = 3, filter width 2 with dilation 2 (effective 3), SAME: one column of padding on the left.
  int8_t in[3] = {1, 2, 3};
  int8_t w[4] = {1, 2, 3, 4};  // (fx, oc): fx0 -> {1, 2}, fx1 -> {3, 4}
  int8_t out[6] = {};
  int32_t in_dims[4] = {1, 1, 3, 1}, w_dims[4] = {1, 1, 2, 2}, out_dims[4] = {1, 1, 3, 2};
  TensorView vi = MakeView(in, TensorType::INT8, in_dims, 4, 1.0f, 0);
  TensorView vw = MakeView(w, TensorType::INT8, w_dims, 4);
  std::vector<float> scales = {1.0f, 0.5f};
  std::vector<int64_t> zps;
  SetPerChannel(&vw, scales, &zps, 3);
  TensorView vo = MakeView(out, TensorType::INT8, out_dims, 4, 1.0f, 0);
  auto op = DwOp(tfl::Padding::SAME, 1, 2, 2);
  auto r = RunKernel(rt::Register_DEPTHWISE_CONV_2D(), {&vi, &vw, nullptr}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  // x=0: taps {-1 (pad), 1}; x=1: {0, 2}; x=2: {1, 3 (pad)}; channel 1 is halved.
  const int8_t want[6] = {6, 4, 10, 7, 2, 2};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], want[i]) << i;
}

TEST(DepthwiseConvKernel, Int8InputOffsetAndRelu6) {
  // Input zero point 10, output scale 1 zero point 0: RELU6 clamps to [0, 6].
  int8_t in[2] = {13, 0};  // real 3, -10
  int8_t w[2] = {1, 1};
  int32_t b[2] = {1, 0};
  int8_t out[2] = {};
  int32_t in_dims[4] = {1, 1, 1, 2}, w_dims[4] = {1, 1, 1, 2}, b_dims[1] = {2};
  TensorView vi = MakeView(in, TensorType::INT8, in_dims, 4, 1.0f, 10);
  TensorView vw = MakeView(w, TensorType::INT8, w_dims, 4, 1.0f, 0);
  TensorView vb = MakeView(b, TensorType::INT32, b_dims, 1);
  TensorView vo = MakeView(out, TensorType::INT8, in_dims, 4, 1.0f, 0);
  auto op = DwOp(tfl::Padding::VALID, 1, 1, 1, tfl::ActivationFunctionType::RELU6);
  auto r = RunKernel(rt::Register_DEPTHWISE_CONV_2D(), {&vi, &vw, &vb}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(out[0], 4);  // 3 + 1
  EXPECT_EQ(out[1], 0);  // -10 clamped
}

TEST(DepthwiseConvKernel, Int16WithInt64BiasAndStride) {
  int16_t in[4] = {1000, 7, -3000, 9};
  int8_t w[1] = {3};
  int64_t b[1] = {-1};
  int16_t out[2] = {};
  int32_t in_dims[4] = {1, 1, 4, 1}, w_dims[4] = {1, 1, 1, 1}, b_dims[1] = {1}, out_dims[4] = {1, 1, 2, 1};
  TensorView vi = MakeView(in, TensorType::INT16, in_dims, 4, 1.0f, 0);
  TensorView vw = MakeView(w, TensorType::INT8, w_dims, 4, 1.0f, 0);
  TensorView vb = MakeView(b, TensorType::INT64, b_dims, 1);
  TensorView vo = MakeView(out, TensorType::INT16, out_dims, 4, 1.0f, 0);
  auto op = DwOp(tfl::Padding::VALID, 2, 1);
  auto r = RunKernel(rt::Register_DEPTHWISE_CONV_2D(), {&vi, &vw, &vb}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(out[0], 2999);
  EXPECT_EQ(out[1], -9001);
}

TEST(DepthwiseConvKernel, RejectsInt16WithInt32BiasAndBadDepth) {
  int16_t in[2] = {};
  int8_t w[3] = {};
  int32_t b[3] = {};
  int16_t out[3] = {};
  int32_t in_dims[4] = {1, 1, 1, 2}, w_dims[4] = {1, 1, 1, 3}, b_dims[1] = {3};
  TensorView vi = MakeView(in, TensorType::INT16, in_dims, 4, 1.0f, 0);
  TensorView vw = MakeView(w, TensorType::INT8, w_dims, 4, 1.0f, 0);
  TensorView vb = MakeView(b, TensorType::INT32, b_dims, 1);
  TensorView vo = MakeView(out, TensorType::INT16, w_dims, 4, 1.0f, 0);
  auto r = RunKernel(rt::Register_DEPTHWISE_CONV_2D(), {&vi, &vw}, {&vo});
  EXPECT_EQ(r.status, Status::kInvalidModel) << r.error;  // 3 output channels from 2 input channels
  int32_t in1[4] = {1, 1, 1, 3};
  vi.dims = in1;
  vi.bytes = 6;
  r = RunKernel(rt::Register_DEPTHWISE_CONV_2D(), {&vi, &vw, &vb}, {&vo});
  EXPECT_EQ(r.status, Status::kUnsupported) << r.error;
}

}  // namespace
}  // namespace arenaplan::testing
