// SOFTMAX kernel: float values from TFLM's softmax_test.cc (within its tolerance), and exact
// fixed-point cases worked by hand: equal inputs split 1.0 evenly; diffs below diff_min give the
// type's minimum; the int16 LUT path lands within one unit of 1/4 for four equal inputs.
#include <gtest/gtest.h>

#include <cmath>

#include "kernel_a_testutil.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::testing {
namespace {

using rt::MakeView;
using rt::Status;
using rt::TensorType;
using rt::TensorView;

std::unique_ptr<OpHolder> SoftmaxOp(float beta) {
  return MakeOp(tfl::BuiltinOptions::SoftmaxOptions,
                [&](flatbuffers::FlatBufferBuilder& fbb) { return tfl::CreateSoftmaxOptions(fbb, beta); });
}

TEST(SoftmaxKernel, FloatTflmTest) {
  float in[10] = {1, 2, 3, 4, 5, -1, -2, -3, -4, -5};
  float out[10] = {};
  int32_t dims[2] = {2, 5};
  TensorView vi = MakeView(in, TensorType::FLOAT32, dims, 2), vo = MakeView(out, TensorType::FLOAT32, dims, 2);
  auto op = SoftmaxOp(1.0f);
  auto r = RunKernel(rt::Register_SOFTMAX(), {&vi}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  const float want[10] = {0.011656231f, 0.031684921f, 0.086128544f, 0.234121657f, 0.636408647f,
                          0.636408647f, 0.234121657f, 0.086128544f, 0.031684921f, 0.011656231f};
  for (int i = 0; i < 10; ++i) EXPECT_NEAR(out[i], want[i], 1e-6) << i;
}

TEST(SoftmaxKernel, FloatEqualInputsAreExactQuarters) {
  float in[4] = {7, 7, 7, 7};
  float out[4] = {};
  int32_t dims[2] = {1, 4};
  TensorView vi = MakeView(in, TensorType::FLOAT32, dims, 2), vo = MakeView(out, TensorType::FLOAT32, dims, 2);
  auto op = SoftmaxOp(0.5f);
  auto r = RunKernel(rt::Register_SOFTMAX(), {&vi}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  for (float v : out) EXPECT_EQ(v, 0.25f);
}

TEST(SoftmaxKernel, Int8EqualInputs) {
  int8_t in[4] = {5, 5, 5, 5};
  int8_t out[4] = {};
  int32_t dims[2] = {1, 4};
  TensorView vi = MakeView(in, TensorType::INT8, dims, 2, 0.1f, 0);
  TensorView vo = MakeView(out, TensorType::INT8, dims, 2, 1.0f / 256, -128);
  auto op = SoftmaxOp(1.0f);
  auto r = RunKernel(rt::Register_SOFTMAX(), {&vi}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  for (int8_t v : out) EXPECT_EQ(v, -64);  // 0.25 * 256 - 128
}

TEST(SoftmaxKernel, Int8BelowDiffMinIsMinimum) {
  // scale 1, beta 1: multiplier 2^26 -> left shift 27, diff_min = -floor(31 * 2^26 / 2^27) = -15.
  int8_t in[2] = {127, -128};
  int8_t out[2] = {};
  int32_t dims[2] = {1, 2};
  TensorView vi = MakeView(in, TensorType::INT8, dims, 2, 1.0f, 0);
  TensorView vo = MakeView(out, TensorType::INT8, dims, 2, 1.0f / 256, -128);
  auto op = SoftmaxOp(1.0f);
  auto r = RunKernel(rt::Register_SOFTMAX(), {&vi}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(out[0], 127);  // 1.0 saturates
  EXPECT_EQ(out[1], -128);
}

TEST(SoftmaxKernel, Int8ToInt16EqualInputs) {
  int8_t in[2] = {-3, -3};
  int16_t out[2] = {};
  int32_t dims[2] = {1, 2};
  TensorView vi = MakeView(in, TensorType::INT8, dims, 2, 0.05f, 0);
  TensorView vo = MakeView(out, TensorType::INT16, dims, 2, 1.0f / 65536, -32768);
  auto op = SoftmaxOp(1.0f);
  auto r = RunKernel(rt::Register_SOFTMAX(), {&vi}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  EXPECT_EQ(out[0], 0);  // 0.5 * 65536 - 32768
  EXPECT_EQ(out[1], 0);
}

TEST(SoftmaxKernel, Int16LutPathNearQuarter) {
  int16_t in[8] = {100, 100, 100, 100, 0, -32768, -32768, -32768};
  int16_t out[8] = {};
  int32_t dims[2] = {2, 4};
  TensorView vi = MakeView(in, TensorType::INT16, dims, 2, 1.0f / 1024, 0);
  TensorView vo = MakeView(out, TensorType::INT16, dims, 2, 1.0f / 32768, 0);
  auto op = SoftmaxOp(1.0f);
  auto r = RunKernel(rt::Register_SOFTMAX(), {&vi}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(out[i], 8192, 2) << i;
  // exp(0) interpolates between LUT entries 511 (exp(-10/512)) and 512 to ~32762 / 32768; the
  // others sit at the LUT floor exp(-10) * 32768 ~ 1.5.
  EXPECT_NEAR(out[4], 32760, 8);
  for (int i = 5; i < 8; ++i) EXPECT_LE(out[i], 2) << i;
}

// TFLM softmax_test.cc Softmax2DQuantizedInt8/Int16ShouldMatchGolden: inputs {1..5, -1..-5} with
// scale 0.1, float goldens quantized to the output scale, tolerance 1 quantization step.
template <typename T>
void CheckTflmQuantizedGolden(TensorType type, float out_scale, int32_t out_zp) {
  const float input[10] = {1, 2, 3, 4, 5, -1, -2, -3, -4, -5};
  const float golden[10] = {0.011656231f, 0.031684921f, 0.086128544f, 0.234121657f, 0.636408647f,
                            0.636408647f, 0.234121657f, 0.086128544f, 0.031684921f, 0.011656231f};
  T in[10], out[10];
  for (int i = 0; i < 10; ++i) in[i] = static_cast<T>(std::round(input[i] / 0.1f));
  int32_t dims[2] = {2, 5};
  TensorView vi = MakeView(in, type, dims, 2, 0.1f, 0), vo = MakeView(out, type, dims, 2, out_scale, out_zp);
  auto op = SoftmaxOp(1.0f);
  auto r = RunKernel(rt::Register_SOFTMAX(), {&vi}, {&vo}, op->op);
  ASSERT_EQ(r.status, Status::kOk) << r.error;
  for (int i = 0; i < 10; ++i) {
    const float want = std::round(golden[i] / out_scale) + static_cast<float>(out_zp);
    EXPECT_NEAR(out[i], want, 1.0f) << i;
  }
}

TEST(SoftmaxKernel, Int8TflmGolden) { CheckTflmQuantizedGolden<int8_t>(TensorType::INT8, 1.0f / 256, -128); }
TEST(SoftmaxKernel, Int16TflmGolden) { CheckTflmQuantizedGolden<int16_t>(TensorType::INT16, 1.0f / 32768, 0); }

TEST(SoftmaxKernel, RejectsWrongInt8OutputQuantization) {
  int8_t in[2] = {}, out[2] = {};
  int32_t dims[2] = {1, 2};
  TensorView vi = MakeView(in, TensorType::INT8, dims, 2, 1.0f, 0);
  TensorView vo = MakeView(out, TensorType::INT8, dims, 2, 1.0f / 128, 0);
  auto r = RunKernel(rt::Register_SOFTMAX(), {&vi}, {&vo});
  EXPECT_EQ(r.status, Status::kInvalidModel) << r.error;
}

}  // namespace
}  // namespace arenaplan::testing
