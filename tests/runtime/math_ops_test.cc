// ADD_N, BATCH_MATMUL, ELU, HARD_SWISH, L2_NORMALIZATION, L2_POOL_2D, LOG_SOFTMAX, LOGICAL_AND/OR,
// REDUCE_MIN, REDUCE_ALL and RESIZE_BILINEAR kernel tests. Integer and exactly representable
// results are written out by hand; float results of exp / log / sqrt are computed here from the
// op's formula with the C library (an independent implementation, compared within 1e-6), and the
// bit-exact match with TFLM is the op suite's job (op_suite_corpus_test.cc). Fixed-point int8
// paths are checked to within one step of the real result.
#include <flatbuffers/flatbuffers.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "kernel_a_testutil.h"
#include "runtime/kernels/registrations.h"
#include "tensor_testutil.h"

namespace arenaplan::rt {
namespace {

using testing::MakeOp;
using testing::RunKernel;
using testing::Tensor;

constexpr TensorType F32 = TensorType::FLOAT32;
constexpr TensorType I8 = TensorType::INT8;
constexpr TensorType I32 = TensorType::INT32;
constexpr TensorType BOOL = TensorType::BOOL;

// --- ADD_N ---------------------------------------------------------------------------------------

TEST(AddNTest, FloatInOrderAndInt8Clamped) {
  Tensor<float> a({1, 2}, {2}, F32), b({10, 20}, {2}, F32), c({100, 200}, {2}, F32);
  Tensor<float> out(std::vector<float>(2), {2}, F32);
  ASSERT_EQ(RunKernel(Register_ADD_N(), {&a.view, &b.view, &c.view}, {&out.view}).status, StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{111, 222}));
  // int8, scale 1 and zero point 0 everywhere: plain sums, clamped to [-128, 127].
  Tensor<int8_t> x({10, -20}, {2}, I8, 1.0f, 0), y({5, 5}, {2}, I8, 1.0f, 0), z({100, -120}, {2}, I8, 1.0f, 0);
  Tensor<int8_t> q(std::vector<int8_t>(2), {2}, I8, 1.0f, 0);
  ASSERT_EQ(RunKernel(Register_ADD_N(), {&x.view, &y.view, &z.view}, {&q.view}).status, StatusCode::kOk);
  EXPECT_EQ(q.data, (std::vector<int8_t>{115, -128}));
}

TEST(AddNTest, MismatchedShapesAreRejected) {
  Tensor<float> a({1, 2}, {2}, F32), b({1, 2, 3}, {3}, F32);
  Tensor<float> out(std::vector<float>(2), {2}, F32);
  EXPECT_NE(RunKernel(Register_ADD_N(), {&a.view, &b.view}, {&out.view}).status, StatusCode::kOk);
}

// --- BATCH_MATMUL --------------------------------------------------------------------------------

std::unique_ptr<testing::OpHolder> BatchMatMulOp(bool adj_x, bool adj_y) {
  return MakeOp(tfl::BuiltinOptions::BatchMatMulOptions,
                [=](flatbuffers::FlatBufferBuilder& b) { return tfl::CreateBatchMatMulOptions(b, adj_x, adj_y); });
}

TEST(BatchMatMulTest, EveryAdjointCombination) {
  // [[1, 2, 3], [4, 5, 6]] x [[1, 0], [0, 1], [1, 1]] = [[4, 5], [10, 11]], with either operand
  // stored transposed.
  Tensor<float> lhs({1, 2, 3, 4, 5, 6}, {2, 3}, F32), lhs_t({1, 4, 2, 5, 3, 6}, {3, 2}, F32);
  Tensor<float> rhs({1, 0, 0, 1, 1, 1}, {3, 2}, F32), rhs_t({1, 0, 1, 0, 1, 1}, {2, 3}, F32);
  Tensor<float> out(std::vector<float>(4), {2, 2}, F32);
  const std::vector<float> want{4, 5, 10, 11};
  for (int adj_x = 0; adj_x < 2; ++adj_x) {
    for (int adj_y = 0; adj_y < 2; ++adj_y) {
      auto op = BatchMatMulOp(adj_x, adj_y);
      out.data.assign(4, 0);
      ASSERT_EQ(RunKernel(Register_BATCH_MATMUL(), {adj_x ? &lhs_t.view : &lhs.view, adj_y ? &rhs_t.view : &rhs.view},
                          {&out.view}, op->op)
                    .status,
                StatusCode::kOk);
      EXPECT_EQ(out.data, want) << adj_x << adj_y;
    }
  }
}

TEST(BatchMatMulTest, BatchDimsBroadcastUpToRank5) {
  // lhs batch 2 ([[1, 2]], [[3, 4]]) against one rhs [[1], [1]]: [3], [7].
  Tensor<float> lhs({1, 2, 3, 4}, {2, 1, 2}, F32);
  Tensor<float> rhs({1, 1}, {1, 2, 1}, F32);
  Tensor<float> out(std::vector<float>(2), {2, 1, 1}, F32);
  auto op = BatchMatMulOp(false, false);
  ASSERT_EQ(RunKernel(Register_BATCH_MATMUL(), {&lhs.view, &rhs.view}, {&out.view}, op->op).status, StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{3, 7}));
  // The same at rank 5, the batch on the other side: one lhs [[1, 2]] against rhs batch 2.
  Tensor<float> lhs5({1, 2}, {1, 1, 1, 1, 2}, F32);
  Tensor<float> rhs5({1, 1, 2, 3}, {1, 1, 2, 2, 1}, F32);
  Tensor<float> out5(std::vector<float>(2), {1, 1, 2, 1, 1}, F32);
  ASSERT_EQ(RunKernel(Register_BATCH_MATMUL(), {&lhs5.view, &rhs5.view}, {&out5.view}, op->op).status, StatusCode::kOk);
  EXPECT_EQ(out5.data, (std::vector<float>{3, 8}));
}

