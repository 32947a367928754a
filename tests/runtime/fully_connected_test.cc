// FULLY_CONNECTED kernel: TFLM's fully_connected_test.cc SimpleTest (float, RELU) and hand-computed
// int8 per-tensor (with zero points), int8 per-channel and int16x8 (int64 bias) cases.
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

std::unique_ptr<OpHolder> FcOp(tfl::ActivationFunctionType act = tfl::ActivationFunctionType::NONE,
                               bool keep_num_dims = false) {
  return MakeOp(tfl::BuiltinOptions::FullyConnectedOptions, [&](flatbuffers::FlatBufferBuilder& fbb) {
    return tfl::CreateFullyConnectedOptions(fbb, act, 0, keep_num_dims);
  });
}

TEST(FullyConnectedKernel, FloatTflmSimpleTest) {
  float in[20] = {1, 2, 3, 4, 5, 6, 7, 8, -9, -10, 1, 2, 3, 4, 5, 6, 7, -8, 9, -10};
  float w[30];
  for (int u = 0; u < 3; ++u) {
    for (int i = 0; i < 10; ++i) w[u * 10 + i] = static_cast<float>(i + 1);
  }
  float b[3] = {1, 2, 3};
  float out[6] = {};
  int32_t in_dims[2] = {2, 10}, w_dims[2] = {3, 10}, b_dims[1] = {3}, out_dims[2] = {2, 3};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 2), vw = MakeView(w, TensorType::FLOAT32, w_dims, 2);
  TensorView vb = MakeView(b, TensorType::FLOAT32, b_dims, 1), vo = MakeView(out, TensorType::FLOAT32, out_dims, 2);
  auto op = FcOp(tfl::ActivationFunctionType::RELU);
  auto r = RunKernel(rt::Register_FULLY_CONNECTED(), {&vi, &vw, &vb}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  const float want[6] = {24, 25, 26, 58, 59, 60};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], want[i]) << i;
}

TEST(FullyConnectedKernel, FloatKeepNumDimsBatchesOverLeadingDims) {
  float in[4] = {1, 2, 3, 4};
  float w[2] = {1, 1};
  float out[2] = {};
  int32_t in_dims[3] = {1, 2, 2}, w_dims[2] = {1, 2}, out_dims[3] = {1, 2, 1};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 3), vw = MakeView(w, TensorType::FLOAT32, w_dims, 2);
  TensorView vo = MakeView(out, TensorType::FLOAT32, out_dims, 3);
  auto op = FcOp(tfl::ActivationFunctionType::NONE, true);
  auto r = RunKernel(rt::Register_FULLY_CONNECTED(), {&vi, &vw, nullptr}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(out[0], 3);
  EXPECT_EQ(out[1], 7);
}

TEST(FullyConnectedKernel, Int8PerTensorWithZeroPoints) {
  int8_t in[2] = {3, 5};  // zero point 1: real 2, 4
  int8_t w[2] = {1, 2};
  int32_t b[1] = {1};
  int8_t out[1] = {};
  int32_t in_dims[2] = {1, 2}, w_dims[2] = {1, 2}, b_dims[1] = {1}, out_dims[2] = {1, 1};
  TensorView vi = MakeView(in, TensorType::INT8, in_dims, 2, 1.0f, 1);
  TensorView vw = MakeView(w, TensorType::INT8, w_dims, 2, 0.5f, 0);
  TensorView vb = MakeView(b, TensorType::INT32, b_dims, 1);
  TensorView vo = MakeView(out, TensorType::INT8, out_dims, 2, 1.0f, -1);
  auto op = FcOp();
  auto r = RunKernel(rt::Register_FULLY_CONNECTED(), {&vi, &vw, &vb}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(out[0], 5);  // (2 + 8 + 1) * 0.5 = 5.5 -> 6, - 1
}

TEST(FullyConnectedKernel, Int8PerChannel) {
  int8_t in[2] = {2, 4};
  int8_t w[4] = {1, 1, 3, 3};
  int8_t out[2] = {};
  int32_t in_dims[2] = {1, 2}, w_dims[2] = {2, 2}, out_dims[2] = {1, 2};
  TensorView vi = MakeView(in, TensorType::INT8, in_dims, 2, 1.0f, 0);
  TensorView vw = MakeView(w, TensorType::INT8, w_dims, 2);
  std::vector<float> scales = {1.0f, 0.25f};
  std::vector<int64_t> zps;
  SetPerChannel(&vw, scales, &zps, 0);
  TensorView vo = MakeView(out, TensorType::INT8, out_dims, 2, 1.0f, 0);
  auto op = FcOp();
  auto r = RunKernel(rt::Register_FULLY_CONNECTED(), {&vi, &vw, nullptr}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(out[0], 6);  // 6 x 1
  EXPECT_EQ(out[1], 5);  // 18 x 0.25 = 4.5 -> 5
}

TEST(FullyConnectedKernel, Int16WithInt64Bias) {
  int16_t in[2] = {1000, -2000};
  int8_t w[2] = {3, 1};
  int64_t b[1] = {7};
  int16_t out[1] = {};
  int32_t in_dims[2] = {1, 2}, w_dims[2] = {1, 2}, b_dims[1] = {1}, out_dims[2] = {1, 1};
  TensorView vi = MakeView(in, TensorType::INT16, in_dims, 2, 1.0f, 0);
  TensorView vw = MakeView(w, TensorType::INT8, w_dims, 2, 1.0f, 0);
  TensorView vb = MakeView(b, TensorType::INT64, b_dims, 1);
  TensorView vo = MakeView(out, TensorType::INT16, out_dims, 2, 2.0f, 0);
  auto op = FcOp();
  auto r = RunKernel(rt::Register_FULLY_CONNECTED(), {&vi, &vw, &vb}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(out[0], 504);  // 1007 / 2 = 503.5 -> 504
}

TEST(FullyConnectedKernel, RejectsMismatchedUnits) {
  float in[2] = {}, w[2] = {}, out[3] = {};
  int32_t in_dims[2] = {1, 2}, w_dims[2] = {1, 2}, out_dims[2] = {1, 3};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 2), vw = MakeView(w, TensorType::FLOAT32, w_dims, 2);
  TensorView vo = MakeView(out, TensorType::FLOAT32, out_dims, 2);
  auto r = RunKernel(rt::Register_FULLY_CONNECTED(), {&vi, &vw}, {&vo});
  EXPECT_EQ(r.status, Status::kInvalidModel) << r.error;
}

TEST(FullyConnectedKernel, RejectsInputSmallerThanBatchesTimesDepth) {
  float in[3] = {}, w[4] = {}, out[2] = {};
  int32_t in_dims[2] = {1, 3}, w_dims[2] = {1, 4}, out_dims[2] = {2, 1};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 2), vw = MakeView(w, TensorType::FLOAT32, w_dims, 2);
  TensorView vo = MakeView(out, TensorType::FLOAT32, out_dims, 2);
  auto r = RunKernel(rt::Register_FULLY_CONNECTED(), {&vi, &vw}, {&vo});
  EXPECT_EQ(r.status, Status::kInvalidModel) << r.error;
}

}  // namespace
}  // namespace arenaplan::testing
