// BROADCAST_ARGS, BROADCAST_TO, SLICE, DYNAMIC_UPDATE_SLICE, MIRROR_PAD, DEPTH_TO_SPACE,
// SPACE_TO_DEPTH, EMBEDDING_LOOKUP, SELECT_V2 and CUMSUM kernel tests: every expected tensor is
// written out by hand from the op's definition (TFLM's reference kernels), including the edge
// cases: empty tensors, broadcasting each way, ranks 1 to 5, int64 indices, clamping, and every
// option value.
#include <flatbuffers/flatbuffers.h>
#include <gtest/gtest.h>

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
constexpr TensorType I16 = TensorType::INT16;
constexpr TensorType I32 = TensorType::INT32;
constexpr TensorType I64 = TensorType::INT64;
constexpr TensorType BOOL = TensorType::BOOL;

// --- BROADCAST_ARGS / BROADCAST_TO -----------------------------------------------------------------

TEST(BroadcastArgsTest, RightAlignedOnesTakeTheOtherExtent) {
  Tensor<int32_t> a({2, 1, 3}, {3}, I32);
  Tensor<int32_t> b({4, 1}, {2}, I32);
  Tensor<int32_t> out(std::vector<int32_t>(3), {3}, I32);
  ASSERT_EQ(RunKernel(Register_BROADCAST_ARGS(), {&a.view, &b.view}, {&out.view}).status, StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<int32_t>{2, 4, 3}));
  // The shorter shape first, int64.
  Tensor<int64_t> c({5}, {1}, I64);
  Tensor<int64_t> d({1, 7, 1}, {3}, I64);
  Tensor<int64_t> out64(std::vector<int64_t>(3), {3}, I64);
  ASSERT_EQ(RunKernel(Register_BROADCAST_ARGS(), {&c.view, &d.view}, {&out64.view}).status, StatusCode::kOk);
  EXPECT_EQ(out64.data, (std::vector<int64_t>{1, 7, 5}));
}

TEST(BroadcastArgsTest, IncompatibleExtentsFail) {
  Tensor<int32_t> a({2, 3}, {2}, I32);
  Tensor<int32_t> b({4, 3}, {2}, I32);
  Tensor<int32_t> out(std::vector<int32_t>(2), {2}, I32);
  EXPECT_NE(RunKernel(Register_BROADCAST_ARGS(), {&a.view, &b.view}, {&out.view}).status, StatusCode::kOk);
}

TEST(BroadcastToTest, RowColumnAndRank5) {
  // [3] -> [2, 3]: the row repeats.
  Tensor<float> row({1, 2, 3}, {3}, F32);
  Tensor<int32_t> shape({2, 3}, {2}, I32);
  Tensor<float> out(std::vector<float>(6), {2, 3}, F32);
  ASSERT_EQ(RunKernel(Register_BROADCAST_TO(), {&row.view, &shape.view}, {&out.view}).status, StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{1, 2, 3, 1, 2, 3}));
  // [2, 1] -> [2, 3]: the column repeats.
  Tensor<int8_t> col({4, 5}, {2, 1}, I8);
  Tensor<int8_t> out2(std::vector<int8_t>(6), {2, 3}, I8);
  ASSERT_EQ(RunKernel(Register_BROADCAST_TO(), {&col.view, &shape.view}, {&out2.view}).status, StatusCode::kOk);
  EXPECT_EQ(out2.data, (std::vector<int8_t>{4, 4, 4, 5, 5, 5}));
  // [1, 2, 1, 1, 1] -> [1, 2, 1, 1, 2] with an int64 shape.
  Tensor<int32_t> five({7, 8}, {1, 2, 1, 1, 1}, I32);
  Tensor<int64_t> shape5({1, 2, 1, 1, 2}, {5}, I64);
  Tensor<int32_t> out5(std::vector<int32_t>(4), {1, 2, 1, 1, 2}, I32);
  ASSERT_EQ(RunKernel(Register_BROADCAST_TO(), {&five.view, &shape5.view}, {&out5.view}).status, StatusCode::kOk);
  EXPECT_EQ(out5.data, (std::vector<int32_t>{7, 7, 8, 8}));
}

