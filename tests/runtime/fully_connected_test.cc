// FULLY_CONNECTED kernel: TFLM's fully_connected_test.cc SimpleTest (float, RELU) and hand-computed
// int8 per-tensor (with zero points), int8 per-channel and int16x8 (int64 bias) cases.
#include <gtest/gtest.h>

#include <vector>

#include "kernel_a_testutil.h"
#include "runtime/kernels/registrations.h"
#include "tensor_testutil.h"

namespace arenaplan::testing {
namespace {

std::unique_ptr<OpHolder> FcOp(tfl::ActivationFunctionType act = tfl::ActivationFunctionType::NONE,
                               bool keep_num_dims = false) {
  return MakeOp(tfl::BuiltinOptions::FullyConnectedOptions, [&](flatbuffers::FlatBufferBuilder& fbb) {
    return tfl::CreateFullyConnectedOptions(fbb, act, tfl::FullyConnectedOptionsWeightsFormat::DEFAULT, keep_num_dims);
  });
}

// FULLY_CONNECTED of `ins` (input, weights, optional bias) into `out`.
KernelRun Fc(std::vector<TensorView*> ins, TensorView* out, const std::unique_ptr<OpHolder>& op) {
  return RunKernel(rt::Register_FULLY_CONNECTED(), std::move(ins), {out}, op->op);
}

TEST(FullyConnectedKernel, FloatTflmSimpleTest) {
  Tensor<float> in({1, 2, 3, 4, 5, 6, 7, 8, -9, -10, 1, 2, 3, 4, 5, 6, 7, -8, 9, -10}, {2, 10}, TensorType::FLOAT32);
  Tensor<float> w(std::vector<float>(30), {3, 10}, TensorType::FLOAT32);
  for (int u = 0; u < 3; ++u) {
    for (int i = 0; i < 10; ++i) w.data[u * 10 + i] = static_cast<float>(i + 1);
  }
  Tensor<float> b({1, 2, 3}, {3}, TensorType::FLOAT32);
  Tensor<float> out(std::vector<float>(6), {2, 3}, TensorType::FLOAT32);
  auto r = Fc({&in.view, &w.view, &b.view}, &out.view, FcOp(tfl::ActivationFunctionType::RELU));
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  const float want[6] = {24, 25, 26, 58, 59, 60};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out.data[i], want[i]) << i;
}

TEST(FullyConnectedKernel, FloatKeepNumDimsBatchesOverLeadingDims) {
  Tensor<float> in({1, 2, 3, 4}, {1, 2, 2}, TensorType::FLOAT32);
  Tensor<float> w({1, 1}, {1, 2}, TensorType::FLOAT32);
  Tensor<float> out(std::vector<float>(2), {1, 2, 1}, TensorType::FLOAT32);
  auto r = Fc({&in.view, &w.view, nullptr}, &out.view, FcOp(tfl::ActivationFunctionType::NONE, true));
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out.data[0], 3);
  EXPECT_EQ(out.data[1], 7);
}

TEST(FullyConnectedKernel, Int8PerTensorWithZeroPoints) {
  Tensor<int8_t> in({3, 5}, {1, 2}, TensorType::INT8, 1.0f, 1);  // zero point 1: real 2, 4
  Tensor<int8_t> w({1, 2}, {1, 2}, TensorType::INT8, 0.5f, 0);
  Tensor<int32_t> b({1}, {1}, TensorType::INT32);
  Tensor<int8_t> out({0}, {1, 1}, TensorType::INT8, 1.0f, -1);
  auto r = Fc({&in.view, &w.view, &b.view}, &out.view, FcOp());
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out.data[0], 5);  // (2 + 8 + 1) * 0.5 = 5.5 -> 6, - 1
}

TEST(FullyConnectedKernel, Int8PerChannel) {
  Tensor<int8_t> in({2, 4}, {1, 2}, TensorType::INT8, 1.0f, 0);
  Tensor<int8_t> w({1, 1, 3, 3}, {2, 2}, TensorType::INT8);
  std::vector<float> scales = {1.0f, 0.25f};
  std::vector<int64_t> zps;
  SetPerChannel(&w.view, scales, &zps, 0);
  Tensor<int8_t> out(std::vector<int8_t>(2), {1, 2}, TensorType::INT8, 1.0f, 0);
  auto r = Fc({&in.view, &w.view, nullptr}, &out.view, FcOp());
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out.data[0], 6);  // 6 x 1
  EXPECT_EQ(out.data[1], 5);  // 18 x 0.25 = 4.5 -> 5
}

TEST(FullyConnectedKernel, Int16WithInt64Bias) {
  Tensor<int16_t> in({1000, -2000}, {1, 2}, TensorType::INT16, 1.0f, 0);
  Tensor<int8_t> w({3, 1}, {1, 2}, TensorType::INT8, 1.0f, 0);
  Tensor<int64_t> b({7}, {1}, TensorType::INT64);
  Tensor<int16_t> out({0}, {1, 1}, TensorType::INT16, 2.0f, 0);
  auto r = Fc({&in.view, &w.view, &b.view}, &out.view, FcOp());
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out.data[0], 504);  // 1007 / 2 = 503.5 -> 504
}

// FULLY_CONNECTED without bias or options on zero float tensors of the given shapes.
KernelRun FloatFcOfShapes(std::vector<int32_t> in_dims, std::vector<int32_t> w_dims, std::vector<int32_t> out_dims) {
  auto zeros = [](const std::vector<int32_t>& dims) {
    int32_t n = 1;
    for (int32_t d : dims) n *= d;
    return std::vector<float>(static_cast<size_t>(n));
  };
  Tensor<float> in(zeros(in_dims), in_dims, TensorType::FLOAT32);
  Tensor<float> w(zeros(w_dims), w_dims, TensorType::FLOAT32);
  Tensor<float> out(zeros(out_dims), out_dims, TensorType::FLOAT32);
  return RunKernel(rt::Register_FULLY_CONNECTED(), {&in.view, &w.view}, {&out.view});
}

TEST(FullyConnectedKernel, RejectsMismatchedUnits) {
  auto r = FloatFcOfShapes({1, 2}, {1, 2}, {1, 3});
  EXPECT_EQ(r.status, StatusCode::kInvalidModel) << r.error;
}

TEST(FullyConnectedKernel, RejectsInputSmallerThanBatchesTimesDepth) {
  auto r = FloatFcOfShapes({1, 3}, {1, 4}, {2, 1});
  EXPECT_EQ(r.status, StatusCode::kInvalidModel) << r.error;
}

}  // namespace
}  // namespace arenaplan::testing
