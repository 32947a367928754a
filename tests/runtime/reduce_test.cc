// MEAN / SUM / REDUCE_MAX kernels: hand-computed float means over each axis and TFLM's integer
// requantizing path with the 1/count multiplier folded in (taken even for identical in/out
// quantization, as current TFLM does).
#include <gtest/gtest.h>

#include <vector>

#include "kernel_a_testutil.h"
#include "runtime/kernels/registrations.h"
#include "tensor_testutil.h"

namespace arenaplan::testing {
namespace {

std::unique_ptr<OpHolder> ReducerOp(bool keep_dims) {
  return MakeOp(tfl::BuiltinOptions::ReducerOptions,
                [&](flatbuffers::FlatBufferBuilder& fbb) { return tfl::CreateReducerOptions(fbb, keep_dims); });
}

// `reg` (MEAN, SUM, REDUCE_MAX) of `in` over `axes` into `out`.
KernelRun Reduce(const rt::KernelRegistration* reg, TensorView* in, std::vector<int32_t> axes, TensorView* out,
                 bool keep_dims) {
  Tensor<int32_t> axis(axes, {static_cast<int32_t>(axes.size())}, TensorType::INT32);
  return RunKernel(reg, {in, &axis.view}, {out}, ReducerOp(keep_dims)->op);
}

TEST(ReduceKernel, MeanFloatEachAxis) {
  Tensor<float> in({1, 2, 3, 4, 5, 6}, {2, 3}, TensorType::FLOAT32);
  Tensor<float> out2(std::vector<float>(2), {2}, TensorType::FLOAT32);
  auto r = Reduce(rt::Register_MEAN(), &in.view, {1}, &out2.view, false);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out2.data, (std::vector<float>{2.0f, 5.0f}));
  Tensor<float> out3(std::vector<float>(3), {1, 3}, TensorType::FLOAT32);
  r = Reduce(rt::Register_MEAN(), &in.view, {-2}, &out3.view, true);  // negative axes count from the back
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out3.data, (std::vector<float>{2.5f, 3.5f, 4.5f}));
}

TEST(ReduceKernel, MeanFloatAllAxesWithDuplicate) {
  Tensor<float> in({1, 2, 3, 5}, {2, 2}, TensorType::FLOAT32);
  Tensor<float> out({0}, {1, 1}, TensorType::FLOAT32);
  auto r = Reduce(rt::Register_MEAN(), &in.view, {0, 1, -1}, &out.view, true);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out.data[0], 2.75f);
}

TEST(ReduceKernel, MeanInt8SameQuantizationStillRequantizes) {
  Tensor<int8_t> in({-3, -2, 4, 5}, {2, 2}, TensorType::INT8, 0.5f, 3);
  Tensor<int8_t> out(std::vector<int8_t>(2), {2}, TensorType::INT8, 0.5f, 3);
  auto r = Reduce(rt::Register_MEAN(), &in.view, {1}, &out.view, false);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  // M = 1 folded with 1/2: (sum - 3 * 2) * 0.5 with gemmlowp rounding, + 3.
  EXPECT_EQ(out.data[0], -2);  // -11 * 0.5 = -5.5 -> -5
  EXPECT_EQ(out.data[1], 5);   // 3 * 0.5 = 1.5 -> 2
}

TEST(ReduceKernel, MeanInt8Requantizes) {
  // in scale 1 zp 0 -> out scale 0.5 zp 1: out = 2 * mean + 1.
  Tensor<int8_t> in({1, 2, -3, -4}, {2, 2}, TensorType::INT8, 1.0f, 0);
  Tensor<int8_t> out(std::vector<int8_t>(2), {2}, TensorType::INT8, 0.5f, 1);
  auto r = Reduce(rt::Register_MEAN(), &in.view, {1}, &out.view, false);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out.data[0], 4);   // 2 * 1.5 + 1
  EXPECT_EQ(out.data[1], -6);  // 2 * -3.5 + 1
}

