// Comparison, MINIMUM/MAXIMUM, ARG_MAX/ARG_MIN, CAST, DIV, FLOOR_DIV/FLOOR_MOD and
// SQUARED_DIFFERENCE kernel tests with hand-computed expectations.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "runtime/kernels/registrations.h"
#include "runtime/standalone_context.h"
#include "tensor_testutil.h"

namespace arenaplan::rt {
namespace {

using testing::KernelStatus;
using testing::Tensor;

std::vector<int> AsInts(const std::vector<uint8_t>& b) { return std::vector<int>(b.begin(), b.end()); }

TEST(CompareTest, LessFloatBroadcast) {
  Tensor<float> a({1, 5, 3, 7}, {2, 2}, TensorType::FLOAT32);
  Tensor<float> b({4}, {1}, TensorType::FLOAT32);
  Tensor<uint8_t> out(std::vector<uint8_t>(4), {2, 2}, TensorType::BOOL);
  ASSERT_EQ(KernelStatus(*Register_LESS(), {&a.view, &b.view}, {&out.view}), StatusCode::kOk);
  EXPECT_EQ(AsInts(out.data), (std::vector<int>{1, 0, 1, 0}));
  ASSERT_EQ(KernelStatus(*Register_GREATER_EQUAL(), {&a.view, &b.view}, {&out.view}), StatusCode::kOk);
  EXPECT_EQ(AsInts(out.data), (std::vector<int>{0, 1, 0, 1}));
}

TEST(CompareTest, EqualInt8ComparesRealValuesAcrossScales) {
  // a (0.25, 0): 8 -> 2.0, 6 -> 1.5; b (0.5, 0): 4 -> 2.0 both.
  Tensor<int8_t> a({8, 6}, {2}, TensorType::INT8, 0.25f, 0);
  Tensor<int8_t> b({4, 4}, {2}, TensorType::INT8, 0.5f, 0);
  Tensor<uint8_t> out(std::vector<uint8_t>(2), {2}, TensorType::BOOL);
  ASSERT_EQ(KernelStatus(*Register_EQUAL(), {&a.view, &b.view}, {&out.view}), StatusCode::kOk);
  EXPECT_EQ(AsInts(out.data), (std::vector<int>{1, 0}));
  ASSERT_EQ(KernelStatus(*Register_NOT_EQUAL(), {&a.view, &b.view}, {&out.view}), StatusCode::kOk);
  EXPECT_EQ(AsInts(out.data), (std::vector<int>{0, 1}));
}

TEST(CompareTest, Int8ScaleOfOneOrMoreIsRejected) {
  // TFLM's QuantizeMultiplierSmallerThanOneExp requires scale < 1 here; we refuse instead of UB.
  Tensor<int8_t> a({1}, {1}, TensorType::INT8, 1.0f, 0);
  Tensor<uint8_t> out(std::vector<uint8_t>(1), {1}, TensorType::BOOL);
  EXPECT_EQ(KernelStatus(*Register_EQUAL(), {&a.view, &a.view}, {&out.view}), StatusCode::kUnsupported);
}

TEST(CompareTest, OutputMustBeBool) {
  Tensor<float> a({1}, {1}, TensorType::FLOAT32);
  Tensor<float> out(std::vector<float>(1), {1}, TensorType::FLOAT32);
  EXPECT_EQ(KernelStatus(*Register_LESS(), {&a.view, &a.view}, {&out.view}), StatusCode::kUnsupported);
}

TEST(MinMaxTest, Int32Broadcast) {
  Tensor<int32_t> a({1, 9, -3}, {3}, TensorType::INT32);
  Tensor<int32_t> b({2}, {1}, TensorType::INT32);
  Tensor<int32_t> out(std::vector<int32_t>(3), {3}, TensorType::INT32);
  ASSERT_EQ(KernelStatus(*Register_MAXIMUM(), {&a.view, &b.view}, {&out.view}), StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<int32_t>{2, 9, 2}));
  ASSERT_EQ(KernelStatus(*Register_MINIMUM(), {&a.view, &b.view}, {&out.view}), StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<int32_t>{1, 2, -3}));
}

