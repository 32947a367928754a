// TRANSPOSE_CONV kernel: TFLite's transpose_conv_test SimpleTest (float, SAME, stride 1) and
// hand-computed strided scatters for float, int8 (zero points) and int16x8 (int64 bias).
#include <gtest/gtest.h>

#include <vector>

#include "kernel_a_testutil.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::testing {
namespace {

using rt::MakeView;
using rt::StatusCode;
using rt::TensorType;
using rt::TensorView;

std::unique_ptr<OpHolder> TcOp(tfl::Padding padding, int stride) {
  return MakeOp(tfl::BuiltinOptions::TransposeConvOptions, [&](flatbuffers::FlatBufferBuilder& fbb) {
    return tfl::CreateTransposeConvOptions(fbb, padding, stride, stride);
  });
}

TEST(TransposeConvKernel, FloatSimpleTest) {
  float in[16], w[9], out[16] = {};
  for (int i = 0; i < 16; ++i) in[i] = static_cast<float>(i + 1);
  for (int i = 0; i < 9; ++i) w[i] = static_cast<float>(i + 1);
  int32_t shape[4] = {1, 4, 4, 1}, shape_dims[1] = {4}, w_dims[4] = {1, 3, 3, 1};
  TensorView vs = MakeView(shape, TensorType::INT32, shape_dims, 1);
  TensorView vw = MakeView(w, TensorType::FLOAT32, w_dims, 4), vi = MakeView(in, TensorType::FLOAT32, shape, 4);
  TensorView vo = MakeView(out, TensorType::FLOAT32, shape, 4);
  auto op = TcOp(tfl::Padding::SAME, 1);
  auto r = RunKernel(rt::Register_TRANSPOSE_CONV(), {&vs, &vw, &vi}, {&vo}, op->op);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  const float want[16] = {29, 62, 83, 75, 99, 192, 237, 198, 207, 372, 417, 330, 263, 446, 485, 365};
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], want[i]) << i;
}

TEST(TransposeConvKernel, FloatStride2Valid) {
  float in[2] = {1, 2}, w[3] = {1, 10, 100}, out[5] = {};
  int32_t shape[4] = {1, 1, 5, 1}, shape_dims[1] = {4}, in_dims[4] = {1, 1, 2, 1}, w_dims[4] = {1, 1, 3, 1};
  TensorView vs = MakeView(shape, TensorType::INT32, shape_dims, 1);
  TensorView vw = MakeView(w, TensorType::FLOAT32, w_dims, 4), vi = MakeView(in, TensorType::FLOAT32, in_dims, 4);
  TensorView vo = MakeView(out, TensorType::FLOAT32, shape, 4);
  auto op = TcOp(tfl::Padding::VALID, 2);
  auto r = RunKernel(rt::Register_TRANSPOSE_CONV(), {&vs, &vw, &vi, nullptr}, {&vo}, op->op);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  const float want[5] = {1, 10, 102, 20, 200};  // overlapping taps add up at x = 2
  for (int i = 0; i < 5; ++i) EXPECT_EQ(out[i], want[i]) << i;
}

TEST(TransposeConvKernel, Int8WithZeroPoints) {
  int8_t in[2] = {2, 3};  // zero point 1: real 1, 2
  int8_t w[3] = {1, 10, 100};
  int8_t out[5] = {};
  int32_t shape[4] = {1, 1, 5, 1}, shape_dims[1] = {4}, in_dims[4] = {1, 1, 2, 1}, w_dims[4] = {1, 1, 3, 1};
  TensorView vs = MakeView(shape, TensorType::INT32, shape_dims, 1);
  TensorView vw = MakeView(w, TensorType::INT8, w_dims, 4, 1.0f, 0);
  TensorView vi = MakeView(in, TensorType::INT8, in_dims, 4, 1.0f, 1);
  TensorView vo = MakeView(out, TensorType::INT8, shape, 4, 2.0f, -3);
  auto op = TcOp(tfl::Padding::VALID, 2);
  auto r = RunKernel(rt::Register_TRANSPOSE_CONV(), {&vs, &vw, &vi}, {&vo}, op->op);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  const int8_t want[5] = {1 - 3, 5 - 3, 51 - 3, 10 - 3, 100 - 3};  // halves: 0.5 -> 1, 51, ...
  for (int i = 0; i < 5; ++i) EXPECT_EQ(out[i], want[i]) << i;
}

