// Activation kernel tests with hand-computed expectations (true real-valued result rounded the
// way TFLM rounds: half away from zero), including the saturation and clamp edges.
#include <flatbuffers/flatbuffers.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "kernel_a_testutil.h"
#include "runtime/kernels/registrations.h"
#include "tensor_testutil.h"

namespace arenaplan::rt {
namespace {

using testing::KernelStatus;

std::unique_ptr<testing::OpHolder> LeakyOp(float alpha) {
  return testing::MakeOp(tfl::BuiltinOptions::LeakyReluOptions,
                         [&](flatbuffers::FlatBufferBuilder& fbb) { return tfl::CreateLeakyReluOptions(fbb, alpha); });
}

template <typename T>
StatusCode RunUnary(const KernelRegistration& k, TensorType type, std::vector<T> in, float in_scale, int32_t in_zp,
                    float out_scale, int32_t out_zp, const tfl::Operator* op, std::vector<T>* out) {
  int32_t dims[1] = {static_cast<int32_t>(in.size())};
  out->assign(in.size(), T{});
  TensorView vi = MakeView(in.data(), type, dims, 1, in_scale, in_zp);
  TensorView vo = MakeView(out->data(), type, dims, 1, out_scale, out_zp);
  return KernelStatus(k, {&vi}, {&vo}, op, 256);
}

TEST(ActivationsTest, LeakyReluFloat) {
  std::vector<float> out;
  auto op = LeakyOp(0.2f);
  ASSERT_EQ(RunUnary<float>(*Register_LEAKY_RELU(), TensorType::FLOAT32, {3.0f, 0.0f, -2.0f}, 0, 0, 0, 0, op->op, &out),
            StatusCode::kOk);
  EXPECT_FLOAT_EQ(out[0], 3.0f);
  EXPECT_FLOAT_EQ(out[1], 0.0f);
  EXPECT_FLOAT_EQ(out[2], -0.4f);
}

TEST(ActivationsTest, LeakyReluInt8RoundsHalfAwayFromZero) {
  // Same scales in and out, alpha 0.25: 10 -> 10, -8 -> -2, -6 -> -1.5 -> -2, clamp at 127.
  std::vector<int8_t> out;
  auto op = LeakyOp(0.25f);
  ASSERT_EQ(
      RunUnary<int8_t>(*Register_LEAKY_RELU(), TensorType::INT8, {10, -8, -6, 127}, 0.5f, 0, 0.5f, 0, op->op, &out),
      StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<int8_t>{10, -2, -2, 127}));
}

TEST(ActivationsTest, LeakyReluInt16WithRescale) {
  // in scale 1, out scale 0.5: positive doubles; alpha 0.5: -100 -> -50 real -> -100 quantized.
  std::vector<int16_t> out;
  auto op = LeakyOp(0.5f);
  ASSERT_EQ(
      RunUnary<int16_t>(*Register_LEAKY_RELU(), TensorType::INT16, {100, -100, 20000}, 1.0f, 0, 0.5f, 0, op->op, &out),
      StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<int16_t>{200, -100, 32767}));
}

TEST(ActivationsTest, ReluInt8RequantizesAndClampsAtZeroPoint) {
  // in (scale 1, zp -10), out (scale 0.5, zp 5): real = q + 10; out = 2 * real + 5, >= 5.
  std::vector<int8_t> out;
  ASSERT_EQ(RunUnary<int8_t>(*Register_RELU(), TensorType::INT8, {-20, 0, 100}, 1.0f, -10, 0.5f, 5, nullptr, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<int8_t>{5, 25, 127}));
}

TEST(ActivationsTest, Relu6Int8ClampsInInputScale) {
  // scale 0.1: six = round(6 / 0.1) = 60.
  std::vector<int8_t> out;
  ASSERT_EQ(RunUnary<int8_t>(*Register_RELU6(), TensorType::INT8, {70, -5, 30}, 0.1f, 0, 0.1f, 0, nullptr, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<int8_t>{60, 0, 30}));
}

