// SOFTMAX kernel: float values from TFLM's softmax_test.cc (within its tolerance), and exact
// fixed-point cases worked by hand: equal inputs split 1.0 evenly; diffs below diff_min give the
// type's minimum; the int16 LUT path lands within one unit of 1/4 for four equal inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernel_a_testutil.h"
#include "runtime/kernels/registrations.h"
#include "tensor_testutil.h"

namespace arenaplan::testing {
namespace {

// SOFTMAX with `beta` of `in` into `out`.
KernelRun Softmax(TensorView* in, TensorView* out, float beta = 1.0f) {
  auto op = MakeOp(tfl::BuiltinOptions::SoftmaxOptions,
                   [&](flatbuffers::FlatBufferBuilder& fbb) { return tfl::CreateSoftmaxOptions(fbb, beta); });
  return RunKernel(rt::Register_SOFTMAX(), {in}, {out}, op->op);
}

TEST(SoftmaxKernel, FloatTflmTest) {
  Tensor<float> in({1, 2, 3, 4, 5, -1, -2, -3, -4, -5}, {2, 5}, TensorType::FLOAT32);
  Tensor<float> out(std::vector<float>(10), {2, 5}, TensorType::FLOAT32);
  auto r = Softmax(&in.view, &out.view);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  const float want[10] = {0.011656231f, 0.031684921f, 0.086128544f, 0.234121657f, 0.636408647f,
                          0.636408647f, 0.234121657f, 0.086128544f, 0.031684921f, 0.011656231f};
  for (int i = 0; i < 10; ++i) EXPECT_NEAR(out.data[i], want[i], 1e-6) << i;
}

TEST(SoftmaxKernel, FloatEqualInputsAreExactQuarters) {
  Tensor<float> in({7, 7, 7, 7}, {1, 4}, TensorType::FLOAT32);
  Tensor<float> out(std::vector<float>(4), {1, 4}, TensorType::FLOAT32);
  auto r = Softmax(&in.view, &out.view, 0.5f);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  for (float v : out.data) EXPECT_EQ(v, 0.25f);
}

TEST(SoftmaxKernel, Int8EqualInputs) {
  Tensor<int8_t> in({5, 5, 5, 5}, {1, 4}, TensorType::INT8, 0.1f, 0);
  Tensor<int8_t> out(std::vector<int8_t>(4), {1, 4}, TensorType::INT8, 1.0f / 256, -128);
  auto r = Softmax(&in.view, &out.view);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  for (int8_t v : out.data) EXPECT_EQ(v, -64);  // 0.25 * 256 - 128
}

TEST(SoftmaxKernel, Int8BelowDiffMinIsMinimum) {
  // scale 1, beta 1: multiplier 2^26 -> left shift 27, diff_min = -floor(31 * 2^26 / 2^27) = -15.
  Tensor<int8_t> in({127, -128}, {1, 2}, TensorType::INT8, 1.0f, 0);
  Tensor<int8_t> out(std::vector<int8_t>(2), {1, 2}, TensorType::INT8, 1.0f / 256, -128);
  auto r = Softmax(&in.view, &out.view);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out.data[0], 127);  // 1.0 saturates
  EXPECT_EQ(out.data[1], -128);
}

TEST(SoftmaxKernel, Int8ToInt16EqualInputs) {
  Tensor<int8_t> in({-3, -3}, {1, 2}, TensorType::INT8, 0.05f, 0);
  Tensor<int16_t> out(std::vector<int16_t>(2), {1, 2}, TensorType::INT16, 1.0f / 65536, -32768);
  auto r = Softmax(&in.view, &out.view);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  EXPECT_EQ(out.data[0], 0);  // 0.5 * 65536 - 32768
  EXPECT_EQ(out.data[1], 0);
}

TEST(SoftmaxKernel, Int16LutPathNearQuarter) {
  Tensor<int16_t> in({100, 100, 100, 100, 0, -32768, -32768, -32768}, {2, 4}, TensorType::INT16, 1.0f / 1024, 0);
  Tensor<int16_t> out(std::vector<int16_t>(8), {2, 4}, TensorType::INT16, 1.0f / 32768, 0);
  auto r = Softmax(&in.view, &out.view);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(out.data[i], 8192, 2) << i;
  // exp(0) interpolates between LUT entries 511 (exp(-10/512)) and 512 to ~32762 / 32768; the
  // others sit at the LUT floor exp(-10) * 32768 ~ 1.5.
  EXPECT_NEAR(out.data[4], 32760, 8);
  for (int i = 5; i < 8; ++i) EXPECT_LE(out.data[i], 2) << i;
}

// TFLM softmax_test.cc Softmax2DQuantizedInt8/Int16ShouldMatchGolden: inputs {1..5, -1..-5} with
// scale 0.1, float goldens quantized to the output scale, tolerance 1 quantization step.
template <typename T>
void CheckTflmQuantizedGolden(TensorType type, float out_scale, int32_t out_zp) {
  const float input[10] = {1, 2, 3, 4, 5, -1, -2, -3, -4, -5};
  const float golden[10] = {0.011656231f, 0.031684921f, 0.086128544f, 0.234121657f, 0.636408647f,
                            0.636408647f, 0.234121657f, 0.086128544f, 0.031684921f, 0.011656231f};
  Tensor<T> in(std::vector<T>(10), {2, 5}, type, 0.1f, 0);
  Tensor<T> out(std::vector<T>(10), {2, 5}, type, out_scale, out_zp);
  for (int i = 0; i < 10; ++i) in.data[i] = static_cast<T>(std::round(input[i] / 0.1f));
  auto r = Softmax(&in.view, &out.view);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  for (int i = 0; i < 10; ++i) {
    const float want = std::round(golden[i] / out_scale) + static_cast<float>(out_zp);
    EXPECT_NEAR(out.data[i], want, 1.0f) << i;
  }
}

TEST(SoftmaxKernel, Int8TflmGolden) { CheckTflmQuantizedGolden<int8_t>(TensorType::INT8, 1.0f / 256, -128); }
TEST(SoftmaxKernel, Int16TflmGolden) { CheckTflmQuantizedGolden<int16_t>(TensorType::INT16, 1.0f / 32768, 0); }

TEST(SoftmaxKernel, RejectsWrongInt8OutputQuantization) {
  Tensor<int8_t> in(std::vector<int8_t>(2), {1, 2}, TensorType::INT8, 1.0f, 0);
  Tensor<int8_t> out(std::vector<int8_t>(2), {1, 2}, TensorType::INT8, 1.0f / 128, 0);
  auto r = RunKernel(rt::Register_SOFTMAX(), {&in.view}, {&out.view});
  EXPECT_EQ(r.status, StatusCode::kInvalidModel) << r.error;
}

}  // namespace
}  // namespace arenaplan::testing