TEST(ArgTest, ArgMaxKeepsFirstOfTies) {
  Tensor<float> in({1, 7, 7, 3, 2, 2}, {2, 3}, TensorType::FLOAT32);
  Tensor<int32_t> axis({1}, {1}, TensorType::INT32);
  Tensor<int32_t> out(std::vector<int32_t>(2), {2}, TensorType::INT32);
  ASSERT_EQ(KernelStatus(*Register_ARG_MAX(), {&in.view, &axis.view}, {&out.view}), StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<int32_t>{1, 0}));
  Tensor<int64_t> out64(std::vector<int64_t>(2), {2}, TensorType::INT64);
  ASSERT_EQ(KernelStatus(*Register_ARG_MIN(), {&in.view, &axis.view}, {&out64.view}), StatusCode::kOk);
  EXPECT_EQ(out64.data, (std::vector<int64_t>{0, 1}));
}

TEST(CastTest, FloatTruncatesAndIntegersWrap) {
  Tensor<float> f({1.7f, -1.7f, 3e9f}, {3}, TensorType::FLOAT32);
  Tensor<int32_t> i(std::vector<int32_t>(3), {3}, TensorType::INT32);
  ASSERT_EQ(KernelStatus(*Register_CAST(), {&f.view}, {&i.view}), StatusCode::kOk);
  EXPECT_EQ(i.data, (std::vector<int32_t>{1, -1, INT32_MIN}));  // x86-64 cvttss2si overflow value
  Tensor<int32_t> w({300, -1}, {2}, TensorType::INT32);
  Tensor<int8_t> b(std::vector<int8_t>(2), {2}, TensorType::INT8);
  ASSERT_EQ(KernelStatus(*Register_CAST(), {&w.view}, {&b.view}), StatusCode::kOk);
  EXPECT_EQ(b.data, (std::vector<int8_t>{44, -1}));
  Tensor<uint32_t> u({4000000000u}, {1}, TensorType::UINT32);
  Tensor<int32_t> s(std::vector<int32_t>(1), {1}, TensorType::INT32);
  ASSERT_EQ(KernelStatus(*Register_CAST(), {&u.view}, {&s.view}), StatusCode::kOk);
  EXPECT_EQ(s.data[0], -294967296);
}

TEST(CastTest, Uint8InputIsUnsupportedAsOnTflm) {
  Tensor<uint8_t> u({1}, {1}, TensorType::UINT8);
  Tensor<float> f(std::vector<float>(1), {1}, TensorType::FLOAT32);
  EXPECT_EQ(KernelStatus(*Register_CAST(), {&u.view}, {&f.view}), StatusCode::kUnsupported);
}

TEST(CastTest, BoolInputIsCastAsTflmDoes) {
  // TFLM cast.cc Eval takes bool inputs (since TFLM PR #2401): false -> 0, true -> 1.
  Tensor<uint8_t> b({1, 0, 1, 1}, {4}, TensorType::BOOL);
  Tensor<int32_t> i(std::vector<int32_t>(4, 7), {4}, TensorType::INT32);
  ASSERT_EQ(KernelStatus(*Register_CAST(), {&b.view}, {&i.view}), StatusCode::kOk);
  EXPECT_EQ(i.data, (std::vector<int32_t>{1, 0, 1, 1}));
  Tensor<float> f(std::vector<float>(4, 7.0f), {4}, TensorType::FLOAT32);
  ASSERT_EQ(KernelStatus(*Register_CAST(), {&b.view}, {&f.view}), StatusCode::kOk);
  EXPECT_EQ(f.data, (std::vector<float>{1.0f, 0.0f, 1.0f, 1.0f}));
  Tensor<int8_t> c(std::vector<int8_t>(4, 7), {4}, TensorType::INT8);
  ASSERT_EQ(KernelStatus(*Register_CAST(), {&b.view}, {&c.view}), StatusCode::kOk);
  EXPECT_EQ(c.data, (std::vector<int8_t>{1, 0, 1, 1}));
}

