// TRANSPOSE, CONCATENATION, RESIZE_NEAREST_NEIGHBOR, PACK/UNPACK, SPLIT/SPLIT_V, GATHER/GATHER_ND,
// EXPAND_DIMS and SHAPE kernel tests: expected layouts written out by hand; the nearest-neighbour
// index rule (floor of (x + 0.5 * half_pixel) * in/out) is TFLM's.
#include <flatbuffers/flatbuffers.h>
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "kernel_a_testutil.h"
#include "runtime/kernels/registrations.h"
#include "tensor_testutil.h"

namespace arenaplan::rt {
namespace {

using testing::MakeOp;
using testing::OpHolder;
using testing::Tensor;

// These kernels run in a 1 KiB arena.
StatusCode RunKernel(const KernelRegistration& k, std::vector<TensorView*> ins, std::vector<TensorView*> outs,
                     const tfl::Operator* op) {
  return testing::KernelStatus(k, std::move(ins), std::move(outs), op, 1024);
}

TEST(TransposeTest, Perm10And3D) {
  Tensor<float> in({1, 2, 3, 4, 5, 6}, {2, 3}, TensorType::FLOAT32);
  Tensor<int32_t> perm({1, 0}, {2}, TensorType::INT32);
  Tensor<float> out(std::vector<float>(6), {3, 2}, TensorType::FLOAT32);
  ASSERT_EQ(RunKernel(*Register_TRANSPOSE(), {&in.view, &perm.view}, {&out.view}, nullptr), StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{1, 4, 2, 5, 3, 6}));
  // 2x2x2 with perm {2, 0, 1}: out[k][i][j] = in[i][j][k].
  Tensor<int8_t> in3({0, 1, 2, 3, 4, 5, 6, 7}, {2, 2, 2}, TensorType::INT8);
  Tensor<int32_t> perm3({2, 0, 1}, {3}, TensorType::INT32);
  Tensor<int8_t> out3(std::vector<int8_t>(8), {2, 2, 2}, TensorType::INT8);
  ASSERT_EQ(RunKernel(*Register_TRANSPOSE(), {&in3.view, &perm3.view}, {&out3.view}, nullptr), StatusCode::kOk);
  EXPECT_EQ(out3.data, (std::vector<int8_t>{0, 2, 4, 6, 1, 3, 5, 7}));
}

TEST(TransposeTest, BadPermIsRejected) {
  Tensor<float> in({1, 2, 3, 4}, {2, 2}, TensorType::FLOAT32);
  Tensor<int32_t> perm({0, 0}, {2}, TensorType::INT32);
  Tensor<float> out(std::vector<float>(4), {2, 2}, TensorType::FLOAT32);
  EXPECT_EQ(RunKernel(*Register_TRANSPOSE(), {&in.view, &perm.view}, {&out.view}, nullptr), StatusCode::kInvalidModel);
}

TEST(ConcatenationTest, Axis1AndNoRequantization) {
  auto op = MakeOp(tfl::BuiltinOptions::ConcatenationOptions,
                   [](flatbuffers::FlatBufferBuilder& b) { return tfl::CreateConcatenationOptions(b, -1); });
  Tensor<int8_t> a({1, 2}, {2, 1}, TensorType::INT8);
  Tensor<int8_t> b({3, 4, 5, 6}, {2, 2}, TensorType::INT8);
  a.view.scale = 0.5f;  // different scales: TFLM copies the bytes anyway
  b.view.scale = 0.25f;
  Tensor<int8_t> out(std::vector<int8_t>(6), {2, 3}, TensorType::INT8);
  out.view.scale = 1.0f;
  ASSERT_EQ(RunKernel(*Register_CONCATENATION(), {&a.view, &b.view}, {&out.view}, op->op), StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<int8_t>{1, 3, 4, 2, 5, 6}));
}

TEST(ConcatenationTest, FusedActivationAndBadShapesAreRejected) {
  auto relu = MakeOp(tfl::BuiltinOptions::ConcatenationOptions, [](flatbuffers::FlatBufferBuilder& b) {
    return tfl::CreateConcatenationOptions(b, 0, tfl::ActivationFunctionType::RELU);
  });
  Tensor<float> a({1}, {1}, TensorType::FLOAT32);
  Tensor<float> out(std::vector<float>(2), {2}, TensorType::FLOAT32);
  EXPECT_EQ(RunKernel(*Register_CONCATENATION(), {&a.view, &a.view}, {&out.view}, relu->op), StatusCode::kUnsupported);
  Tensor<float> out3(std::vector<float>(3), {3}, TensorType::FLOAT32);
  EXPECT_EQ(RunKernel(*Register_CONCATENATION(), {&a.view, &a.view}, {&out3.view}, nullptr), StatusCode::kInvalidModel);
}