TEST(BroadcastToTest, ShapeMustMatchTheOutput) {
  Tensor<float> row({1, 2, 3}, {3}, F32);
  Tensor<int32_t> shape({3, 3}, {2}, I32);
  Tensor<float> out(std::vector<float>(6), {2, 3}, F32);
  EXPECT_NE(RunKernel(Register_BROADCAST_TO(), {&row.view, &shape.view}, {&out.view}).status, StatusCode::kOk);
}

// --- SLICE ---------------------------------------------------------------------------------------

TEST(SliceTest, Rank1WithSizeMinusOneAndInt64) {
  Tensor<int32_t> in({10, 11, 12, 13, 14}, {5}, I32);
  Tensor<int32_t> begin({2}, {1}, I32);
  Tensor<int32_t> size({-1}, {1}, I32);  // to the end
  Tensor<int32_t> out(std::vector<int32_t>(3), {3}, I32);
  ASSERT_EQ(RunKernel(Register_SLICE(), {&in.view, &begin.view, &size.view}, {&out.view}).status, StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<int32_t>{12, 13, 14}));
  Tensor<int64_t> begin64({1}, {1}, I64);
  Tensor<int64_t> size64({2}, {1}, I64);
  Tensor<int32_t> out2(std::vector<int32_t>(2), {2}, I32);
  ASSERT_EQ(RunKernel(Register_SLICE(), {&in.view, &begin64.view, &size64.view}, {&out2.view}).status, StatusCode::kOk);
  EXPECT_EQ(out2.data, (std::vector<int32_t>{11, 12}));
}

TEST(SliceTest, Rank5BoolAndAnEmptySlice) {
  // [1, 2, 1, 2, 2]; take [:, 1:2, :, 0:2, 1:2] -> flat elements 5 and 7.
  Tensor<uint8_t> in({1, 0, 0, 1, 0, 1, 1, 0}, {1, 2, 1, 2, 2}, BOOL);
  Tensor<int32_t> begin({0, 1, 0, 0, 1}, {5}, I32);
  Tensor<int32_t> size({1, 1, 1, 2, 1}, {5}, I32);
  Tensor<uint8_t> out(std::vector<uint8_t>(2), {1, 1, 1, 2, 1}, BOOL);
  ASSERT_EQ(RunKernel(Register_SLICE(), {&in.view, &begin.view, &size.view}, {&out.view}).status, StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<uint8_t>{1, 0}));  // flat indices 5 and 7
  Tensor<int32_t> zero({0, 0, 0, 0, 0}, {5}, I32);
  Tensor<uint8_t> empty(std::vector<uint8_t>(1, 9), {0, 2, 1, 2, 2}, BOOL);
  Tensor<int32_t> size0({0, 2, 1, 2, 2}, {5}, I32);
  ASSERT_EQ(RunKernel(Register_SLICE(), {&in.view, &zero.view, &size0.view}, {&empty.view}).status, StatusCode::kOk);
  EXPECT_EQ(empty.data[0], 9);  // nothing written
}

TEST(SliceTest, AWindowOutsideTheInputFails) {
  Tensor<float> in({1, 2, 3}, {3}, F32);
  Tensor<int32_t> begin({2}, {1}, I32);
  Tensor<int32_t> size({2}, {1}, I32);
  Tensor<float> out(std::vector<float>(2), {2}, F32);
  EXPECT_NE(RunKernel(Register_SLICE(), {&in.view, &begin.view, &size.view}, {&out.view}).status, StatusCode::kOk);
}

// --- DYNAMIC_UPDATE_SLICE --------------------------------------------------------------------------

