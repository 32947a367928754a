// PAD / PADV2 kernel tests: values computed by hand from the padding rule; the pad value rules
// (int8 default = output zero point, int16 default = 0, PADV2 constant) are TFLM's.
#include <gtest/gtest.h>

#include <vector>

#include "runtime/kernels/registrations.h"
#include "runtime/standalone_context.h"

namespace arenaplan::rt {
namespace {

template <typename T>
StatusCode RunPad(const KernelRegistration& k, TensorType type, std::vector<T> in, std::vector<int32_t> in_dims,
                  std::vector<int32_t> paddings, std::vector<int32_t> out_dims, float scale, int32_t zp,
                  const T* constant, std::vector<T>* out) {
  uint32_t count = 1;
  for (int32_t d : out_dims) count *= static_cast<uint32_t>(d);
  out->assign(count, T{});
  int32_t pdims[2] = {static_cast<int32_t>(paddings.size() / 2), 2};
  int32_t cdims[1] = {1};
  T cval = constant != nullptr ? *constant : T{};
  TensorView vi = MakeView(in.data(), type, in_dims.data(), static_cast<int32_t>(in_dims.size()), scale, zp);
  TensorView vp = MakeView(paddings.data(), TensorType::INT32, pdims, 2);
  TensorView vc = MakeView(&cval, type, cdims, 0, scale, zp);
  TensorView vo = MakeView(out->data(), type, out_dims.data(), static_cast<int32_t>(out_dims.size()), scale, zp);
  TensorView* ins[] = {&vi, &vp, &vc};
  TensorView* outs[] = {&vo};
  uint8_t mem[256];
  StandaloneContext ctx(ins, constant != nullptr ? 3 : 2, outs, 1, nullptr, mem, sizeof(mem));
  return ctx.Run(k);
}

TEST(PadTest, FloatPadsWithZero2D) {
  std::vector<float> out;
  ASSERT_EQ(RunPad<float>(*Register_PAD(), TensorType::FLOAT32, {1, 2, 3, 4}, {2, 2}, {1, 0, 0, 2}, {3, 4}, 0, 0,
                          nullptr, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<float>{0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0}));
}

TEST(PadTest, Int8PadsWithOutputZeroPoint) {
  std::vector<int8_t> out;
  ASSERT_EQ(
      RunPad<int8_t>(*Register_PAD(), TensorType::INT8, {5, 6}, {1, 2}, {0, 0, 1, 1}, {1, 4}, 0.5f, -7, nullptr, &out),
      StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<int8_t>{-7, 5, 6, -7}));
}

TEST(PadTest, Int16PadsWithZeroNotZeroPoint) {
  std::vector<int16_t> out;
  ASSERT_EQ(RunPad<int16_t>(*Register_PAD(), TensorType::INT16, {300, -300}, {2}, {2, 1}, {5}, 0.5f, 3, nullptr, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<int16_t>{0, 0, 300, -300, 0}));
}

TEST(PadTest, PadV2UsesConstantValue4D) {
  std::vector<float> out;
  const float c = 9.5f;
  // 1x1x2x1 -> pad H by (1,0), W by (0,1): 1x2x3x1.
  ASSERT_EQ(RunPad<float>(*Register_PADV2(), TensorType::FLOAT32, {1, 2}, {1, 1, 2, 1}, {0, 0, 1, 0, 0, 1, 0, 0},
                          {1, 2, 3, 1}, 0, 0, &c, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<float>{9.5f, 9.5f, 9.5f, 1, 2, 9.5f}));
}

TEST(PadTest, FiveDimensions) {
  std::vector<int32_t> out;
  ASSERT_EQ(RunPad<int32_t>(*Register_PAD(), TensorType::INT32, {7}, {1, 1, 1, 1, 1}, {1, 0, 0, 0, 0, 0, 0, 0, 0, 1},
                            {2, 1, 1, 1, 2}, 0, 0, nullptr, &out),
            StatusCode::kOk);
  EXPECT_EQ(out, (std::vector<int32_t>{0, 0, 7, 0}));
}

TEST(PadTest, OutputShapeMismatchIsRejected) {
  std::vector<float> out;
  EXPECT_EQ(RunPad<float>(*Register_PAD(), TensorType::FLOAT32, {1, 2}, {2}, {1, 1}, {3}, 0, 0, nullptr, &out),
            StatusCode::kInvalidModel);
}

TEST(PadTest, NegativePaddingIsRejected) {
  std::vector<float> out;
  EXPECT_EQ(RunPad<float>(*Register_PAD(), TensorType::FLOAT32, {1, 2, 3}, {3}, {-1, 0}, {2}, 0, 0, nullptr, &out),
            StatusCode::kUnsupported);
}

}  // namespace
}  // namespace arenaplan::rt
