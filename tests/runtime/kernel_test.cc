// Kernels run without an interpreter through StandaloneContext, on stack arrays; expected values
// are worked out by hand from TFLM's reference formulas (see comments).
#include <gtest/gtest.h>

#include <limits>

#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"
#include "runtime/standalone_context.h"

namespace arenaplan::rt {
namespace {

TEST(QuantizationTest, QuantizeMultiplierMatchesFrexpDecomposition) {
  int32_t m = 0;
  int shift = 0;
  QuantizeMultiplier(0.5, &m, &shift);
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(shift, 0);
  QuantizeMultiplier(1.0, &m, &shift);
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(shift, 1);
  QuantizeMultiplier(0.75, &m, &shift);
  EXPECT_EQ(m, 1610612736);
  EXPECT_EQ(shift, 0);
  QuantizeMultiplier(0.0, &m, &shift);
  EXPECT_EQ(m, 0);
  QuantizeMultiplier(1e-12, &m, &shift);  // 2^-39.9: flushed to zero like TFLM
  EXPECT_EQ(m, 0);
  EXPECT_EQ(shift, 0);
}

TEST(QuantizationTest, FixedPointRounding) {
  EXPECT_EQ(RoundingDivideByPOT(5, 1), 3);    // 2.5 -> 3 (half away from zero)
  EXPECT_EQ(RoundingDivideByPOT(-5, 1), -3);  // -2.5 -> -3
  EXPECT_EQ(RoundingDivideByPOT(-6, 2), -2);  // -1.5 -> -2
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::min()),
            std::numeric_limits<int32_t>::max());
  EXPECT_EQ(MultiplyByQuantizedMultiplier(100, 1 << 30, 0), 50);
  EXPECT_EQ(MultiplyByQuantizedMultiplier(100, 1 << 30, 2), 200);
  // Double rounding, as in TFLM's default build: 101 * 0.5 = 50.5 -> 51, then 51 / 2 -> 26
  // (a single rounding of 25.25 would give 25).
  EXPECT_EQ(MultiplyByQuantizedMultiplier(101, 1 << 30, -1), 26);
  EXPECT_EQ(MultiplyByQuantizedMultiplier(int64_t{1} << 20, 1 << 30, 0), 1 << 19);
}

TEST(QuantizationTest, ActivationRangeInt8) {
  int32_t dims[1] = {1};
  const TensorView out = MakeView(nullptr, TensorType::INT8, dims, 1, 0.05f, -10);
  int32_t lo = 0, hi = 0;
  ASSERT_TRUE(CalculateActivationRangeQuantized(tfl::ActivationFunctionType::RELU6, out, &lo, &hi));
  EXPECT_EQ(lo, -10);
  EXPECT_EQ(hi, 110);  // -10 + round(6 / 0.05)
}

// Hostile scales: an infinite or NaN multiplier, and a RELU6 bound past int32 (6 / 1e-30), stay
// defined (TFLM's float-to-int casts are undefined there): zero multiplier, saturated bounds.
TEST(QuantizationTest, NonFiniteAndHugeValuesSaturate) {
  int32_t m = 7;
  int shift = 7;
  QuantizeMultiplier(std::numeric_limits<double>::infinity(), &m, &shift);
  EXPECT_EQ(m, 0);
  EXPECT_EQ(shift, 0);
  m = 7, shift = 7;
  QuantizeMultiplier(std::numeric_limits<double>::quiet_NaN(), &m, &shift);
  EXPECT_EQ(m, 0);
  EXPECT_EQ(shift, 0);
  int32_t dims[1] = {1};
  int32_t lo = 0, hi = 0;
  const TensorView tiny = MakeView(nullptr, TensorType::INT8, dims, 1, 1e-30f, 5);
  ASSERT_TRUE(CalculateActivationRangeQuantized(tfl::ActivationFunctionType::RELU6, tiny, &lo, &hi));
  EXPECT_EQ(lo, 5);
  EXPECT_EQ(hi, 127);
  const TensorView nan = MakeView(nullptr, TensorType::INT8, dims, 1, std::numeric_limits<float>::quiet_NaN(), 5);
  ASSERT_TRUE(CalculateActivationRangeQuantized(tfl::ActivationFunctionType::RELU6, nan, &lo, &hi));
  EXPECT_EQ(lo, 5);
  EXPECT_EQ(hi, 5);
}