TEST(ReduceKernel, SumFloatAndMaxInt8) {
  Tensor<float> in({1, 2, 3, 4, 5, 6}, {2, 3}, TensorType::FLOAT32);
  Tensor<float> out(std::vector<float>(3), {3}, TensorType::FLOAT32);
  auto r = Reduce(rt::Register_SUM(), &in.view, {0}, &out.view, false);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out.data, (std::vector<float>{5.0f, 7.0f, 9.0f}));
  Tensor<int8_t> q({-5, 7, -128, -1, -2, -3}, {2, 3}, TensorType::INT8, 1.0f, 0);
  Tensor<int8_t> qout(std::vector<int8_t>(3), {3}, TensorType::INT8, 1.0f, 0);
  r = Reduce(rt::Register_REDUCE_MAX(), &q.view, {0}, &qout.view, false);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(qout.data, (std::vector<int8_t>{-1, 7, -3}));
}

// tflm_mobilenet_v2_pt_int8's MEAN: int8 [1,7,7,1280] over axes [1,2] with keep_dims. TFLM's golden
// plan has three scratch rows for it: 5120, 16, 16 bytes (sizes rounded up to 16).
TEST(ReduceKernel, ScratchRequestsMatchGoldenPlan) {
  Tensor<int8_t> in(std::vector<int8_t>(7 * 7 * 1280), {1, 7, 7, 1280}, TensorType::INT8, 0.07f, -9);
  Tensor<int32_t> axes({1, 2}, {2}, TensorType::INT32);
  Tensor<int8_t> out(std::vector<int8_t>(1280), {1, 1, 1, 1280}, TensorType::INT8, 0.07f, -9);
  auto op = ReducerOp(true);
  StatusCode s = StatusCode::kOk;
  auto sizes = ScratchRequests(rt::Register_MEAN(), {&in.view, &axes.view}, {&out.view}, op->op, &s);
  ASSERT_EQ(s, StatusCode::kOk);
  EXPECT_EQ(sizes, (std::vector<uint32_t>{5120, 16, 8}));
  // float MEAN (tfls_nl_classifier_movie_review_f32): only the index and axis buffers (16, 16).
  Tensor<float> fin(std::vector<float>(7 * 7 * 1280), {1, 7, 7, 1280}, TensorType::FLOAT32);
  Tensor<float> fout(std::vector<float>(1280), {1, 1, 1, 1280}, TensorType::FLOAT32);
  sizes = ScratchRequests(rt::Register_MEAN(), {&fin.view, &axes.view}, {&fout.view}, op->op, &s);
  ASSERT_EQ(s, StatusCode::kOk);
  EXPECT_EQ(sizes, (std::vector<uint32_t>{16, 8}));
}

TEST(ReduceKernel, RejectsBadAxisAndOutputSize) {
  Tensor<float> in(std::vector<float>(6), {2, 3}, TensorType::FLOAT32);
  Tensor<int32_t> axis({2}, {1}, TensorType::INT32);
  Tensor<float> out(std::vector<float>(3), {3}, TensorType::FLOAT32);
  auto r = RunKernel(rt::Register_MEAN(), {&in.view, &axis.view}, {&out.view});
  EXPECT_EQ(r.status, StatusCode::kInvalidModel) << r.error;
  axis.data[0] = 1;  // reduces to 2 elements, output has 3
  r = RunKernel(rt::Register_MEAN(), {&in.view, &axis.view}, {&out.view});
  EXPECT_EQ(r.status, StatusCode::kInvalidModel) << r.error;
}

TEST(ReduceKernel, EmptyInputGivesZeros) {
  Tensor<float> in({0}, {0, 3}, TensorType::FLOAT32);
  Tensor<int32_t> axis({0}, {1}, TensorType::INT32);
  Tensor<float> out({7, 7, 7}, {3}, TensorType::FLOAT32);
  auto r = RunKernel(rt::Register_SUM(), {&in.view, &axis.view}, {&out.view});
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  for (float v : out.data) EXPECT_EQ(v, 0.0f);
}

}  // namespace
}  // namespace arenaplan::testing
