// AVERAGE_POOL_2D / MAX_POOL_2D kernels: TFLM's pooling_test.cc float cases and hand-computed
// integer rounding, clipped SAME windows and activation clamps.
#include <gtest/gtest.h>

#include "kernel_a_testutil.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::testing {
namespace {

using rt::MakeView;
using rt::StatusCode;
using rt::TensorType;
using rt::TensorView;

std::unique_ptr<OpHolder> PoolOp(tfl::Padding padding, int stride_w, int stride_h, int fw, int fh,
                                 tfl::ActivationFunctionType act = tfl::ActivationFunctionType::NONE) {
  return MakeOp(tfl::BuiltinOptions::Pool2DOptions, [&](flatbuffers::FlatBufferBuilder& fbb) {
    return tfl::CreatePool2DOptions(fbb, padding, stride_w, stride_h, fw, fh, act);
  });
}

TEST(PoolingKernel, AverageFloatTflmTest) {
  float in[8] = {0, 6, 2, 4, 3, 2, 10, 7};
  float out[2] = {};
  int32_t in_dims[4] = {1, 2, 4, 1}, out_dims[4] = {1, 1, 2, 1};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 4), vo = MakeView(out, TensorType::FLOAT32, out_dims, 4);
  auto op = PoolOp(tfl::Padding::VALID, 2, 2, 2, 2);
  auto r = RunKernel(rt::Register_AVERAGE_POOL_2D(), {&vi}, {&vo}, op->op);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out[0], 2.75f);
  EXPECT_EQ(out[1], 5.75f);
}

TEST(PoolingKernel, AverageSameClipsWindowToImage) {
  float in[4] = {1, 2, 3, 4};
  float out[4] = {};
  int32_t dims[4] = {1, 2, 2, 1};
  TensorView vi = MakeView(in, TensorType::FLOAT32, dims, 4), vo = MakeView(out, TensorType::FLOAT32, dims, 4);
  auto op = PoolOp(tfl::Padding::SAME, 1, 1, 2, 2);
  auto r = RunKernel(rt::Register_AVERAGE_POOL_2D(), {&vi}, {&vo}, op->op);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out[0], 2.5f);
  EXPECT_EQ(out[1], 3.0f);
  EXPECT_EQ(out[2], 3.5f);
  EXPECT_EQ(out[3], 4.0f);
}

TEST(PoolingKernel, AverageInt8RoundsHalfAwayFromZero) {
  int8_t in[4] = {-1, -2, 1, 2};
  int8_t out[2] = {};
  int32_t in_dims[4] = {1, 1, 4, 1}, out_dims[4] = {1, 1, 2, 1};
  TensorView vi = MakeView(in, TensorType::INT8, in_dims, 4, 1.0f, 0);
  TensorView vo = MakeView(out, TensorType::INT8, out_dims, 4, 1.0f, 0);
  auto op = PoolOp(tfl::Padding::VALID, 2, 1, 2, 1);
  auto r = RunKernel(rt::Register_AVERAGE_POOL_2D(), {&vi}, {&vo}, op->op);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out[0], -2);  // -1.5
  EXPECT_EQ(out[1], 2);   // 1.5
}

TEST(PoolingKernel, AverageInt16) {
  int16_t in[4] = {1000, 2001, -30000, -30001};
  int16_t out[2] = {};
  int32_t in_dims[4] = {1, 1, 4, 1}, out_dims[4] = {1, 1, 2, 1};
  TensorView vi = MakeView(in, TensorType::INT16, in_dims, 4, 1.0f, 0);
  TensorView vo = MakeView(out, TensorType::INT16, out_dims, 4, 1.0f, 0);
  auto op = PoolOp(tfl::Padding::VALID, 2, 1, 2, 1);
  auto r = RunKernel(rt::Register_AVERAGE_POOL_2D(), {&vi}, {&vo}, op->op);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out[0], 1501);    // 1500.5
  EXPECT_EQ(out[1], -30001);  // -30000.5
}