std::unique_ptr<OpHolder> ResizeOp(bool align, bool half) {
  return MakeOp(tfl::BuiltinOptions::ResizeNearestNeighborOptions, [&](flatbuffers::FlatBufferBuilder& b) {
    return tfl::CreateResizeNearestNeighborOptions(b, align, half);
  });
}

TEST(ResizeNearestNeighborTest, Upscale2xAndHalfPixel) {
  Tensor<float> in({1, 2, 3, 4}, {1, 2, 2, 1}, TensorType::FLOAT32);
  Tensor<int32_t> size({3, 3}, {2}, TensorType::INT32);
  Tensor<float> out(std::vector<float>(9), {1, 3, 3, 1}, TensorType::FLOAT32);
  // scale 2/3: rows/cols floor(0), floor(0.667), floor(1.333) = 0, 0, 1.
  auto plain = ResizeOp(false, false);
  ASSERT_EQ(RunKernel(*Register_RESIZE_NEAREST_NEIGHBOR(), {&in.view, &size.view}, {&out.view}, plain->op),
            StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{1, 1, 2, 1, 1, 2, 3, 3, 4}));
  // half pixel: floor(0.333), floor(1.0), floor(1.667) = 0, 1, 1.
  auto half = ResizeOp(false, true);
  ASSERT_EQ(RunKernel(*Register_RESIZE_NEAREST_NEIGHBOR(), {&in.view, &size.view}, {&out.view}, half->op),
            StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{1, 2, 2, 3, 4, 4, 3, 4, 4}));
  // align corners: scale 1/2, round(0), round(0.5), round(1) = 0, 1, 1.
  auto align = ResizeOp(true, false);
  ASSERT_EQ(RunKernel(*Register_RESIZE_NEAREST_NEIGHBOR(), {&in.view, &size.view}, {&out.view}, align->op),
            StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{1, 2, 2, 3, 4, 4, 3, 4, 4}));
}

TEST(ResizeNearestNeighborTest, SizeMustMatchOutput) {
  Tensor<int8_t> in({1, 2, 3, 4}, {1, 2, 2, 1}, TensorType::INT8);
  Tensor<int32_t> size({4, 4}, {2}, TensorType::INT32);
  Tensor<int8_t> out(std::vector<int8_t>(9), {1, 3, 3, 1}, TensorType::INT8);
  EXPECT_EQ(RunKernel(*Register_RESIZE_NEAREST_NEIGHBOR(), {&in.view, &size.view}, {&out.view}, nullptr),
            StatusCode::kInvalidModel);
}

TEST(PackTest, PackAxis1AndUnpackBack) {
  auto op = MakeOp(tfl::BuiltinOptions::PackOptions,
                   [](flatbuffers::FlatBufferBuilder& b) { return tfl::CreatePackOptions(b, 2, 1); });
  Tensor<int16_t> a({1, 2, 3}, {3}, TensorType::INT16);
  Tensor<int16_t> b({4, 5, 6}, {3}, TensorType::INT16);
  Tensor<int16_t> out(std::vector<int16_t>(6), {3, 2}, TensorType::INT16);
  ASSERT_EQ(RunKernel(*Register_PACK(), {&a.view, &b.view}, {&out.view}, op->op), StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<int16_t>{1, 4, 2, 5, 3, 6}));
  auto uop = MakeOp(tfl::BuiltinOptions::UnpackOptions,
                    [](flatbuffers::FlatBufferBuilder& bb) { return tfl::CreateUnpackOptions(bb, 2, 1); });
  Tensor<int16_t> u0(std::vector<int16_t>(3), {3}, TensorType::INT16);
  Tensor<int16_t> u1(std::vector<int16_t>(3), {3}, TensorType::INT16);
  ASSERT_EQ(RunKernel(*Register_UNPACK(), {&out.view}, {&u0.view, &u1.view}, uop->op), StatusCode::kOk);
  EXPECT_EQ(u0.data, a.data);
  EXPECT_EQ(u1.data, b.data);
}

TEST(SplitTest, SplitAndSplitV) {
  Tensor<int32_t> axis({1}, {}, TensorType::INT32);
  Tensor<float> in({1, 2, 3, 4, 5, 6, 7, 8}, {2, 4}, TensorType::FLOAT32);
  Tensor<float> o0(std::vector<float>(4), {2, 2}, TensorType::FLOAT32);
  Tensor<float> o1(std::vector<float>(4), {2, 2}, TensorType::FLOAT32);
  ASSERT_EQ(RunKernel(*Register_SPLIT(), {&axis.view, &in.view}, {&o0.view, &o1.view}, nullptr), StatusCode::kOk);
  EXPECT_EQ(o0.data, (std::vector<float>{1, 2, 5, 6}));
  EXPECT_EQ(o1.data, (std::vector<float>{3, 4, 7, 8}));
  Tensor<int32_t> sizes({1, 3}, {2}, TensorType::INT32);
  Tensor<float> v0(std::vector<float>(2), {2, 1}, TensorType::FLOAT32);
  Tensor<float> v1(std::vector<float>(6), {2, 3}, TensorType::FLOAT32);
  ASSERT_EQ(RunKernel(*Register_SPLIT_V(), {&in.view, &sizes.view, &axis.view}, {&v0.view, &v1.view}, nullptr),
            StatusCode::kOk);
  EXPECT_EQ(v0.data, (std::vector<float>{1, 5}));
  EXPECT_EQ(v1.data, (std::vector<float>{2, 3, 4, 6, 7, 8}));
  Tensor<float> bad(std::vector<float>(4), {2, 2}, TensorType::FLOAT32);
  EXPECT_EQ(RunKernel(*Register_SPLIT_V(), {&in.view, &sizes.view, &axis.view}, {&v0.view, &bad.view}, nullptr),
            StatusCode::kInvalidModel);
}