TEST(DynamicUpdateSliceTest, WritesAtTheStartAndClampsIt) {
  Tensor<float> operand({0, 1, 2, 3, 4, 5, 6, 7, 8}, {3, 3}, F32);
  Tensor<float> update({-1, -2}, {1, 2}, F32);
  Tensor<int32_t> start({1, 1}, {2}, I32);
  Tensor<float> out(std::vector<float>(9), {3, 3}, F32);
  ASSERT_EQ(RunKernel(Register_DYNAMIC_UPDATE_SLICE(), {&operand.view, &update.view, &start.view}, {&out.view}).status,
            StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{0, 1, 2, 3, -1, -2, 6, 7, 8}));
  // Start (5, -3), int64: clamped to row 2 (3 - 1) and column 0.
  Tensor<int64_t> far({5, -3}, {2}, I64);
  ASSERT_EQ(RunKernel(Register_DYNAMIC_UPDATE_SLICE(), {&operand.view, &update.view, &far.view}, {&out.view}).status,
            StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{0, 1, 2, 3, 4, 5, -1, -2, 8}));
}

TEST(DynamicUpdateSliceTest, AFullSizeUpdateReplacesTheOperandInt16) {
  Tensor<int16_t> operand({1, 2, 3, 4}, {2, 2}, I16);
  Tensor<int16_t> update({9, 8, 7, 6}, {2, 2}, I16);
  Tensor<int32_t> start({1, 1}, {2}, I32);  // clamped to (0, 0)
  Tensor<int16_t> out(std::vector<int16_t>(4), {2, 2}, I16);
  ASSERT_EQ(RunKernel(Register_DYNAMIC_UPDATE_SLICE(), {&operand.view, &update.view, &start.view}, {&out.view}).status,
            StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<int16_t>{9, 8, 7, 6}));
}

// --- MIRROR_PAD ----------------------------------------------------------------------------------

std::unique_ptr<testing::OpHolder> MirrorPadOp(int8_t mode) {
  return MakeOp(tfl::BuiltinOptions::MirrorPadOptions, [mode](flatbuffers::FlatBufferBuilder& b) {
    return tfl::CreateMirrorPadOptions(b, static_cast<tfl::MirrorPadMode>(mode));
  });
}

TEST(MirrorPadTest, ReflectSkipsTheEdgeSymmetricRepeatsIt) {
  Tensor<float> in({1, 2, 3}, {3}, F32);
  Tensor<int32_t> pads({2, 2}, {1, 2}, I32);
  Tensor<float> out(std::vector<float>(7), {7}, F32);
  auto reflect = MirrorPadOp(0);
  ASSERT_EQ(RunKernel(Register_MIRROR_PAD(), {&in.view, &pads.view}, {&out.view}, reflect->op).status, StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{3, 2, 1, 2, 3, 2, 1}));
  auto symmetric = MirrorPadOp(1);
  ASSERT_EQ(RunKernel(Register_MIRROR_PAD(), {&in.view, &pads.view}, {&out.view}, symmetric->op).status,
            StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{2, 1, 1, 2, 3, 3, 2}));
}

TEST(MirrorPadTest, TwoDimsInt8WithInt64Paddings) {
  // [[1, 2], [3, 4]] padded rows (1, 0), columns (0, 1), REFLECT.
  Tensor<int8_t> in({1, 2, 3, 4}, {2, 2}, I8);
  Tensor<int64_t> pads({1, 0, 0, 1}, {2, 2}, I64);
  Tensor<int8_t> out(std::vector<int8_t>(9), {3, 3}, I8);
  auto reflect = MirrorPadOp(0);
  ASSERT_EQ(RunKernel(Register_MIRROR_PAD(), {&in.view, &pads.view}, {&out.view}, reflect->op).status, StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<int8_t>{3, 4, 3, 1, 2, 1, 3, 4, 3}));
}

// --- DEPTH_TO_SPACE / SPACE_TO_DEPTH ---------------------------------------------------------------

