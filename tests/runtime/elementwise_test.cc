// Unary float elementwise kernel tests: values exact in float (or libm's own result for
// transcendental ones), ROUND's half-to-even rule as TFLM's RoundToNearest.
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

}  // namespace
}  // namespace arenaplan::rt