TEST(BatchMatMulTest, Int8WithZeroPoints) {
  // lhs q [2, 3] zp 1 -> [1, 2]; rhs q [2, 3] zp -1 -> [3, 4]; 1*3 + 2*4 = 11, + output zp 5.
  Tensor<int8_t> lhs({2, 3}, {1, 2}, I8, 1.0f, 1);
  Tensor<int8_t> rhs({2, 3}, {2, 1}, I8, 1.0f, -1);
  Tensor<int8_t> out(std::vector<int8_t>(1), {1, 1}, I8, 1.0f, 5);
  auto op = BatchMatMulOp(false, false);
  ASSERT_EQ(RunKernel(Register_BATCH_MATMUL(), {&lhs.view, &rhs.view}, {&out.view}, op->op).status, StatusCode::kOk);
  EXPECT_EQ(out.data[0], 16);
}

// --- ELU / HARD_SWISH ----------------------------------------------------------------------------

TEST(EluTest, FloatAndTheInt8Table) {
  Tensor<float> in({-2, -0.5f, 0, 1.5f}, {4}, F32);
  Tensor<float> out(std::vector<float>(4), {4}, F32);
  ASSERT_EQ(RunKernel(Register_ELU(), {&in.view}, {&out.view}).status, StatusCode::kOk);
  EXPECT_NEAR(out.data[0], std::expm1(-2.0f), 1e-6);
  EXPECT_NEAR(out.data[1], std::expm1(-0.5f), 1e-6);
  EXPECT_EQ(out.data[2], 0);
  EXPECT_EQ(out.data[3], 1.5f);
  // int8 scale 0.1 both sides: 10 -> 1.0 -> 10; -10 -> e^-1 - 1 = -0.632 -> -6; -128 -> ~-1 -> -10.
  Tensor<int8_t> q({10, -10, -128, 0}, {4}, I8, 0.1f, 0);
  Tensor<int8_t> qo(std::vector<int8_t>(4), {4}, I8, 0.1f, 0);
  ASSERT_EQ(RunKernel(Register_ELU(), {&q.view}, {&qo.view}).status, StatusCode::kOk);
  EXPECT_EQ(qo.data, (std::vector<int8_t>{10, -6, -10, 0}));
}