TEST(DepthSpaceTest, BlockTwoBothWays) {
  // [1, 1, 1, 4] -> [1, 2, 2, 1]: the depth fills the 2x2 block row by row.
  Tensor<float> deep({1, 2, 3, 4}, {1, 1, 1, 4}, F32);
  Tensor<float> wide(std::vector<float>(4), {1, 2, 2, 1}, F32);
  auto d2s = MakeOp(tfl::BuiltinOptions::DepthToSpaceOptions,
                    [](flatbuffers::FlatBufferBuilder& b) { return tfl::CreateDepthToSpaceOptions(b, 2); });
  ASSERT_EQ(RunKernel(Register_DEPTH_TO_SPACE(), {&deep.view}, {&wide.view}, d2s->op).status, StatusCode::kOk);
  EXPECT_EQ(wide.data, (std::vector<float>{1, 2, 3, 4}));
  // [1, 2, 4, 1] (two 2x2 blocks side by side) -> [1, 1, 2, 4].
  Tensor<int8_t> img({1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 4, 1}, I8);
  Tensor<int8_t> packed(std::vector<int8_t>(8), {1, 1, 2, 4}, I8);
  auto s2d = MakeOp(tfl::BuiltinOptions::SpaceToDepthOptions,
                    [](flatbuffers::FlatBufferBuilder& b) { return tfl::CreateSpaceToDepthOptions(b, 2); });
  ASSERT_EQ(RunKernel(Register_SPACE_TO_DEPTH(), {&img.view}, {&packed.view}, s2d->op).status, StatusCode::kOk);
  EXPECT_EQ(packed.data, (std::vector<int8_t>{1, 2, 5, 6, 3, 4, 7, 8}));
}

// --- EMBEDDING_LOOKUP ----------------------------------------------------------------------------

TEST(EmbeddingLookupTest, RowsByIdAndDequantizedInt8) {
  Tensor<int32_t> ids({2, 0, 2}, {3}, I32);
  Tensor<float> table({0, 1, 10, 11, 20, 21}, {3, 2}, F32);
  Tensor<float> out(std::vector<float>(6), {3, 2}, F32);
  ASSERT_EQ(RunKernel(Register_EMBEDDING_LOOKUP(), {&ids.view, &table.view}, {&out.view}).status, StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{20, 21, 0, 1, 20, 21}));
  // int8 table (scale 0.5) into float32: dequantized.
  Tensor<int8_t> qtable({2, -4, 6, 8}, {2, 2}, I8, 0.5f, 0);
  Tensor<int32_t> one({1}, {1}, I32);
  Tensor<float> qout(std::vector<float>(2), {1, 2}, F32);
  ASSERT_EQ(RunKernel(Register_EMBEDDING_LOOKUP(), {&one.view, &qtable.view}, {&qout.view}).status, StatusCode::kOk);
  EXPECT_EQ(qout.data, (std::vector<float>{3, 4}));
}

TEST(EmbeddingLookupTest, AnIdOutOfRangeFails) {
  Tensor<int32_t> ids({3}, {1}, I32);
  Tensor<float> table({0, 1, 10, 11, 20, 21}, {3, 2}, F32);
  Tensor<float> out(std::vector<float>(2), {1, 2}, F32);
  EXPECT_NE(RunKernel(Register_EMBEDDING_LOOKUP(), {&ids.view, &table.view}, {&out.view}).status, StatusCode::kOk);
}

// --- SELECT_V2 -----------------------------------------------------------------------------------