TEST(TransposeConvKernel, Int16WithInt64Bias) {
  int16_t in[2] = {1, 2};
  int8_t w[3] = {1, 10, 100};
  int64_t b[1] = {5};
  int16_t out[5] = {};
  int32_t shape[4] = {1, 1, 5, 1}, shape_dims[1] = {4}, in_dims[4] = {1, 1, 2, 1}, w_dims[4] = {1, 1, 3, 1};
  int32_t b_dims[1] = {1};
  TensorView vs = MakeView(shape, TensorType::INT32, shape_dims, 1);
  TensorView vw = MakeView(w, TensorType::INT8, w_dims, 4, 1.0f, 0);
  TensorView vi = MakeView(in, TensorType::INT16, in_dims, 4, 1.0f, 0);
  TensorView vb = MakeView(b, TensorType::INT64, b_dims, 1);
  TensorView vo = MakeView(out, TensorType::INT16, shape, 4, 1.0f, 0);
  auto op = TcOp(tfl::Padding::VALID, 2);
  auto r = RunKernel(rt::Register_TRANSPOSE_CONV(), {&vs, &vw, &vi, &vb}, {&vo}, op->op);
  ASSERT_EQ(r.status, StatusCode::kOk) << r.error;
  const int16_t want[5] = {6, 15, 107, 25, 205};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(out[i], want[i]) << i;
  // The int64 accumulators live in scratch: 5 outputs x 8 bytes on top of op data.
  EXPECT_GE(r.memory_used, 40u);
}

// tflm_ops/seanet_transpose_conv_transpose_conv0: int16 [1,1,5,64] -> [1,3,12,64]. TFLM's golden plan
// has one scratch row of 18432 bytes: 2304 int64 accumulators.
TEST(TransposeConvKernel, Int16ScratchMatchesGoldenPlan) {
  std::vector<int16_t> in(5 * 64), out(3 * 12 * 64);
  std::vector<int8_t> w(64 * 1 * 1 * 64);
  std::vector<int64_t> b(64);
  int32_t shape[4] = {1, 3, 12, 64}, shape_dims[1] = {4}, in_dims[4] = {1, 1, 5, 64}, w_dims[4] = {64, 1, 1, 64};
  int32_t b_dims[1] = {64};
  TensorView vs = MakeView(shape, TensorType::INT32, shape_dims, 1);
  TensorView vw = MakeView(w.data(), TensorType::INT8, w_dims, 4, 0.01f, 0);
  TensorView vi = MakeView(in.data(), TensorType::INT16, in_dims, 4, 0.001f, 0);
  TensorView vb = MakeView(b.data(), TensorType::INT64, b_dims, 1);
  TensorView vo = MakeView(out.data(), TensorType::INT16, shape, 4, 0.001f, 0);
  auto op = TcOp(tfl::Padding::SAME, 2);
  StatusCode s = StatusCode::kOk;
  auto sizes = ScratchRequests(rt::Register_TRANSPOSE_CONV(), {&vs, &vw, &vi, &vb}, {&vo}, op->op, &s);
  ASSERT_EQ(s, StatusCode::kOk);
  EXPECT_EQ(sizes, (std::vector<uint32_t>{18432}));
}

TEST(TransposeConvKernel, RejectsBiasOfWrongLength) {
  float in[2] = {}, w[3] = {}, b[2] = {}, out[5] = {};
  int32_t shape[4] = {1, 1, 5, 1}, shape_dims[1] = {4}, in_dims[4] = {1, 1, 2, 1}, w_dims[4] = {1, 1, 3, 1};
  int32_t b_dims[1] = {2};
  TensorView vs = MakeView(shape, TensorType::INT32, shape_dims, 1);
  TensorView vw = MakeView(w, TensorType::FLOAT32, w_dims, 4), vi = MakeView(in, TensorType::FLOAT32, in_dims, 4);
  TensorView vb = MakeView(b, TensorType::FLOAT32, b_dims, 1), vo = MakeView(out, TensorType::FLOAT32, shape, 4);
  auto r = RunKernel(rt::Register_TRANSPOSE_CONV(), {&vs, &vw, &vi, &vb}, {&vo});
  EXPECT_EQ(r.status, StatusCode::kInvalidModel) << r.error;
}

TEST(TransposeConvKernel, RejectsStridesWhoseIndicesOverflow) {
  // The window steps once per input position over the output: 3 positions x 2^30 pass 2^31.
  float in[3] = {}, w[3] = {}, out[5] = {};
  int32_t shape[4] = {1, 1, 5, 1}, shape_dims[1] = {4}, in_dims[4] = {1, 1, 3, 1}, w_dims[4] = {1, 1, 3, 1};
  TensorView vs = MakeView(shape, TensorType::INT32, shape_dims, 1);
  TensorView vw = MakeView(w, TensorType::FLOAT32, w_dims, 4), vi = MakeView(in, TensorType::FLOAT32, in_dims, 4);
  TensorView vo = MakeView(out, TensorType::FLOAT32, shape, 4);
  auto op = TcOp(tfl::Padding::VALID, 1 << 30);
  auto r = RunKernel(rt::Register_TRANSPOSE_CONV(), {&vs, &vw, &vi, nullptr}, {&vo}, op->op);
  EXPECT_EQ(r.status, StatusCode::kInvalidModel);
  EXPECT_NE(r.error.find("stepping 1x3 times over a 1x5x1 tensor: its indices overflow 32 bits"), std::string::npos)
      << r.error;
}

}  // namespace
}  // namespace arenaplan::testing
