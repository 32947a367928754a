// MEAN / SUM / REDUCE_MAX kernels: hand-computed float means over each axis and TFLM's integer
// requantizing path with the 1/count multiplier folded in (taken even for identical in/out
// quantization, as current TFLM does).
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

std::unique_ptr<OpHolder> ReducerOp(bool keep_dims) {
  return MakeOp(tfl::BuiltinOptions::ReducerOptions,
                [&](flatbuffers::FlatBufferBuilder& fbb) { return tfl::CreateReducerOptions(fbb, keep_dims); });
}

TEST(ReduceKernel, MeanFloatEachAxis) {
  float in[6] = {1, 2, 3, 4, 5, 6};
  int32_t in_dims[2] = {2, 3};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 2);
  int32_t axis1[1] = {1}, axis_dims[1] = {1};
  TensorView va = MakeView(axis1, TensorType::INT32, axis_dims, 1);
  float out2[2] = {};
  int32_t out2_dims[1] = {2};
  TensorView vo = MakeView(out2, TensorType::FLOAT32, out2_dims, 1);
  auto op = ReducerOp(false);
  auto r = RunKernel(rt::Register_MEAN(), {&vi, &va}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(out2[0], 2.0f);
  EXPECT_EQ(out2[1], 5.0f);
  int32_t axis0[1] = {-2};  // negative axes count from the back
  va.data = axis0;
  float out3[3] = {};
  int32_t out3_dims[2] = {1, 3};
  TensorView vo3 = MakeView(out3, TensorType::FLOAT32, out3_dims, 2);
  auto keep = ReducerOp(true);
  r = RunKernel(rt::Register_MEAN(), {&vi, &va}, {&vo3}, keep->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(out3[0], 2.5f);
  EXPECT_EQ(out3[1], 3.5f);
  EXPECT_EQ(out3[2], 4.5f);
}

TEST(ReduceKernel, MeanFloatAllAxesWithDuplicate) {
  float in[4] = {1, 2, 3, 5};
  int32_t in_dims[2] = {2, 2};
  int32_t axes[3] = {0, 1, -1}, axis_dims[1] = {3};
  float out[1] = {};
  int32_t out_dims[2] = {1, 1};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 2), va = MakeView(axes, TensorType::INT32, axis_dims, 1);
  TensorView vo = MakeView(out, TensorType::FLOAT32, out_dims, 2);
  auto op = ReducerOp(true);
  auto r = RunKernel(rt::Register_MEAN(), {&vi, &va}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(out[0], 2.75f);
}

TEST(ReduceKernel, MeanInt8SameQuantizationStillRequantizes) {
  int8_t in[4] = {-3, -2, 4, 5};
  int32_t in_dims[2] = {2, 2}, axis[1] = {1}, axis_dims[1] = {1};
  int8_t out[2] = {};
  int32_t out_dims[1] = {2};
  TensorView vi = MakeView(in, TensorType::INT8, in_dims, 2, 0.5f, 3);
  TensorView va = MakeView(axis, TensorType::INT32, axis_dims, 1);
  TensorView vo = MakeView(out, TensorType::INT8, out_dims, 1, 0.5f, 3);
  auto op = ReducerOp(false);
  auto r = RunKernel(rt::Register_MEAN(), {&vi, &va}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  // M = 1 folded with 1/2: (sum - 3 * 2) * 0.5 with gemmlowp rounding, + 3.
  EXPECT_EQ(out[0], -2);  // -11 * 0.5 = -5.5 -> -5
  EXPECT_EQ(out[1], 5);   // 3 * 0.5 = 1.5 -> 2
}

TEST(ReduceKernel, MeanInt8Requantizes) {
  // in scale 1 zp 0 -> out scale 0.5 zp 1: out = 2 * mean + 1.
  int8_t in[4] = {1, 2, -3, -4};
  int32_t in_dims[2] = {2, 2}, axis[1] = {1}, axis_dims[1] = {1};
  int8_t out[2] = {};
  int32_t out_dims[1] = {2};
  TensorView vi = MakeView(in, TensorType::INT8, in_dims, 2, 1.0f, 0);
  TensorView va = MakeView(axis, TensorType::INT32, axis_dims, 1);
  TensorView vo = MakeView(out, TensorType::INT8, out_dims, 1, 0.5f, 1);
  auto op = ReducerOp(false);
  auto r = RunKernel(rt::Register_MEAN(), {&vi, &va}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(out[0], 4);   // 2 * 1.5 + 1
  EXPECT_EQ(out[1], -6);  // 2 * -3.5 + 1
}

TEST(ReduceKernel, SumFloatAndMaxInt8) {
  float in[6] = {1, 2, 3, 4, 5, 6};
  int32_t in_dims[2] = {2, 3}, axis[1] = {0}, axis_dims[1] = {1};
  float out[3] = {};
  int32_t out_dims[1] = {3};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 2), va = MakeView(axis, TensorType::INT32, axis_dims, 1);
  TensorView vo = MakeView(out, TensorType::FLOAT32, out_dims, 1);
  auto op = ReducerOp(false);
  auto r = RunKernel(rt::Register_SUM(), {&vi, &va}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(out[0], 5.0f);
  EXPECT_EQ(out[1], 7.0f);
  EXPECT_EQ(out[2], 9.0f);
  int8_t q[6] = {-5, 7, -128, -1, -2, -3};
  int8_t qout[3] = {};
  TensorView vq = MakeView(q, TensorType::INT8, in_dims, 2, 1.0f, 0);
  TensorView vqo = MakeView(qout, TensorType::INT8, out_dims, 1, 1.0f, 0);
  r = RunKernel(rt::Register_REDUCE_MAX(), {&vq, &va}, {&vqo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(qout[0], -1);
  EXPECT_EQ(qout[1], 7);
  EXPECT_EQ(qout[2], -3);
}

// tflm_mobilenet_v2_pt_int8's MEAN: int8 [1,7,7,1280] over axes [1,2] with keep_dims. TFLM's golden
// plan has three scratch rows for it: 5120, 16, 16 bytes (sizes rounded up to 16).
TEST(ReduceKernel, ScratchRequestsMatchGoldenPlan) {
  std::vector<int8_t> in(7 * 7 * 1280), out(1280);
  int32_t in_dims[4] = {1, 7, 7, 1280}, out_dims[4] = {1, 1, 1, 1280}, axes[2] = {1, 2}, axis_dims[1] = {2};
  TensorView vi = MakeView(in.data(), TensorType::INT8, in_dims, 4, 0.07f, -9);
  TensorView va = MakeView(axes, TensorType::INT32, axis_dims, 1);
  TensorView vo = MakeView(out.data(), TensorType::INT8, out_dims, 4, 0.07f, -9);
  auto op = ReducerOp(true);
  Status s = Status::kOk;
  auto sizes = ScratchRequests(rt::Register_MEAN(), {&vi, &va}, {&vo}, op->op, &s);
  ASSERT_EQ(s, Status::kOk);
  EXPECT_EQ(sizes, (std::vector<uint32_t>{5120, 16, 8}));
  // float MEAN (tfls_nl_classifier_movie_review_f32): only the index and axis buffers (16, 16).
  std::vector<float> fin(7 * 7 * 1280), fout(1280);
  TensorView vf = MakeView(fin.data(), TensorType::FLOAT32, in_dims, 4);
  TensorView vfo = MakeView(fout.data(), TensorType::FLOAT32, out_dims, 4);
  sizes = ScratchRequests(rt::Register_MEAN(), {&vf, &va}, {&vfo}, op->op, &s);
  ASSERT_EQ(s, Status::kOk);
  EXPECT_EQ(sizes, (std::vector<uint32_t>{16, 8}));
}

TEST(ReduceKernel, RejectsBadAxisAndOutputSize) {
  float in[6] = {};
  int32_t in_dims[2] = {2, 3}, axis[1] = {2}, axis_dims[1] = {1};
  float out[3] = {};
  int32_t out_dims[1] = {3};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 2), va = MakeView(axis, TensorType::INT32, axis_dims, 1);
  TensorView vo = MakeView(out, TensorType::FLOAT32, out_dims, 1);
  auto r = RunKernel(rt::Register_MEAN(), {&vi, &va}, {&vo});
  EXPECT_EQ(r.status, Status::kInvalidModel) << r.error;
  axis[0] = 1;  // reduces to 2 elements, output has 3
  r = RunKernel(rt::Register_MEAN(), {&vi, &va}, {&vo});
  EXPECT_EQ(r.status, Status::kInvalidModel) << r.error;
}

TEST(ReduceKernel, EmptyInputGivesZeros) {
  float in[1] = {};
  int32_t in_dims[2] = {0, 3}, axis[1] = {0}, axis_dims[1] = {1};
  float out[3] = {7, 7, 7};
  int32_t out_dims[1] = {3};
  TensorView vi = MakeView(in, TensorType::FLOAT32, in_dims, 2), va = MakeView(axis, TensorType::INT32, axis_dims, 1);
  TensorView vo = MakeView(out, TensorType::FLOAT32, out_dims, 1);
  auto r = RunKernel(rt::Register_SUM(), {&vi, &va}, {&vo});
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  for (float v : out) EXPECT_EQ(v, 0.0f);
}

}  // namespace
}  // namespace arenaplan::testing
