// SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND, PRELU, REVERSE_V2, FILL and ZEROS_LIKE kernel tests with
// layouts and values written out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "runtime/kernels/registrations.h"
#include "tensor_testutil.h"

namespace arenaplan::rt {
namespace {

using testing::KernelStatus;
using testing::Tensor;

TEST(SpaceBatchTest, SpaceToBatchAndBack) {
  std::vector<float> img(16);
  for (int i = 0; i < 16; ++i) img[i] = static_cast<float>(i + 1);
  Tensor<float> in(img, {1, 4, 4, 1}, TensorType::FLOAT32);
  Tensor<int32_t> block({2, 2}, {2}, TensorType::INT32);
  Tensor<int32_t> pads({0, 0, 0, 0}, {2, 2}, TensorType::INT32);
  Tensor<float> out(std::vector<float>(16), {4, 2, 2, 1}, TensorType::FLOAT32);
  ASSERT_EQ(KernelStatus(*Register_SPACE_TO_BATCH_ND(), {&in.view, &block.view, &pads.view}, {&out.view}),
            StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{1, 3, 9, 11, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16}));
  Tensor<float> back(std::vector<float>(16), {1, 4, 4, 1}, TensorType::FLOAT32);
  ASSERT_EQ(KernelStatus(*Register_BATCH_TO_SPACE_ND(), {&out.view, &block.view, &pads.view}, {&back.view}),
            StatusCode::kOk);
  EXPECT_EQ(back.data, img);
}

TEST(SpaceBatchTest, PaddingUsesZeroPointAndCropsDrop) {
  // 1x1x2x1 int8 (zp 3), block {1, 2}, pad W by (1, 1): padded row [3, 5, 6, 3] -> batches
  // take columns {0, 2} and {1, 3}.
  Tensor<int8_t> in({5, 6}, {1, 1, 2, 1}, TensorType::INT8, 0.5f, 3);
  Tensor<int32_t> block({1, 2}, {2}, TensorType::INT32);
  Tensor<int32_t> pads({0, 0, 1, 1}, {2, 2}, TensorType::INT32);
  Tensor<int8_t> out(std::vector<int8_t>(4), {2, 1, 2, 1}, TensorType::INT8, 0.5f, 3);
  ASSERT_EQ(KernelStatus(*Register_SPACE_TO_BATCH_ND(), {&in.view, &block.view, &pads.view}, {&out.view}),
            StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<int8_t>{3, 6, 5, 3}));
  Tensor<int8_t> back(std::vector<int8_t>(2), {1, 1, 2, 1}, TensorType::INT8, 0.5f, 3);
  ASSERT_EQ(KernelStatus(*Register_BATCH_TO_SPACE_ND(), {&out.view, &block.view, &pads.view}, {&back.view}),
            StatusCode::kOk);
  EXPECT_EQ(back.data, (std::vector<int8_t>{5, 6}));
  Tensor<int8_t> bad(std::vector<int8_t>(4), {1, 1, 4, 1}, TensorType::INT8, 0.5f, 3);
  EXPECT_EQ(KernelStatus(*Register_SPACE_TO_BATCH_ND(), {&in.view, &block.view, &pads.view}, {&bad.view}),
            StatusCode::kInvalidModel);
}

TEST(PreluTest, FloatAndInt8) {
  Tensor<float> x({2, -2, -4, 3}, {2, 2}, TensorType::FLOAT32);
  Tensor<float> a({0.5f, 0.25f}, {2}, TensorType::FLOAT32);
  Tensor<float> y(std::vector<float>(4), {2, 2}, TensorType::FLOAT32);
  ASSERT_EQ(KernelStatus(*Register_PRELU(), {&x.view, &a.view}, {&y.view}), StatusCode::kOk);
  EXPECT_EQ(y.data, (std::vector<float>{2, -0.5f, -2, 3}));
  // in/out scale 0.5, alpha scale 0.25 (q 1 = 0.25): 10 -> 10, -8 -> -2, -6 -> -1.5 -> -2.
  Tensor<int8_t> qx({10, -8, -6}, {3}, TensorType::INT8, 0.5f, 0);
  Tensor<int8_t> qa({1}, {1}, TensorType::INT8, 0.25f, 0);
  Tensor<int8_t> qy(std::vector<int8_t>(3), {3}, TensorType::INT8, 0.5f, 0);
  ASSERT_EQ(KernelStatus(*Register_PRELU(), {&qx.view, &qa.view}, {&qy.view}), StatusCode::kOk);
  EXPECT_EQ(qy.data, (std::vector<int8_t>{10, -2, -2}));
}

TEST(ReverseTest, OneAndTwoAxes) {
  Tensor<int16_t> in({1, 2, 3, 4, 5, 6}, {2, 3}, TensorType::INT16);
  Tensor<int32_t> ax1({1}, {1}, TensorType::INT32);
  Tensor<int16_t> out(std::vector<int16_t>(6), {2, 3}, TensorType::INT16);
  ASSERT_EQ(KernelStatus(*Register_REVERSE_V2(), {&in.view, &ax1.view}, {&out.view}), StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<int16_t>{3, 2, 1, 6, 5, 4}));
  Tensor<int32_t> both({0, -1}, {2}, TensorType::INT32);
  ASSERT_EQ(KernelStatus(*Register_REVERSE_V2(), {&in.view, &both.view}, {&out.view}), StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<int16_t>{6, 5, 4, 3, 2, 1}));
}

TEST(FillTest, FillAndZerosLike) {
  Tensor<int32_t> dims({2, 2}, {2}, TensorType::INT32);
  Tensor<float> value({1.5f}, {}, TensorType::FLOAT32);
  Tensor<float> out(std::vector<float>(4), {2, 2}, TensorType::FLOAT32);
  ASSERT_EQ(KernelStatus(*Register_FILL(), {&dims.view, &value.view}, {&out.view}), StatusCode::kOk);
  EXPECT_EQ(out.data, (std::vector<float>{1.5f, 1.5f, 1.5f, 1.5f}));
  Tensor<float> z(std::vector<float>(4, 7.0f), {2, 2}, TensorType::FLOAT32);
  ASSERT_EQ(KernelStatus(*Register_ZEROS_LIKE(), {&out.view}, {&z.view}), StatusCode::kOk);
  EXPECT_EQ(z.data, (std::vector<float>{0, 0, 0, 0}));
  Tensor<int32_t> wrong({3, 2}, {2}, TensorType::INT32);
  EXPECT_EQ(KernelStatus(*Register_FILL(), {&wrong.view, &value.view}, {&out.view}), StatusCode::kInvalidModel);
}

}  // namespace
}  // namespace arenaplan::rt
