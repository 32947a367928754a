// STRIDED_SLICE kernel tests: cases from TFLM's strided_slice_test.cc (facts: inputs, masks and
// expected outputs) plus the offset option and rejected shapes.
#include <flatbuffers/flatbuffers.h>
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "runtime/kernels/registrations.h"
#include "runtime/standalone_context.h"

namespace arenaplan::rt {
namespace {

struct OpHolder {
  flatbuffers::FlatBufferBuilder fbb;
  const tfl::Operator* op = nullptr;
};

std::unique_ptr<OpHolder> SliceOp(int begin_mask, int end_mask, int shrink_mask, bool offset = false) {
  auto h = std::make_unique<OpHolder>();
  auto o = tfl::CreateStridedSliceOptions(h->fbb, begin_mask, end_mask, 0, 0, shrink_mask, offset);
  h->fbb.Finish(tfl::CreateOperator(h->fbb, 0, 0, 0, tfl::BuiltinOptions::StridedSliceOptions, o.Union()));
  h->op = flatbuffers::GetRoot<tfl::Operator>(h->fbb.GetBufferPointer());
  return h;
}

// Runs a slice over float data; returns the status and fills *out.
template <typename T>
StatusCode RunSlice(TensorType type, std::vector<T> input, std::vector<int32_t> in_dims, std::vector<int32_t> begin,
                    std::vector<int32_t> end, std::vector<int32_t> strides, std::vector<int32_t> out_dims,
                    const tfl::Operator* op, std::vector<T>* out) {
  int32_t n = static_cast<int32_t>(begin.size());
  uint32_t count = 1;
  for (int32_t d : out_dims) count *= static_cast<uint32_t>(d);
  out->assign(count, T{});
  TensorView vi = MakeView(input.data(), type, in_dims.data(), static_cast<int32_t>(in_dims.size()));
  TensorView vb = MakeView(begin.data(), TensorType::INT32, &n, 1);
  TensorView ve = MakeView(end.data(), TensorType::INT32, &n, 1);
  TensorView vs = MakeView(strides.data(), TensorType::INT32, &n, 1);
  TensorView vo = MakeView(out->data(), type, out_dims.data(), static_cast<int32_t>(out_dims.size()));
  TensorView* ins[] = {&vi, &vb, &ve, &vs};
  TensorView* outs[] = {&vo};
  uint8_t mem[512];
  StandaloneContext ctx(ins, 4, outs, 1, op, mem, sizeof(mem));
  return ctx.Run(*Register_STRIDED_SLICE());
}

TEST(StridedSliceTest, In1D) {
  std::vector<float> out;
  auto op = SliceOp(0, 0, 0);
  ASSERT_EQ(RunSlice<float>(TensorType::FLOAT32, {1, 2, 3, 4}, {4}, {1}, {3}, {1}, {2}, op->op, &out), StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<float>{2, 3}));
}

TEST(StridedSliceTest, NegativeBeginAndEnd) {
  std::vector<float> out;
  auto op = SliceOp(0, 0, 0);
  ASSERT_EQ(RunSlice<float>(TensorType::FLOAT32, {1, 2, 3, 4}, {4}, {-3}, {-1}, {1}, {2}, op->op, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<float>{2, 3}));
}

TEST(StridedSliceTest, OutOfRangeIndicesClamp) {
  std::vector<float> out;
  auto op = SliceOp(0, 0, 0);
  ASSERT_EQ(RunSlice<float>(TensorType::FLOAT32, {1, 2, 3, 4}, {4}, {-5}, {5}, {1}, {4}, op->op, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<float>{1, 2, 3, 4}));
}

TEST(StridedSliceTest, NegativeStride) {
  std::vector<float> out;
  auto op = SliceOp(0, 0, 0);
  ASSERT_EQ(RunSlice<float>(TensorType::FLOAT32, {1, 2, 3, 4}, {4}, {-1}, {-4}, {-1}, {3}, op->op, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<float>{4, 3, 2}));
}

TEST(StridedSliceTest, Stride2WithBeginAndEndMask) {
  std::vector<int8_t> out;
  auto op = SliceOp(1, 1, 0);
  ASSERT_EQ(RunSlice<int8_t>(TensorType::INT8, {1, 2, 3, 4, 5}, {5}, {3}, {1}, {2}, {3}, op->op, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<int8_t>{1, 3, 5}));
}

TEST(StridedSliceTest, In2DShrinkAxis) {
  // [[1,2,3],[4,5,6]], begin {1,0}, end {2,3}, shrink axis 0 -> [4,5,6] with dims [3].
  std::vector<int16_t> out;
  auto op = SliceOp(0, 0, 1);
  ASSERT_EQ(RunSlice<int16_t>(TensorType::INT16, {1, 2, 3, 4, 5, 6}, {2, 3}, {1, 0}, {2, 3}, {1, 1}, {3}, op->op, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<int16_t>{4, 5, 6}));
}

TEST(StridedSliceTest, ShrinkNegativeIndexIgnoresEnd) {
  // TFLM: with shrink, end is begin + 1 even when `end` is bogus (issue #19260).
  std::vector<int32_t> out;
  auto op = SliceOp(0, 0, 1);
  ASSERT_EQ(RunSlice<int32_t>(TensorType::INT32, {1, 2, 3, 4}, {4}, {-1}, {0}, {1}, {}, op->op, &out), StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<int32_t>{4}));
}

TEST(StridedSliceTest, In3DStrided) {
  // 2x3x2 input 1..12, begin {0,0,0}, end {2,3,2}, strides {2,2,2} -> elements (0,0,0)=1, (0,2,0)=5.
  std::vector<float> in(12);
  for (int i = 0; i < 12; ++i) in[i] = static_cast<float>(i + 1);
  std::vector<float> out;
  auto op = SliceOp(0, 0, 0);
  ASSERT_EQ(
      RunSlice<float>(TensorType::FLOAT32, in, {2, 3, 2}, {0, 0, 0}, {2, 3, 2}, {2, 2, 2}, {1, 2, 1}, op->op, &out),
      StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<float>{1, 5}));
}

TEST(StridedSliceTest, OffsetMakesEndRelative) {
  std::vector<float> out;
  auto op = SliceOp(0, 0, 0, /*offset=*/true);
  ASSERT_EQ(RunSlice<float>(TensorType::FLOAT32, {1, 2, 3, 4, 5}, {5}, {1}, {3}, {1}, {3}, op->op, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<float>{2, 3, 4}));
}

TEST(StridedSliceTest, WrongOutputShapeIsRejected) {
  std::vector<float> out;
  auto op = SliceOp(0, 0, 0);
  EXPECT_EQ(RunSlice<float>(TensorType::FLOAT32, {1, 2, 3, 4}, {4}, {1}, {3}, {1}, {3}, op->op, &out),
            StatusCode::kInvalidModel);
}

TEST(StridedSliceTest, ZeroStrideIsRejected) {
  std::vector<float> out;
  auto op = SliceOp(0, 0, 0);
  EXPECT_EQ(RunSlice<float>(TensorType::FLOAT32, {1, 2, 3, 4}, {4}, {1}, {3}, {0}, {2}, op->op, &out),
            StatusCode::kInvalidModel);
}

}  // namespace
}  // namespace arenaplan::rt