TEST(GatherTest, Axis0Axis1AndOutOfRange) {
  Tensor<float> params({1, 2, 3, 4, 5, 6}, {3, 2}, TensorType::FLOAT32);
  Tensor<int32_t> idx({2, 0}, {2}, TensorType::INT32);
  Tensor<float> out(std::vector<float>(4), {2, 2}, TensorType::FLOAT32);
  ASSERT_EQ(RunKernel(*Register_GATHER(), {&params.view, &idx.view}, {&out.view}, nullptr), StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{5, 6, 1, 2}));
  auto ax1 = MakeOp(tfl::BuiltinOptions::GatherOptions,
                    [](flatbuffers::FlatBufferBuilder& b) { return tfl::CreateGatherOptions(b, 1); });
  Tensor<int64_t> idx1({1, 1, 0}, {3}, TensorType::INT64);
  Tensor<float> out1(std::vector<float>(9), {3, 3}, TensorType::FLOAT32);
  ASSERT_EQ(RunKernel(*Register_GATHER(), {&params.view, &idx1.view}, {&out1.view}, ax1->op), StatusCode::kOk);
  EXPECT_EQ(out1.data, (std::vector<float>{2, 2, 1, 4, 4, 3, 6, 6, 5}));
  Tensor<int32_t> bad({3, 0}, {2}, TensorType::INT32);
  EXPECT_EQ(RunKernel(*Register_GATHER(), {&params.view, &bad.view}, {&out.view}, nullptr), StatusCode::kKernelError);
}

TEST(GatherNdTest, PicksElementsAndRows) {
  Tensor<int8_t> params({1, 2, 3, 4}, {2, 2}, TensorType::INT8);
  Tensor<int32_t> idx({1, 0, 0, 1}, {2, 2}, TensorType::INT32);
  Tensor<int8_t> out(std::vector<int8_t>(2), {2}, TensorType::INT8);
  ASSERT_EQ(RunKernel(*Register_GATHER_ND(), {&params.view, &idx.view}, {&out.view}, nullptr), StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<int8_t>{3, 2}));
  Tensor<int32_t> rows({1}, {1, 1}, TensorType::INT32);
  Tensor<int8_t> row(std::vector<int8_t>(2), {1, 2}, TensorType::INT8);
  ASSERT_EQ(RunKernel(*Register_GATHER_ND(), {&params.view, &rows.view}, {&row.view}, nullptr), StatusCode::kOk);
  EXPECT_EQ(row.data, (std::vector<int8_t>{3, 4}));
}

TEST(ShapeOpsTest, ExpandDimsSqueezeAndShape) {
  Tensor<float> in({1, 2, 3}, {3}, TensorType::FLOAT32);
  Tensor<int32_t> axis({0}, {1}, TensorType::INT32);
  Tensor<float> out(std::vector<float>(3), {1, 3}, TensorType::FLOAT32);
  ASSERT_EQ(RunKernel(*Register_EXPAND_DIMS(), {&in.view, &axis.view}, {&out.view}, nullptr), StatusCode::kOk);
  EXPECT_EQ(out.data, in.data);
  Tensor<float> sq(std::vector<float>(3), {3}, TensorType::FLOAT32);
  ASSERT_EQ(RunKernel(*Register_SQUEEZE(), {&out.view}, {&sq.view}, nullptr), StatusCode::kOk);
  EXPECT_EQ(sq.data, in.data);
  Tensor<int8_t> img(std::vector<int8_t>(24), {1, 2, 3, 4}, TensorType::INT8);
  Tensor<int32_t> shape(std::vector<int32_t>(4), {4}, TensorType::INT32);
  ASSERT_EQ(RunKernel(*Register_SHAPE(), {&img.view}, {&shape.view}, nullptr), StatusCode::kOk);
  EXPECT_EQ(shape.data, (std::vector<int32_t>{1, 2, 3, 4}));
}

}  // namespace
}  // namespace arenaplan::rt