TEST(HardSwishTest, FloatPiecewise) {
  Tensor<float> in({-4, -1, 0, 1, 4}, {5}, F32);
  Tensor<float> out(std::vector<float>(5), {5}, F32);
  ASSERT_EQ(RunKernel(Register_HARD_SWISH(), {&in.view}, {&out.view}).status, StatusCode::kOk);
  const std::vector<float> want{0, -1.0f * 2 / 6, 0, 1.0f * 4 / 6, 4};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(out.data[i], want[i], 1e-6) << i;
}

// --- L2_NORMALIZATION / L2_POOL_2D ---------------------------------------------------------------

TEST(L2NormalizationTest, LastDimFloatAndInt8) {
  Tensor<float> in({3, 4, 0, 0}, {2, 2}, F32);
  Tensor<float> out(std::vector<float>(4), {2, 2}, F32);
  ASSERT_EQ(RunKernel(Register_L2_NORMALIZATION(), {&in.view}, {&out.view}).status, StatusCode::kOk);
  EXPECT_NEAR(out.data[0], 0.6f, 1e-6);
  EXPECT_NEAR(out.data[1], 0.8f, 1e-6);
  EXPECT_EQ(out.data[2], 0);  // a zero row divides by the 1e-6 floor
  EXPECT_EQ(out.data[3], 0);
  // int8: output scale 1/128; [3, 4] -> [76.8, 102.4].
  Tensor<int8_t> q({3, 4}, {1, 2}, I8, 0.5f, 0);
  Tensor<int8_t> qo(std::vector<int8_t>(2), {1, 2}, I8, 1.0f / 128, 0);
  ASSERT_EQ(RunKernel(Register_L2_NORMALIZATION(), {&q.view}, {&qo.view}).status, StatusCode::kOk);
  EXPECT_NEAR(qo.data[0], 76.8, 1.0);
  EXPECT_NEAR(qo.data[1], 102.4, 1.0);
}

std::unique_ptr<testing::OpHolder> PoolOp(tfl::Padding padding, int32_t f, tfl::ActivationFunctionType act) {
  return MakeOp(tfl::BuiltinOptions::Pool2DOptions, [=](flatbuffers::FlatBufferBuilder& b) {
    return tfl::CreatePool2DOptions(b, padding, 1, 1, f, f, act);
  });
}

TEST(L2PoolTest, ValidSameAndActivation) {
  Tensor<float> in({1, 2, 3, 4}, {1, 2, 2, 1}, F32);
  Tensor<float> one(std::vector<float>(1), {1, 1, 1, 1}, F32);
  auto valid = PoolOp(tfl::Padding::VALID, 2, tfl::ActivationFunctionType::NONE);
  ASSERT_EQ(RunKernel(Register_L2_POOL_2D(), {&in.view}, {&one.view}, valid->op).status, StatusCode::kOk);
  EXPECT_NEAR(one.data[0], std::sqrt(30.0f / 4), 1e-6);
  // SAME: windows clipped to the input, each divided by the taps inside.
  Tensor<float> four(std::vector<float>(4), {1, 2, 2, 1}, F32);
  auto same = PoolOp(tfl::Padding::SAME, 2, tfl::ActivationFunctionType::RELU6);
  ASSERT_EQ(RunKernel(Register_L2_POOL_2D(), {&in.view}, {&four.view}, same->op).status, StatusCode::kOk);
  EXPECT_NEAR(four.data[0], std::sqrt(30.0f / 4), 1e-6);
  EXPECT_NEAR(four.data[1], std::sqrt(20.0f / 2), 1e-6);
  EXPECT_NEAR(four.data[2], std::sqrt(25.0f / 2), 1e-6);
  EXPECT_NEAR(four.data[3], 4.0f, 1e-6);
  auto clipped = PoolOp(tfl::Padding::SAME, 2, tfl::ActivationFunctionType::RELU_N1_TO_1);
  ASSERT_EQ(RunKernel(Register_L2_POOL_2D(), {&in.view}, {&four.view}, clipped->op).status, StatusCode::kOk);
  EXPECT_EQ(four.data, (std::vector<float>{1, 1, 1, 1}));
}

