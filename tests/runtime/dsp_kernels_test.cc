// The fast int8 FULLY_CONNECTED, pooling, ADD, SUB, MUL and SOFTMAX (kernels/dsp/, DSP instructions
// emulated on the host) against the portable kernels on random shapes (depths and channel counts
// that are not multiples of four), per-tensor and per-channel weights with and without a weight
// zero point, paddings, strides, windows over 256 taps, broadcasting (the portable fallback) and
// every activation: every output byte must be equal.
#include <gtest/gtest.h>

#include "dsp_testutil.h"
#include "runtime/kernels/dsp/registrations.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::testing {
namespace {

const tfl::ActivationFunctionType kActs[] = {tfl::ActivationFunctionType::NONE, tfl::ActivationFunctionType::RELU,
                                             tfl::ActivationFunctionType::RELU6,
                                             tfl::ActivationFunctionType::RELU_N1_TO_1};

TEST(DspFullyConnected, MatchesPortableOnRandomCases) {
  Random r(21);
  for (int i = 0; i < 400; ++i) {
    const int32_t batches = r.Int(1, 3), depth = r.Int(1, 40), units = r.Int(1, 37);  // chunks of 16 units
    const bool per_channel = r.Coin();
    const auto act = kActs[r.Int(0, 3)];
    Tensor<int8_t> in(r.Values<int8_t>(batches * depth, -128, 127), {batches, depth}, TensorType::INT8,
                      r.Real(0.01f, 0.1f), r.Int(-128, 127));
    Tensor<int8_t> w(r.Values<int8_t>(units * depth, -128, 127), {units, depth}, TensorType::INT8,
                     r.Real(0.001f, 0.02f), per_channel || r.Coin() ? 0 : r.Int(-20, 20));
    std::vector<float> scales;
    std::vector<int64_t> zps;
    if (per_channel) {
      for (int32_t u = 0; u < units; ++u) scales.push_back(r.Real(0.001f, 0.02f));
      SetPerChannel(&w.view, scales, &zps, 0);
    }
    Tensor<int32_t> b(r.Values<int32_t>(units, -(1 << 15), 1 << 15), {units}, TensorType::INT32);
    const float s_out = in.view.scale * w.view.scale * std::sqrt(static_cast<float>(depth)) * r.Real(1.0f, 100.0f);
    Tensor<int8_t> out(std::vector<int8_t>(batches * units), {batches, units}, TensorType::INT8, s_out,
                       r.Int(-128, 127));
    auto op = MakeOp(tfl::BuiltinOptions::FullyConnectedOptions,
                     [&](flatbuffers::FlatBufferBuilder& fbb) { return tfl::CreateFullyConnectedOptions(fbb, act); });
    const std::string diff = CompareKernels(rt::Register_FULLY_CONNECTED(), rt::Register_FULLY_CONNECTED_DSP(),
                                            {&in.view, &w.view, r.Coin() ? &b.view : nullptr}, &out, op->op);
    ASSERT_EQ(diff, "") << "batches " << batches << " depth " << depth << " units " << units << " per-channel "
                        << per_channel << " weight zero point " << w.view.zero_point;
  }
}

int32_t PoolOut(tfl::Padding p, int32_t in, int32_t f, int32_t stride) {
  return p == tfl::Padding::SAME ? (in + stride - 1) / stride : (in - f + stride) / stride;
}

void RandomPools(const rt::KernelRegistration* portable, const rt::KernelRegistration* fast, uint32_t seed) {
  Random r(seed);
  int run = 0;
  for (int i = 0; i < 400; ++i) {
    const bool big = r.Int(0, 9) == 0;  // a window over 256 taps (the average's portable path)
    const int32_t batches = r.Int(1, 2), in_h = big ? 18 : r.Int(1, 9), in_w = big ? 17 : r.Int(1, 9);
    const int32_t depth = r.Int(1, 13), f_h = big ? 17 : r.Int(1, 4), f_w = big ? 17 : r.Int(1, 4);
    const int32_t stride_h = r.Int(1, 3), stride_w = r.Int(1, 3);
    const tfl::Padding padding = r.Coin() ? tfl::Padding::SAME : tfl::Padding::VALID;
    const int32_t out_h = PoolOut(padding, in_h, f_h, stride_h), out_w = PoolOut(padding, in_w, f_w, stride_w);
    if (out_h < 1 || out_w < 1) continue;
    const float scale = r.Real(0.01f, 0.1f);
    const int32_t zp = r.Int(-128, 127);
    const std::vector<int32_t> in_dims = {batches, in_h, in_w, depth};
    Tensor<int8_t> in(r.Values<int8_t>(Count(in_dims), -128, 127), in_dims, TensorType::INT8, scale, zp);
    Tensor<int8_t> out(std::vector<int8_t>(batches * out_h * out_w * depth), {batches, out_h, out_w, depth},
                       TensorType::INT8, scale, zp);
    const auto act = kActs[r.Int(0, 3)];
    auto op = MakeOp(tfl::BuiltinOptions::Pool2DOptions, [&](flatbuffers::FlatBufferBuilder& fbb) {
      return tfl::CreatePool2DOptions(fbb, padding, stride_w, stride_h, f_w, f_h, act);
    });
    const std::string diff = CompareKernels(portable, fast, {&in.view}, &out, op->op);
    ASSERT_EQ(diff, "") << "in [" << batches << "," << in_h << "," << in_w << "," << depth << "] filter " << f_h << "x"
                        << f_w << " stride " << stride_h << "," << stride_w;
    ++run;
  }
  EXPECT_GT(run, 300);
}

TEST(DspPooling, AverageMatchesPortableOnRandomCases) {
  RandomPools(rt::Register_AVERAGE_POOL_2D(), rt::Register_AVERAGE_POOL_2D_DSP(), 22);
}

TEST(DspPooling, MaxMatchesPortableOnRandomCases) {
  RandomPools(rt::Register_MAX_POOL_2D(), rt::Register_MAX_POOL_2D_DSP(), 23);
}

// ADD / SUB / MUL on random same-shape operands, and one broadcast in ten (the portable path).
void RandomBinary(const rt::KernelRegistration* portable, const rt::KernelRegistration* fast, tfl::BuiltinOptions type,
                  uint32_t seed) {
  Random r(seed);
  for (int i = 0; i < 300; ++i) {
    const std::vector<int32_t> dims = {r.Int(1, 3), r.Int(1, 7), r.Int(1, 30)};  // ADD / SUB tables from 256
    const bool broadcast = r.Int(0, 9) == 0;
    const std::vector<int32_t> b_dims = broadcast ? std::vector<int32_t>{dims[2]} : dims;
    Tensor<int8_t> a(r.Values<int8_t>(Count(dims), -128, 127), dims, TensorType::INT8, r.Real(0.005f, 0.2f),
                     r.Int(-128, 127));
    Tensor<int8_t> b(r.Values<int8_t>(Count(b_dims), -128, 127), b_dims, TensorType::INT8, r.Real(0.005f, 0.2f),
                     r.Int(-128, 127));
    const float s_out = type == tfl::BuiltinOptions::MulOptions ? a.view.scale * b.view.scale * r.Real(20.0f, 200.0f)
                                                                : r.Real(0.005f, 0.4f);
    Tensor<int8_t> out(std::vector<int8_t>(Count(dims)), dims, TensorType::INT8, s_out, r.Int(-128, 127));
    const auto act = kActs[r.Int(0, 3)];
    auto op = MakeOp(type, [&](flatbuffers::FlatBufferBuilder& fbb) {
      if (type == tfl::BuiltinOptions::AddOptions) return tfl::CreateAddOptions(fbb, act).Union();
      if (type == tfl::BuiltinOptions::SubOptions) return tfl::CreateSubOptions(fbb, act).Union();
      return tfl::CreateMulOptions(fbb, act).Union();
    });
    const std::string diff = CompareKernels(portable, fast, {&a.view, &b.view}, &out, op->op);
    ASSERT_EQ(diff, "") << "case " << i << (broadcast ? " (broadcast)" : "");
  }
}

TEST(DspArithmetic, AddMatchesPortable) {
  RandomBinary(rt::Register_ADD(), rt::Register_ADD_DSP(), tfl::BuiltinOptions::AddOptions, 24);
}
TEST(DspArithmetic, SubMatchesPortable) {
  RandomBinary(rt::Register_SUB(), rt::Register_SUB_DSP(), tfl::BuiltinOptions::SubOptions, 25);
}
TEST(DspArithmetic, MulMatchesPortable) {
  RandomBinary(rt::Register_MUL(), rt::Register_MUL_DSP(), tfl::BuiltinOptions::MulOptions, 26);
}

// SOFTMAX int8 -> int8 and int8 -> int16 over random rows, depths past the fast path's stack row.
TEST(DspSoftmax, MatchesPortableOnRandomRows) {
  Random r(27);
  for (int i = 0; i < 300; ++i) {
    const int32_t outer = r.Int(1, 4), depth = r.Int(0, 9) == 0 ? r.Int(250, 300) : r.Int(1, 40);
    const bool wide = r.Coin();
    Tensor<int8_t> in(r.Values<int8_t>(outer * depth, -128, 127), {outer, depth}, TensorType::INT8, r.Real(0.01f, 0.5f),
                      r.Int(-128, 127));
    const float beta = r.Real(0.2f, 2.0f);
    auto op = MakeOp(tfl::BuiltinOptions::SoftmaxOptions,
                     [&](flatbuffers::FlatBufferBuilder& fbb) { return tfl::CreateSoftmaxOptions(fbb, beta); });
    std::string diff;
    if (wide) {
      Tensor<int16_t> out(std::vector<int16_t>(outer * depth), {outer, depth}, TensorType::INT16, 1.0f / 65536, -32768);
      diff = CompareKernels(rt::Register_SOFTMAX(), rt::Register_SOFTMAX_DSP(), {&in.view}, &out, op->op);
    } else {
      Tensor<int8_t> out(std::vector<int8_t>(outer * depth), {outer, depth}, TensorType::INT8, 1.0f / 256, -128);
      diff = CompareKernels(rt::Register_SOFTMAX(), rt::Register_SOFTMAX_DSP(), {&in.view}, &out, op->op);
    }
    ASSERT_EQ(diff, "") << "outer " << outer << " depth " << depth << (wide ? " int16 out" : " int8 out");
  }
}

}  // namespace
}  // namespace arenaplan::testing