// int8 ADD, all scales 0.5, zero points 0: twice_max = 1, input multipliers 0.5 = (2^30, 0),
// output multiplier 2^-19 = (2^30, -18): 2 + 6 -> 8, -4 + 10 -> 6, 127 + 127 saturates at 127.
TEST(KernelTest, AddInt8ThroughStandaloneContext) {
  int8_t a[3] = {2, -4, 127}, b[3] = {6, 10, 127}, out[3] = {0, 0, 0};
  int32_t dims[1] = {3};
  TensorView va = MakeView(a, TensorType::INT8, dims, 1, 0.5f, 0);
  TensorView vb = MakeView(b, TensorType::INT8, dims, 1, 0.5f, 0);
  TensorView vo = MakeView(out, TensorType::INT8, dims, 1, 0.5f, 0);
  TensorView* ins[] = {&va, &vb};
  TensorView* outs[] = {&vo};
  alignas(16) uint8_t mem[512];
  StandaloneContext ctx(ins, 2, outs, 1, nullptr, mem, sizeof(mem), "ADD");
  ASSERT_EQ(ctx.Run(*Register_ADD()), StatusCode::kOk) << ctx.error().text;
  EXPECT_EQ(out[0], 8);
  EXPECT_EQ(out[1], 6);
  EXPECT_EQ(out[2], 127);
}

TEST(KernelTest, AddFloatBroadcastsRowVector) {
  float a[6] = {1, 2, 3, 4, 5, 6}, b[3] = {10, 20, 30}, out[6] = {};
  int32_t da[2] = {2, 3}, db[1] = {3};
  TensorView va = MakeView(a, TensorType::FLOAT32, da, 2), vb = MakeView(b, TensorType::FLOAT32, db, 1);
  TensorView vo = MakeView(out, TensorType::FLOAT32, da, 2);
  TensorView* ins[] = {&va, &vb};
  TensorView* outs[] = {&vo};
  alignas(16) uint8_t mem[512];
  StandaloneContext ctx(ins, 2, outs, 1, nullptr, mem, sizeof(mem), "ADD");
  ASSERT_EQ(ctx.Run(*Register_ADD()), StatusCode::kOk) << ctx.error().text;
  const float want[6] = {11, 22, 33, 14, 25, 36};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], want[i]) << i;
}

TEST(KernelTest, KernelErrorsNameTheOp) {
  float a[2] = {}, out[2] = {};
  int8_t b[2] = {};
  int32_t dims[1] = {2};
  TensorView va = MakeView(a, TensorType::FLOAT32, dims, 1), vb = MakeView(b, TensorType::INT8, dims, 1);
  TensorView vo = MakeView(out, TensorType::FLOAT32, dims, 1);
  TensorView* ins[] = {&va, &vb};
  TensorView* outs[] = {&vo};
  alignas(16) uint8_t mem[256];
  StandaloneContext ctx(ins, 2, outs, 1, nullptr, mem, sizeof(mem), "ADD");
  EXPECT_EQ(ctx.Run(*Register_ADD()), StatusCode::kInvalidModel);
  EXPECT_STREQ(ctx.error().text, "op 0 (ADD): input types FLOAT32, INT8 differ from output type FLOAT32");
}

// float -> int8 with scale 0.5, zero point -1: round(x / 0.5) - 1, clamped to [-128, 127]; NaN -> -1.
TEST(KernelTest, QuantizeAndDequantize) {
  float x[5] = {0.24f, -0.26f, 1000.0f, 1.0f, std::numeric_limits<float>::quiet_NaN()};
  int8_t q[5] = {};
  float back[5] = {};
  int32_t dims[1] = {5};
  TensorView vx = MakeView(x, TensorType::FLOAT32, dims, 1), vq = MakeView(q, TensorType::INT8, dims, 1, 0.5f, -1);
  TensorView vb = MakeView(back, TensorType::FLOAT32, dims, 1);
  alignas(16) uint8_t mem[256];
  {
    TensorView* ins[] = {&vx};
    TensorView* outs[] = {&vq};
    StandaloneContext ctx(ins, 1, outs, 1, nullptr, mem, sizeof(mem), "QUANTIZE");
    ASSERT_EQ(ctx.Run(*Register_QUANTIZE()), StatusCode::kOk) << ctx.error().text;
  }
  EXPECT_EQ(q[0], -1);   // round(0.48) = 0
  EXPECT_EQ(q[1], -2);   // round(-0.52) = -1
  EXPECT_EQ(q[2], 127);  // saturated
  EXPECT_EQ(q[3], 1);
  EXPECT_EQ(q[4], -1);  // NaN: the zero point (TFLM's cast of it is undefined)
  {
    TensorView* ins[] = {&vq};
    TensorView* outs[] = {&vb};
    StandaloneContext ctx(ins, 1, outs, 1, nullptr, mem, sizeof(mem), "DEQUANTIZE");
    ASSERT_EQ(ctx.Run(*Register_DEQUANTIZE()), StatusCode::kOk) << ctx.error().text;
  }
  EXPECT_EQ(back[0], 0.0f);
  EXPECT_EQ(back[1], -0.5f);
  EXPECT_EQ(back[2], 64.0f);
  EXPECT_EQ(back[3], 1.0f);
}

}  // namespace
}  // namespace arenaplan::rt