// --- LOG_SOFTMAX ---------------------------------------------------------------------------------

TEST(LogSoftmaxTest, FloatRowsAndInt8) {
  Tensor<float> in({1, 2, 3, -1, -1, -1}, {2, 3}, F32);
  Tensor<float> out(std::vector<float>(6), {2, 3}, F32);
  ASSERT_EQ(RunKernel(Register_LOG_SOFTMAX(), {&in.view}, {&out.view}).status, StatusCode::kOk);
  const float log_sum = std::log(std::exp(-2.0f) + std::exp(-1.0f) + 1.0f);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(out.data[i], static_cast<float>(i + 1) - 3 - log_sum, 1e-6);
  for (int i = 3; i < 6; ++i) EXPECT_NEAR(out.data[i], -std::log(3.0f), 1e-6);
  // int8: four equal inputs -> -log 4 = -1.386 on scale 1/16, + 127 -> 104.8.
  Tensor<int8_t> q({5, 5, 5, 5}, {1, 4}, I8, 0.1f, 0);
  Tensor<int8_t> qo(std::vector<int8_t>(4), {1, 4}, I8, 16.0f / 256, 127);
  ASSERT_EQ(RunKernel(Register_LOG_SOFTMAX(), {&q.view}, {&qo.view}).status, StatusCode::kOk);
  for (int8_t v : qo.data) EXPECT_NEAR(v, 127 - std::log(4.0) * 16, 1.0);
}

// --- LOGICAL_AND / LOGICAL_OR --------------------------------------------------------------------

TEST(LogicalTest, AndOrBroadcastBothWays) {
  Tensor<uint8_t> col({1, 0}, {2, 1}, BOOL);
  Tensor<uint8_t> row({1, 0, 1}, {3}, BOOL);
  Tensor<uint8_t> out(std::vector<uint8_t>(6), {2, 3}, BOOL);
  ASSERT_EQ(RunKernel(Register_LOGICAL_AND(), {&col.view, &row.view}, {&out.view}).status, StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<uint8_t>{1, 0, 1, 0, 0, 0}));
  ASSERT_EQ(RunKernel(Register_LOGICAL_OR(), {&row.view, &col.view}, {&out.view}).status, StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<uint8_t>{1, 1, 1, 1, 0, 1}));
}

// --- REDUCE_MIN / REDUCE_ALL ---------------------------------------------------------------------

std::unique_ptr<testing::OpHolder> ReducerOp(bool keep_dims) {
  return MakeOp(tfl::BuiltinOptions::ReducerOptions,
                [=](flatbuffers::FlatBufferBuilder& b) { return tfl::CreateReducerOptions(b, keep_dims); });
}

TEST(ReduceMinTest, AxesKeepDimsAndInt8) {
  Tensor<float> in({3, -1, 2, 0, 5, -4}, {2, 3}, F32);
  Tensor<int32_t> last({-1}, {1}, I32);
  Tensor<float> rows(std::vector<float>(2), {2}, F32);
  auto flat = ReducerOp(false);
  ASSERT_EQ(RunKernel(Register_REDUCE_MIN(), {&in.view, &last.view}, {&rows.view}, flat->op).status, StatusCode::kOk);
  EXPECT_EQ(rows.data, (std::vector<float>{-1, -4}));
  Tensor<int32_t> first({0}, {1}, I32);
  Tensor<float> cols(std::vector<float>(3), {1, 3}, F32);
  auto keep = ReducerOp(true);
  ASSERT_EQ(RunKernel(Register_REDUCE_MIN(), {&in.view, &first.view}, {&cols.view}, keep->op).status, StatusCode::kOk);
  EXPECT_EQ(cols.data, (std::vector<float>{0, -1, -4}));
  Tensor<int32_t> both({0, 1}, {2}, I32);
  Tensor<float> all(std::vector<float>(1), {}, F32);
  ASSERT_EQ(RunKernel(Register_REDUCE_MIN(), {&in.view, &both.view}, {&all.view}, flat->op).status, StatusCode::kOk);
  EXPECT_EQ(all.data[0], -4);
  Tensor<int8_t> q({7, -3, 9, 2}, {2, 2}, I8, 0.5f, 1);
  Tensor<int8_t> qo(std::vector<int8_t>(2), {2}, I8, 0.5f, 1);
  ASSERT_EQ(RunKernel(Register_REDUCE_MIN(), {&q.view, &last.view}, {&qo.view}, flat->op).status, StatusCode::kOk);
  EXPECT_EQ(qo.data, (std::vector<int8_t>{-3, 2}));
}