TEST(ActivationsTest, ReluAndRelu6Float) {
  std::vector<float> out;
  ASSERT_EQ(RunUnary<float>(*Register_RELU(), TensorType::FLOAT32, {-1.5f, 2.5f}, 0, 0, 0, 0, nullptr, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<float>{0.0f, 2.5f}));
  ASSERT_EQ(RunUnary<float>(*Register_RELU6(), TensorType::FLOAT32, {-1.5f, 2.5f, 7.0f}, 0, 0, 0, 0, nullptr, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<float>{0.0f, 2.5f, 6.0f}));
}

TEST(ActivationsTest, LogisticFloatCutoffs) {
  std::vector<float> out;
  ASSERT_EQ(
      RunUnary<float>(*Register_LOGISTIC(), TensorType::FLOAT32, {0.0f, 20.0f, -10.0f}, 0, 0, 0, 0, nullptr, &out),
      StatusCode::kOk);
  EXPECT_FLOAT_EQ(out[0], 0.5f);
  EXPECT_EQ(out[1], 1.0f);              // above the upper cutoff
  EXPECT_EQ(out[2], std::exp(-10.0f));  // below the lower cutoff: exp(x)
}

TEST(ActivationsTest, LogisticInt8) {
  // in scale 1/8: q 8 = 1.0 -> sigmoid 0.7311 * 256 = 187.2 -> 187 - 128 = 59; q -8 -> 68.8 -> -59;
  // q 0 -> 0.5 -> 0; q 59 (7.375) -> 255.8 -> clamp 127; q -59 -> 0.16 -> -128; q 127 beyond the
  // saturation radius (60) -> 127.
  std::vector<int8_t> out;
  ASSERT_EQ(RunUnary<int8_t>(*Register_LOGISTIC(), TensorType::INT8, {0, 8, -8, 59, -59, 127, -128}, 0.125f, 0,
                             1.0f / 256, -128, nullptr, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<int8_t>{0, 59, -59, 127, -128, 127, -128}));
}

TEST(ActivationsTest, LogisticInt8NeedsOutputZeroPointMinus128) {
  std::vector<int8_t> out;
  EXPECT_EQ(RunUnary<int8_t>(*Register_LOGISTIC(), TensorType::INT8, {0}, 0.125f, 0, 1.0f / 256, 0, nullptr, &out),
            StatusCode::kInvalidModel);
}

TEST(ActivationsTest, TanhFloat) {
  std::vector<float> out;
  ASSERT_EQ(RunUnary<float>(*Register_TANH(), TensorType::FLOAT32, {0.0f, 0.5f}, 0, 0, 0, 0, nullptr, &out),
            StatusCode::kOk);
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_NEAR(out[1], 0.46211716f, 1e-7f);
}

TEST(ActivationsTest, TanhInt8) {
  // in scale 1/8, output Q0.7: tanh(1) * 128 = 97.5 -> 97 (97.48); tanh(0.5) * 128 = 59.15 -> 59;
  // q 40 (5.0) -> 127.99 -> clamp 127; beyond the radius (60) -> -128 / 127.
  std::vector<int8_t> out;
  ASSERT_EQ(RunUnary<int8_t>(*Register_TANH(), TensorType::INT8, {0, 8, -8, 4, 40, -128, 127}, 0.125f, 0, 1.0f / 128, 0,
                             nullptr, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<int8_t>{0, 97, -97, 59, 127, -128, 127}));
}

TEST(ActivationsTest, TypeMismatchIsRejected) {
  int32_t dims[1] = {1};
  float x = 0;
  int8_t y = 0;
  TensorView vi = MakeView(&x, TensorType::FLOAT32, dims, 1);
  TensorView vo = MakeView(&y, TensorType::INT8, dims, 1, 1.0f, 0);
  EXPECT_EQ(KernelStatus(*Register_RELU(), {&vi}, {&vo}, nullptr, 128), StatusCode::kInvalidModel);
}

}  // namespace
}  // namespace arenaplan::rt
