// Unary elementwise kernel tests: values exact in float (or libm's own result for
// transcendental ones), ROUND's half-to-even rule as TFLM's RoundToNearest, quantized ABS and
// RSQRT worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "runtime/kernels/registrations.h"
#include "runtime/standalone_context.h"

namespace arenaplan::rt {
namespace {

std::vector<float> RunFloat(const KernelRegistration& k, std::vector<float> in, StatusCode* status) {
  int32_t dims[1] = {static_cast<int32_t>(in.size())};
  std::vector<float> out(in.size());
  TensorView vi = MakeView(in.data(), TensorType::FLOAT32, dims, 1);
  TensorView vo = MakeView(out.data(), TensorType::FLOAT32, dims, 1);
  TensorView* ins[] = {&vi};
  TensorView* outs[] = {&vo};
  uint8_t mem[128];
  StandaloneContext ctx(ins, 1, outs, 1, nullptr, mem, sizeof(mem));
  *status = ctx.Run(k);
  return out;
}

TEST(ElementwiseTest, ExactOps) {
  StatusCode st;
  EXPECT_EQ(RunFloat(*Register_ABS(), {-2.5f, 3.0f}, &st), (std::vector<float>{2.5f, 3.0f}));
  EXPECT_EQ(st, StatusCode::kOk);
  EXPECT_EQ(RunFloat(*Register_NEG(), {-2.5f, 3.0f}, &st), (std::vector<float>{2.5f, -3.0f}));
  EXPECT_EQ(RunFloat(*Register_FLOOR(), {-2.5f, 3.7f}, &st), (std::vector<float>{-3.0f, 3.0f}));
  EXPECT_EQ(RunFloat(*Register_CEIL(), {-2.5f, 3.2f}, &st), (std::vector<float>{-2.0f, 4.0f}));
  EXPECT_EQ(RunFloat(*Register_SQRT(), {9.0f, 0.25f}, &st), (std::vector<float>{3.0f, 0.5f}));
  EXPECT_EQ(RunFloat(*Register_RSQRT(), {4.0f, 0.25f}, &st), (std::vector<float>{0.5f, 2.0f}));
  EXPECT_EQ(RunFloat(*Register_SQUARE(), {-3.0f, 0.5f}, &st), (std::vector<float>{9.0f, 0.25f}));
}

TEST(ElementwiseTest, RoundHalfToEven) {
  StatusCode st;
  EXPECT_EQ(RunFloat(*Register_ROUND(), {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 2.6f}, &st),
            (std::vector<float>{0.0f, 2.0f, 2.0f, -0.0f, -2.0f, 3.0f}));
  EXPECT_EQ(st, StatusCode::kOk);
}

TEST(ElementwiseTest, TranscendentalMatchLibm) {
  StatusCode st;
  const auto e = RunFloat(*Register_EXP(), {1.0f}, &st);
  EXPECT_EQ(e[0], std::exp(1.0f));
  EXPECT_NEAR(e[0], 2.7182817f, 1e-6f);
  const auto l = RunFloat(*Register_LOG(), {1.0f}, &st);
  EXPECT_EQ(l[0], 0.0f);
}

TEST(ElementwiseTest, NonFloatIsRejected) {
  int32_t dims[1] = {1};
  int8_t x = 0, y = 0;
  TensorView vi = MakeView(&x, TensorType::INT8, dims, 1, 1.0f, 0);
  TensorView vo = MakeView(&y, TensorType::INT8, dims, 1, 1.0f, 0);
  TensorView* ins[] = {&vi};
  TensorView* outs[] = {&vo};
  uint8_t mem[64];
  StandaloneContext ctx(ins, 1, outs, 1, nullptr, mem, sizeof(mem));
  EXPECT_EQ(ctx.Run(*Register_SQRT()), StatusCode::kUnsupported);
}

// Quantized ABS / RSQRT (TFLM's elementwise.cc): hand-worked values.
template <typename T>
StatusCode RunQuantized(const KernelRegistration& k, const std::vector<T>& in, TensorType type, float in_scale,
                        int32_t in_zp, float out_scale, int32_t out_zp, std::vector<T>* out) {
  int32_t dims[1] = {static_cast<int32_t>(in.size())};
  out->assign(in.size(), 0);
  std::vector<T> x = in;
  TensorView vi = MakeView(x.data(), type, dims, 1, in_scale, in_zp);
  TensorView vo = MakeView(out->data(), type, dims, 1, out_scale, out_zp);
  TensorView* ins[] = {&vi};
  TensorView* outs[] = {&vo};
  uint8_t mem[128];
  StandaloneContext ctx(ins, 1, outs, 1, nullptr, mem, sizeof(mem));
  return ctx.Run(k);
}

TEST(ElementwiseTest, AbsQuantizedWithAndWithoutRescale) {
  std::vector<int8_t> y;
  // Equal scales: |q - 2| - 1.
  ASSERT_EQ(RunQuantized<int8_t>(*Register_ABS(), {-10, 2, 7, 127}, TensorType::INT8, 0.5f, 2, 0.5f, -1, &y),
            StatusCode::kOk);
  EXPECT_EQ(y, (std::vector<int8_t>{11, -1, 4, 124}));
  // Output scale twice the input's: halved, rounding half away from zero.
  ASSERT_EQ(RunQuantized<int8_t>(*Register_ABS(), {-10, 2, 7, 127}, TensorType::INT8, 0.5f, 2, 1.0f, 0, &y),
            StatusCode::kOk);
  EXPECT_EQ(y, (std::vector<int8_t>{6, 0, 3, 63}));
  // int16 quantized clamps |-32768|; int16 without quantization is plain std::abs (which wraps).
  std::vector<int16_t> z;
  ASSERT_EQ(RunQuantized<int16_t>(*Register_ABS(), {-32768, -5, 7}, TensorType::INT16, 1.0f, 0, 1.0f, 0, &z),
            StatusCode::kOk);
  EXPECT_EQ(z, (std::vector<int16_t>{32767, 5, 7}));
  ASSERT_EQ(RunQuantized<int16_t>(*Register_ABS(), {-32768, -5, 7}, TensorType::INT16, 0.0f, 0, 0.0f, 0, &z),
            StatusCode::kOk);
  EXPECT_EQ(z, (std::vector<int16_t>{-32768, 5, 7}));
  EXPECT_EQ(RunQuantized<int16_t>(*Register_ABS(), {1}, TensorType::INT16, 1.0f, 3, 1.0f, 0, &z),
            StatusCode::kInvalidModel);  // int16 needs zero points 0
}

TEST(ElementwiseTest, RsqrtInt8) {
  // Input scale 1/4, output scale 1/16: out = 16 / sqrt(q / 4) = 32 / sqrt(q).
  std::vector<int8_t> y;
  ASSERT_EQ(RunQuantized<int8_t>(*Register_RSQRT(), {4, 16, 64, 0}, TensorType::INT8, 0.25f, 0, 0.0625f, 0, &y),
            StatusCode::kOk);
  EXPECT_NEAR(y[0], 16, 1);
  EXPECT_NEAR(y[1], 8, 1);
  EXPECT_NEAR(y[2], 4, 1);
  EXPECT_EQ(y[3], 127);  // 0 stands for the largest output
  EXPECT_EQ(RunQuantized<int8_t>(*Register_RSQRT(), {-1}, TensorType::INT8, 0.25f, 0, 0.0625f, 0, &y),
            StatusCode::kKernelError);  // below the zero point
  std::vector<int16_t> z;
  EXPECT_EQ(RunQuantized<int16_t>(*Register_RSQRT(), {4}, TensorType::INT16, 1.0f, 0, 1.0f, 0, &z),
            StatusCode::kUnsupported);
}

}  // namespace
}  // namespace arenaplan::rt
