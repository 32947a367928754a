// DEPTHWISE_CONV_2D kernel: TFLM's depthwise_conv_test.cc SimpleTest (float, depth multiplier 2) and
// hand-computed int8 per-channel / int16 cases with SAME padding and dilation.
#include <gtest/gtest.h>

#include <vector>

#include "kernel_a_testutil.h"
#include "runtime/kernels/registrations.h"
#include "tensor_testutil.h"

namespace arenaplan::testing {
namespace {

std::unique_ptr<OpHolder> DwOp(tfl::Padding padding, int stride, int depth_multiplier, int dilation = 1,
                               tfl::ActivationFunctionType act = tfl::ActivationFunctionType::NONE) {
  return MakeOp(tfl::BuiltinOptions::DepthwiseConv2DOptions, [&](flatbuffers::FlatBufferBuilder& fbb) {
    return tfl::CreateDepthwiseConv2DOptions(fbb, padding, stride, stride, depth_multiplier, act, dilation, dilation);
  });
}

// DEPTHWISE_CONV_2D of `ins` (input, filter, optional bias) into `out`.
KernelRun Dw(std::vector<TensorView*> ins, TensorView* out, const std::unique_ptr<OpHolder>& op) {
  return RunKernel(rt::Register_DEPTHWISE_CONV_2D(), std::move(ins), {out}, op->op);
}

TEST(DepthwiseConvKernel, FloatTflmSimpleTest) {
  Tensor<float> in({1, 2, 7, 8, 3, 4, 9, 10, 5, 6, 11, 12}, {1, 3, 2, 2}, TensorType::FLOAT32);
  Tensor<float> w({1, 2, 3, 4, -9, 10, -11, 12, 5, 6, 7, 8, 13, -14, 15, -16}, {1, 2, 2, 4}, TensorType::FLOAT32);
  Tensor<float> b({1, 2, 3, 4}, {4}, TensorType::FLOAT32);
  Tensor<float> out(std::vector<float>(8), {1, 2, 1, 4}, TensorType::FLOAT32);
  auto r = Dw({&in.view, &w.view, &b.view}, &out.view, DwOp(tfl::Padding::VALID, 1, 2));
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  const float want[8] = {71, -34, 99, -20, 91, -26, 127, -4};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out.data[i], want[i]) << i;
}

TEST(DepthwiseConvKernel, Int8PerChannelSamePaddingDilation) {
  // W = 3, filter width 2 with dilation 2 (effective 3), SAME: one column of padding on the left.
  Tensor<int8_t> in({1, 2, 3}, {1, 1, 3, 1}, TensorType::INT8, 1.0f, 0);
  Tensor<int8_t> w({1, 2, 3, 4}, {1, 1, 2, 2}, TensorType::INT8);  // (fx, oc): fx0 -> {1, 2}, fx1 -> {3, 4}
  std::vector<float> scales = {1.0f, 0.5f};
  std::vector<int64_t> zps;
  SetPerChannel(&w.view, scales, &zps, 3);
  Tensor<int8_t> out(std::vector<int8_t>(6), {1, 1, 3, 2}, TensorType::INT8, 1.0f, 0);
  auto r = Dw({&in.view, &w.view, nullptr}, &out.view, DwOp(tfl::Padding::SAME, 1, 2, 2));
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  // x=0: taps {-1 (pad), 1}; x=1: {0, 2}; x=2: {1, 3 (pad)}; channel 1 is halved.
  const int8_t want[6] = {6, 4, 10, 7, 2, 2};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out.data[i], want[i]) << i;
}

