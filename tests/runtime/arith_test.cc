// SUB and MUL kernel tests (float, int8, int16, int32, broadcasting, fused activations), with
// expectations computed by hand from the real values and TFLM's rounding (half away from zero).
#include <flatbuffers/flatbuffers.h>
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "kernel_a_testutil.h"
#include "runtime/kernels/registrations.h"
#include "tensor_testutil.h"

namespace arenaplan::rt {
namespace {

using A = tfl::ActivationFunctionType;

using testing::KernelStatus;
using testing::MakeOp;
using testing::OpHolder;

std::unique_ptr<OpHolder> SubOp(A act) {
  return MakeOp(tfl::BuiltinOptions::SubOptions,
                [&](flatbuffers::FlatBufferBuilder& fbb) { return tfl::CreateSubOptions(fbb, act); });
}

std::unique_ptr<OpHolder> MulOp(A act) {
  return MakeOp(tfl::BuiltinOptions::MulOptions,
                [&](flatbuffers::FlatBufferBuilder& fbb) { return tfl::CreateMulOptions(fbb, act); });
}

struct Q {
  float scale = 0;
  int32_t zp = 0;
};

template <typename T>
StatusCode RunBinary(const KernelRegistration& k, TensorType type, std::vector<T> a, std::vector<int32_t> da, Q qa,
                     std::vector<T> b, std::vector<int32_t> db, Q qb, std::vector<int32_t> dout, Q qo,
                     const tfl::Operator* op, std::vector<T>* out) {
  uint32_t n = 1;
  for (int32_t d : dout) n *= static_cast<uint32_t>(d);
  out->assign(n, T{});
  TensorView va = MakeView(a.data(), type, da.data(), static_cast<int32_t>(da.size()), qa.scale, qa.zp);
  TensorView vb = MakeView(b.data(), type, db.data(), static_cast<int32_t>(db.size()), qb.scale, qb.zp);
  TensorView vo = MakeView(out->data(), type, dout.data(), static_cast<int32_t>(dout.size()), qo.scale, qo.zp);
  return KernelStatus(k, {&va, &vb}, {&vo}, op, 512);
}

TEST(SubTest, FloatBroadcastWithRelu) {
  std::vector<float> out;
  auto none = SubOp(A::NONE);
  ASSERT_EQ(RunBinary<float>(*Register_SUB(), TensorType::FLOAT32, {1, 2, 3, 4}, {2, 2}, {}, {1, 10}, {2}, {}, {2, 2},
                             {}, none->op, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<float>{0, -8, 2, -6}));
  auto relu = SubOp(A::RELU);
  ASSERT_EQ(RunBinary<float>(*Register_SUB(), TensorType::FLOAT32, {1, 2, 3, 4}, {2, 2}, {}, {1, 10}, {2}, {}, {2, 2},
                             {}, relu->op, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<float>{0, 0, 2, 0}));
}

TEST(SubTest, Int8RescalesAndRoundsHalfAway) {
  // a, b scale 0.5; out scale 1: (10, 4) -> 3; (3, 0) -> 1.5 -> 2; (0, 3) -> -1.5 -> -2.
  std::vector<int8_t> out;
  auto op = SubOp(A::NONE);
  ASSERT_EQ(RunBinary<int8_t>(*Register_SUB(), TensorType::INT8, {10, 3, 0}, {3}, {0.5f, 0}, {4, 0, 3}, {3}, {0.5f, 0},
                              {3}, {1.0f, 0}, op->op, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<int8_t>{3, 2, -2}));
}

TEST(SubTest, Int8ZeroPointsAndClamp) {
  // a (0.5, zp 10): 30 -> 10.0; b (0.25, zp -4) broadcast scalar: 0 -> 1.0; out (0.1, zp -100):
  // 9.0 -> 90 - 100 = -10; a 127 -> 58.5 - 1 = 57.5 -> 575 - 100 -> clamps at 127.
  std::vector<int8_t> out;
  auto op = SubOp(A::NONE);
  ASSERT_EQ(RunBinary<int8_t>(*Register_SUB(), TensorType::INT8, {30, 127}, {2}, {0.5f, 10}, {0}, {1}, {0.25f, -4}, {2},
                              {0.1f, -100}, op->op, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<int8_t>{-10, 127}));
}

TEST(SubTest, Int16) {
  std::vector<int16_t> out;
  auto op = SubOp(A::NONE);
  ASSERT_EQ(RunBinary<int16_t>(*Register_SUB(), TensorType::INT16, {1000, -32768}, {2}, {1.0f, 0}, {-2000, 32767}, {2},
                               {1.0f, 0}, {2}, {1.0f, 0}, op->op, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<int16_t>{3000, -32768}));
}

TEST(SubTest, IncompatibleShapesAreRejected) {
  std::vector<float> out;
  EXPECT_EQ(RunBinary<float>(*Register_SUB(), TensorType::FLOAT32, {1, 2, 3}, {3}, {}, {1, 2}, {2}, {}, {3}, {},
                             nullptr, &out),
            StatusCode::kInvalidModel);
}

TEST(MulTest, Int8WithZeroPoints) {
  // a (0.5, zp 1): 5 -> 2.0; b (0.25, 0): 12 -> 3.0; out (0.125, zp -3): 6.0 -> 48 - 3 = 45.
  std::vector<int8_t> out;
  auto op = MulOp(A::NONE);
  ASSERT_EQ(RunBinary<int8_t>(*Register_MUL(), TensorType::INT8, {5}, {1}, {0.5f, 1}, {12}, {1}, {0.25f, 0}, {1},
                              {0.125f, -3}, op->op, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<int8_t>{45}));
}

TEST(MulTest, Int16NeedsZeroPointZero) {
  std::vector<int16_t> out;
  auto op = MulOp(A::NONE);
  ASSERT_EQ(RunBinary<int16_t>(*Register_MUL(), TensorType::INT16, {300, -300}, {2}, {0.5f, 0}, {4}, {1}, {0.5f, 0},
                               {2}, {0.25f, 0}, op->op, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<int16_t>{1200, -1200}));
  EXPECT_EQ(RunBinary<int16_t>(*Register_MUL(), TensorType::INT16, {1}, {1}, {0.5f, 1}, {1}, {1}, {0.5f, 0}, {1},
                               {0.25f, 0}, op->op, &out),
            StatusCode::kInvalidModel);
}

TEST(MulTest, Int32AndFloatBroadcastRelu6) {
  std::vector<int32_t> iout;
  auto none = MulOp(A::NONE);
  ASSERT_EQ(RunBinary<int32_t>(*Register_MUL(), TensorType::INT32, {3, -5}, {2, 1}, {}, {-4, 2}, {1, 2}, {}, {2, 2}, {},
                               none->op, &iout),
            StatusCode::kOk);
  EXPECT_EQ(iout, (std::vector<int32_t>{-12, 6, 20, -10}));
  std::vector<float> fout;
  auto relu6 = MulOp(A::RELU6);
  ASSERT_EQ(RunBinary<float>(*Register_MUL(), TensorType::FLOAT32, {1.5f, -2.0f, 4.0f}, {3}, {}, {2.0f}, {1}, {}, {3},
                             {}, relu6->op, &fout),
            StatusCode::kOk);
  EXPECT_EQ(fout, (std::vector<float>{3.0f, 0.0f, 6.0f}));
}

}  // namespace
}  // namespace arenaplan::rt