TEST(CastTest, OutputsTflmDoesNotWriteFailTheInvoke) {
  // copyToTensor writes int8, int16, int32, uint32 and float32 only; any other output type fails
  // in Eval (Prepare accepts it), with TFLM's message and TfLiteType number.
  Tensor<float> f({1.0f, 0.0f}, {2}, TensorType::FLOAT32);
  Tensor<uint8_t> b(std::vector<uint8_t>(2), {2}, TensorType::BOOL);
  Tensor<int64_t> l(std::vector<int64_t>(2), {2}, TensorType::INT64);
  Tensor<uint8_t> u(std::vector<uint8_t>(2), {2}, TensorType::UINT8);
  const std::pair<TensorView*, const char*> cases[] = {{&b.view, "Output type BOOL (6) not supported."},
                                                       {&l.view, "Output type INT64 (4) not supported."},
                                                       {&u.view, "Output type UINT8 (3) not supported."}};
  for (const auto& [out, message] : cases) {
    std::vector<uint8_t> mem(512);
    TensorView* ins[] = {&f.view};
    TensorView* outs[] = {out};
    StandaloneContext ctx(ins, 1, outs, 1, nullptr, mem.data(), mem.size());
    ASSERT_EQ(ctx.Prepare(*Register_CAST()), StatusCode::kOk) << ctx.error().text;
    EXPECT_EQ(ctx.Eval(*Register_CAST()), StatusCode::kUnsupported);
    EXPECT_NE(std::string(ctx.error().text).find(message), std::string::npos) << ctx.error().text;
  }
}

TEST(DivTest, FloatAndInt32Truncating) {
  Tensor<float> a({1, -3}, {2}, TensorType::FLOAT32);
  Tensor<float> b({4}, {1}, TensorType::FLOAT32);
  Tensor<float> out(std::vector<float>(2), {2}, TensorType::FLOAT32);
  ASSERT_EQ(KernelStatus(*Register_DIV(), {&a.view, &b.view}, {&out.view}), StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{0.25f, -0.75f}));
  Tensor<int32_t> x({7, -7}, {2}, TensorType::INT32);
  Tensor<int32_t> y({-2, 2}, {2}, TensorType::INT32);
  Tensor<int32_t> z(std::vector<int32_t>(2), {2}, TensorType::INT32);
  ASSERT_EQ(KernelStatus(*Register_DIV(), {&x.view, &y.view}, {&z.view}), StatusCode::kOk);
  EXPECT_EQ(z.data, (std::vector<int32_t>{-3, -3}));
  Tensor<int32_t> zero({0, 1}, {2}, TensorType::INT32);
  EXPECT_EQ(KernelStatus(*Register_DIV(), {&x.view, &zero.view}, {&z.view}), StatusCode::kKernelError);
}

TEST(FloorTest, FloorDivAndFloorModFollowDivisorSign) {
  Tensor<float> a({-7, 7, -7}, {3}, TensorType::FLOAT32);
  Tensor<float> b({2, -2, -2}, {3}, TensorType::FLOAT32);
  Tensor<float> out(std::vector<float>(3), {3}, TensorType::FLOAT32);
  ASSERT_EQ(KernelStatus(*Register_FLOOR_DIV(), {&a.view, &b.view}, {&out.view}), StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{-4, -4, 3}));
  ASSERT_EQ(KernelStatus(*Register_FLOOR_MOD(), {&a.view, &b.view}, {&out.view}), StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{1, -1, -1}));
  Tensor<int32_t> i({1}, {1}, TensorType::INT32);
  EXPECT_EQ(KernelStatus(*Register_FLOOR_MOD(), {&i.view, &i.view}, {&i.view}), StatusCode::kUnsupported);
}

TEST(SquaredDifferenceTest, FloatAndInt32) {
  Tensor<float> a({1.5f, -2}, {2}, TensorType::FLOAT32);
  Tensor<float> b({0.5f, 1}, {2}, TensorType::FLOAT32);
  Tensor<float> out(std::vector<float>(2), {2}, TensorType::FLOAT32);
  ASSERT_EQ(KernelStatus(*Register_SQUARED_DIFFERENCE(), {&a.view, &b.view}, {&out.view}), StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{1.0f, 9.0f}));
}

}  // namespace
}  // namespace arenaplan::rt