TEST(ReduceAllTest, ColumnsAndEverything) {
  Tensor<uint8_t> in({1, 1, 0, 1}, {2, 2}, BOOL);
  Tensor<int32_t> first({0}, {1}, I32);
  Tensor<uint8_t> cols(std::vector<uint8_t>(2), {2}, BOOL);
  auto flat = ReducerOp(false);
  ASSERT_EQ(RunKernel(Register_REDUCE_ALL(), {&in.view, &first.view}, {&cols.view}, flat->op).status, StatusCode::kOk);
  EXPECT_EQ(cols.data, (std::vector<uint8_t>{0, 1}));
  Tensor<int32_t> both({1, 0}, {2}, I32);
  Tensor<uint8_t> all(std::vector<uint8_t>(1, 7), {1, 1}, BOOL);
  auto keep = ReducerOp(true);
  ASSERT_EQ(RunKernel(Register_REDUCE_ALL(), {&in.view, &both.view}, {&all.view}, keep->op).status, StatusCode::kOk);
  EXPECT_EQ(all.data[0], 0);
}

// --- RESIZE_BILINEAR -----------------------------------------------------------------------------

TEST(ResizeBilinearTest, EveryCoordinateMapping) {
  // One row [0, 4] to width 4. scale = 2 / 4: x = 0, 0.5, 1, 1.5 (clamped) -> 0, 2, 4, 4;
  // half-pixel centres: x = -0.25, 0.25, 0.75, 1.25 -> 0, 1, 3, 4; align_corners: scale 1/3.
  Tensor<float> in({0, 4}, {1, 1, 2, 1}, F32);
  Tensor<int32_t> size({1, 4}, {2}, I32);
  Tensor<float> out(std::vector<float>(4), {1, 1, 4, 1}, F32);
  const struct {
    bool align_corners, half_pixel;
    std::vector<float> want;
  } cases[] = {
      {false, false, {0, 2, 4, 4}},
      {false, true, {0, 1, 3, 4}},
      {true, false, {0, 4.0f / 3, 8.0f / 3, 4}},
  };
  for (const auto& c : cases) {
    auto op = MakeOp(tfl::BuiltinOptions::ResizeBilinearOptions, [&](flatbuffers::FlatBufferBuilder& b) {
      return tfl::CreateResizeBilinearOptions(b, 0, 0, c.align_corners,
                                              c.half_pixel);  // new_height, new_width: deprecated
    });
    ASSERT_EQ(RunKernel(Register_RESIZE_BILINEAR(), {&in.view, &size.view}, {&out.view}, op->op).status,
              StatusCode::kOk);
    for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(out.data[i], c.want[i], 1e-6) << c.align_corners << c.half_pixel << i;
  }
}

TEST(ResizeBilinearTest, SizeMustMatchTheOutput) {
  Tensor<float> in({0, 4}, {1, 1, 2, 1}, F32);
  Tensor<int32_t> size({1, 3}, {2}, I32);
  Tensor<float> out(std::vector<float>(4), {1, 1, 4, 1}, F32);
  EXPECT_NE(RunKernel(Register_RESIZE_BILINEAR(), {&in.view, &size.view}, {&out.view}).status, StatusCode::kOk);
}

}  // namespace
}  // namespace arenaplan::rt