TEST(DepthwiseConvKernel, Int8InputOffsetAndRelu6) {
  // Input zero point 10, output scale 1 zero point 0: RELU6 clamps to [0, 6].
  Tensor<int8_t> in({13, 0}, {1, 1, 1, 2}, TensorType::INT8, 1.0f, 10);  // real 3, -10
  Tensor<int8_t> w({1, 1}, {1, 1, 1, 2}, TensorType::INT8, 1.0f, 0);
  Tensor<int32_t> b({1, 0}, {2}, TensorType::INT32);
  Tensor<int8_t> out(std::vector<int8_t>(2), {1, 1, 1, 2}, TensorType::INT8, 1.0f, 0);
  auto r = Dw({&in.view, &w.view, &b.view}, &out.view,
              DwOp(tfl::Padding::VALID, 1, 1, 1, tfl::ActivationFunctionType::RELU6));
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out.data[0], 4);  // 3 + 1
  EXPECT_EQ(out.data[1], 0);  // -10 clamped
}

TEST(DepthwiseConvKernel, Int16WithInt64BiasAndStride) {
  Tensor<int16_t> in({1000, 7, -3000, 9}, {1, 1, 4, 1}, TensorType::INT16, 1.0f, 0);
  Tensor<int8_t> w({3}, {1, 1, 1, 1}, TensorType::INT8, 1.0f, 0);
  Tensor<int64_t> b({-1}, {1}, TensorType::INT64);
  Tensor<int16_t> out(std::vector<int16_t>(2), {1, 1, 2, 1}, TensorType::INT16, 1.0f, 0);
  auto r = Dw({&in.view, &w.view, &b.view}, &out.view, DwOp(tfl::Padding::VALID, 2, 1));
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out.data[0], 2999);
  EXPECT_EQ(out.data[1], -9001);
}

TEST(DepthwiseConvKernel, RejectsInt16WithInt32BiasAndBadDepth) {
  Tensor<int16_t> in(std::vector<int16_t>(2), {1, 1, 1, 2}, TensorType::INT16, 1.0f, 0);
  Tensor<int8_t> w(std::vector<int8_t>(3), {1, 1, 1, 3}, TensorType::INT8, 1.0f, 0);
  Tensor<int32_t> b(std::vector<int32_t>(3), {3}, TensorType::INT32);
  Tensor<int16_t> out(std::vector<int16_t>(3), {1, 1, 1, 3}, TensorType::INT16, 1.0f, 0);
  auto r = RunKernel(rt::Register_DEPTHWISE_CONV_2D(), {&in.view, &w.view}, {&out.view});
  EXPECT_EQ(r.status, StatusCode::kInvalidModel) << r.error;  // 3 output channels from 2 input channels
  int32_t in1[4] = {1, 1, 1, 3};
  in.view.dims = in1;
  in.view.bytes = 6;
  r = RunKernel(rt::Register_DEPTHWISE_CONV_2D(), {&in.view, &w.view, &b.view}, {&out.view});
  EXPECT_EQ(r.status, StatusCode::kUnsupported) << r.error;
}

TEST(DepthwiseConvKernel, RejectsDilationWhoseIndicesOverflow) {
  // Rows are indexed (y x width + x) x depth: a dilation of 2^30 over 4 channels passes 2^31.
  Tensor<float> in(std::vector<float>(36), {1, 3, 3, 4}, TensorType::FLOAT32);
  Tensor<float> w(std::vector<float>(16), {1, 2, 2, 4}, TensorType::FLOAT32);
  Tensor<float> out(std::vector<float>(36), {1, 3, 3, 4}, TensorType::FLOAT32);
  auto r = Dw({&in.view, &w.view, nullptr}, &out.view, DwOp(tfl::Padding::SAME, 1, 1, 1 << 30));
  EXPECT_EQ(r.status, StatusCode::kInvalidModel);
  EXPECT_EQ(r.error,
            "op 0 (DEPTHWISE_CONV_2D): a 2x2 window with strides (1, 1) and dilations (1073741824, 1073741824) "
            "stepping 3x3 times over a 3x3x4 "
            "tensor: its indices overflow 32 bits");
  // A dilation past the input is still a valid model: only one tap per window lands inside.
  auto ok = Dw({&in.view, &w.view, nullptr}, &out.view, DwOp(tfl::Padding::SAME, 1, 1, 1 << 20));
  EXPECT_EQ(ok.status, StatusCode::kOk) << ok.error;
}

}  // namespace
}  // namespace arenaplan::testing