TEST(PoolingKernel, MaxFloatTflmTest) {
  float in[8] = {0, 6, 2, 4, 3, 2, 10, 7};
  float out[2] = {};
  int32_t in_dims[4] = {1, 2, 4, 1}, out_dims[4] = {1, 1, 2, 1};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 4), vo = MakeView(out, TensorType::FLOAT32, out_dims, 4);
  auto op = PoolOp(tfl::Padding::VALID, 2, 2, 2, 2);
  auto r = RunKernel(rt::Register_MAX_POOL_2D(), {&vi}, {&vo}, op->op);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out[0], 6.0f);
  EXPECT_EQ(out[1], 10.0f);
}

TEST(PoolingKernel, MaxInt8Relu6AndPaddingIgnored) {
  int8_t in[3] = {-3, 20, -7};
  int8_t out[3] = {};
  int32_t dims[4] = {1, 1, 3, 1};
  TensorView vi = MakeView(in, TensorType::INT8, dims, 4, 0.5f, 0);
  TensorView vo = MakeView(out, TensorType::INT8, dims, 4, 0.5f, 0);
  // SAME 1x3 window: padded taps do not count as zeros.
  auto op = PoolOp(tfl::Padding::SAME, 1, 1, 3, 1, tfl::ActivationFunctionType::RELU6);
  auto r = RunKernel(rt::Register_MAX_POOL_2D(), {&vi}, {&vo}, op->op);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out[0], 12);  // max 20 clamped to 6 / 0.5
  EXPECT_EQ(out[1], 12);
  EXPECT_EQ(out[2], 12);
  int8_t neg[3] = {-3, -9, -7};
  vi.data = neg;
  auto op2 = PoolOp(tfl::Padding::SAME, 1, 1, 3, 1);
  r = RunKernel(rt::Register_MAX_POOL_2D(), {&vi}, {&vo}, op2->op);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out[0], -3);
  EXPECT_EQ(out[1], -3);
  EXPECT_EQ(out[2], -7);
}

TEST(PoolingKernel, RejectsMissingOptionsAndZeroFilter) {
  float in[4] = {}, out[4] = {};
  int32_t dims[4] = {1, 2, 2, 1};
  TensorView vi = MakeView(in, TensorType::FLOAT32, dims, 4), vo = MakeView(out, TensorType::FLOAT32, dims, 4);
  auto r = RunKernel(rt::Register_MAX_POOL_2D(), {&vi}, {&vo});
  EXPECT_EQ(r.status, StatusCode::kInvalidModel);
  auto op = PoolOp(tfl::Padding::SAME, 1, 1, 0, 2);
  r = RunKernel(rt::Register_AVERAGE_POOL_2D(), {&vi}, {&vo}, op->op);
  EXPECT_EQ(r.status, StatusCode::kInvalidModel);
}

TEST(PoolingKernel, WindowEntirelyOutsideInputFailsInEval) {
  // A declared output bigger than the input can put a whole window in the padding: TFLM's
  // AveragePool returns false there; the kernel reports it instead of dividing by zero.
  float in[1] = {1}, out[4] = {};
  int32_t in_dims[4] = {1, 1, 1, 1}, out_dims[4] = {1, 1, 4, 1};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 4), vo = MakeView(out, TensorType::FLOAT32, out_dims, 4);
  auto op = PoolOp(tfl::Padding::VALID, 2, 1, 1, 1);
  auto r = RunKernel(rt::Register_AVERAGE_POOL_2D(), {&vi}, {&vo}, op->op);
  EXPECT_EQ(r.status, StatusCode::kKernelError) << r.error;
}

TEST(PoolingKernel, RejectsStridesWhoseIndicesOverflow) {
  float in[4] = {}, out[9] = {};
  int32_t in_dims[4] = {1, 2, 2, 1}, out_dims[4] = {1, 3, 3, 1};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 4), vo = MakeView(out, TensorType::FLOAT32, out_dims, 4);
  auto op = PoolOp(tfl::Padding::VALID, 1 << 30, 1 << 30, 1, 1);
  auto r = RunKernel(rt::Register_MAX_POOL_2D(), {&vi}, {&vo}, op->op);
  EXPECT_EQ(r.status, StatusCode::kInvalidModel);
  EXPECT_NE(r.error.find("its indices overflow 32 bits"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace arenaplan::testing