TEST(SelectV2Test, BroadcastsEachOperand) {
  // condition [2, 1] against x [2, 3] and a scalar-like y [1].
  Tensor<uint8_t> cond({1, 0}, {2, 1}, BOOL);
  Tensor<float> x({1, 2, 3, 4, 5, 6}, {2, 3}, F32);
  Tensor<float> y({-1}, {1}, F32);
  Tensor<float> out(std::vector<float>(6), {2, 3}, F32);
  ASSERT_EQ(RunKernel(Register_SELECT_V2(), {&cond.view, &x.view, &y.view}, {&out.view}).status, StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{1, 2, 3, -1, -1, -1}));
  // condition [3] against x [2, 1] and y [2, 3], int16.
  Tensor<uint8_t> cond3({1, 0, 1}, {3}, BOOL);
  Tensor<int16_t> x2({7, 8}, {2, 1}, I16);
  Tensor<int16_t> y2({1, 2, 3, 4, 5, 6}, {2, 3}, I16);
  Tensor<int16_t> out2(std::vector<int16_t>(6), {2, 3}, I16);
  ASSERT_EQ(RunKernel(Register_SELECT_V2(), {&cond3.view, &x2.view, &y2.view}, {&out2.view}).status, StatusCode::kOk);
  EXPECT_EQ(out2.data, (std::vector<int16_t>{7, 2, 7, 8, 5, 8}));
}

TEST(SelectV2Test, EmptyOutputWritesNothing) {
  Tensor<uint8_t> cond({1}, {1}, BOOL);
  Tensor<int8_t> x(std::vector<int8_t>(1, 3), {0, 2}, I8);
  Tensor<int8_t> y(std::vector<int8_t>(1, 4), {0, 2}, I8);
  Tensor<int8_t> out(std::vector<int8_t>(1, 5), {0, 2}, I8);
  ASSERT_EQ(RunKernel(Register_SELECT_V2(), {&cond.view, &x.view, &y.view}, {&out.view}).status, StatusCode::kOk);
  EXPECT_EQ(out.data[0], 5);
}

// --- CUMSUM --------------------------------------------------------------------------------------

std::unique_ptr<testing::OpHolder> CumsumOp(bool exclusive, bool reverse) {
  return MakeOp(tfl::BuiltinOptions::CumsumOptions,
                [=](flatbuffers::FlatBufferBuilder& b) { return tfl::CreateCumsumOptions(b, exclusive, reverse); });
}

TEST(CumsumTest, EveryOptionAndANegativeAxis) {
  Tensor<float> in({1, 2, 3, 4, 5, 6}, {2, 3}, F32);
  Tensor<int32_t> axis({1}, {}, I32);
  Tensor<float> out(std::vector<float>(6), {2, 3}, F32);
  const struct {
    bool exclusive, reverse;
    std::vector<float> want;
  } cases[] = {
      {false, false, {1, 3, 6, 4, 9, 15}},
      {true, false, {0, 1, 3, 0, 4, 9}},
      {false, true, {6, 5, 3, 15, 11, 6}},
      {true, true, {5, 3, 0, 11, 6, 0}},
  };
  for (const auto& c : cases) {
    auto op = CumsumOp(c.exclusive, c.reverse);
    ASSERT_EQ(RunKernel(Register_CUMSUM(), {&in.view, &axis.view}, {&out.view}, op->op).status, StatusCode::kOk);
    EXPECT_EQ(out.data, c.want) << c.exclusive << c.reverse;
  }
  // axis -2 = 0: down the columns.
  Tensor<int32_t> neg({-2}, {}, I32);
  auto plain = CumsumOp(false, false);
  ASSERT_EQ(RunKernel(Register_CUMSUM(), {&in.view, &neg.view}, {&out.view}, plain->op).status, StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{1, 2, 3, 5, 7, 9}));
}

TEST(CumsumTest, Int8RescalesAndClamps) {
  // Equal scales (1), zero points 0: plain sums, clamped at 127.
  Tensor<int8_t> in({100, 20, 10}, {3}, I8, 1.0f, 0);
  Tensor<int32_t> axis({0}, {}, I32);
  Tensor<int8_t> out(std::vector<int8_t>(3), {3}, I8, 1.0f, 0);
  auto op = CumsumOp(false, false);
  ASSERT_EQ(RunKernel(Register_CUMSUM(), {&in.view, &axis.view}, {&out.view}, op->op).status, StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<int8_t>{100, 120, 127}));
}

}  // namespace
}  // namespace arenaplan::rt
