// UNIDIRECTIONAL_SEQUENCE_LSTM kernel tests. Golden figures: TFLM's own LSTM test data
// (tensorflow/lite/micro/kernels/testdata/lstm_test_data.cc, "2x3x2X2": batch 2, 3 time steps,
// input 2, state 2, cell clip 6), plus structural properties that must hold bit-exactly
// (state carried across Invokes == one longer sequence).
#include <flatbuffers/flatbuffers.h>
#include <gtest/gtest.h>

#include <limits>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "kernel_a_testutil.h"
#include "runtime/kernels/registrations.h"
#include "runtime/standalone_context.h"

namespace arenaplan::rt {
namespace {

// TFLM test data: weights [state=2][input=2], per gate (input, forget, cell, output).
const float kInputW[4][4] = {{10, 10, 20, 20}, {-10, -10, -20, -20}, {1, 1, 1, 1}, {1, 1, 1, 1}};
const float kBias[4][2] = {{-1, -2}, {1, 2}, {0, 0}, {0, 0}};
const float kSeq[12] = {0.2f, 0.3f, 0.2f, 0.3f, 0.2f, 0.3f, -0.98f, 0.62f, 0.01f, 0.99f, 0.49f, -0.32f};
const float kExpectedOutput[12] = {0.26455893f, 0.26870455f, 0.47935803f,     0.47937014f,
                                   0.58013272f, 0.58013278f, -1.41184672e-3f, -1.43329117e-5f,
                                   0.46887168f, 0.46891281f, 0.50054074f,     0.50054148f};
const float kExpectedHidden[4] = {0.58013272f, 0.58013278f, 0.50054074f, 0.50054148f};
const float kExpectedCell[4] = {0.89740515f, 0.8974053f, 0.80327607f, 0.80327785f};

using testing::MakeOp;
using testing::OpHolder;

std::unique_ptr<OpHolder> LstmOp(float cell_clip, bool time_major = false) {
  return MakeOp(tfl::BuiltinOptions::UnidirectionalSequenceLSTMOptions, [&](flatbuffers::FlatBufferBuilder& fbb) {
    return tfl::CreateUnidirectionalSequenceLSTMOptions(fbb, tfl::ActivationFunctionType::TANH, cell_clip, 0.0f,
                                                        time_major);
  });
}

template <typename T>
T Clamp(long v, long lo, long hi) {
  return static_cast<T>(v < lo ? lo : (v > hi ? hi : v));
}

// TFLM's 2x2 quantization settings (int8 and int16 nodes alike): weight scale of each gate.
float WeightScale(int g) { return g <= 1 ? 0.15748031496062992f : 0.007874015748031496f; }

// All tensors of one LSTM node over its own storage, and an arena for the kernel.
template <typename Act, typename Bias, typename Cell>
struct Node {
  int32_t in_dims[3], w_dims[2] = {2, 2}, b_dims[1] = {2}, state_dims[2], out_dims[3];
  std::vector<Act> input, hidden, output;
  std::vector<Cell> cell;
  std::vector<std::vector<Act>> dummy;
  std::vector<int8_t> w8[8];
  std::vector<float> wf[8];
  std::vector<Bias> bias[4];
  TensorView views[24];
  TensorView out_view;
  TensorView* ins[24] = {};
  TensorView* outs[1] = {&out_view};
  std::vector<uint8_t> arena = std::vector<uint8_t>(1 << 14);

  // Batch-major: input and output [batch, steps, 2], states [batch, 2].
  Node(int32_t batch, int32_t steps) : in_dims{batch, steps, 2}, state_dims{batch, 2}, out_dims{batch, steps, 2} {}

  // int8 weights (recurrent weights equal input weights) and the bias in input x weight scale.
  void QuantizeWeights(float in_scale, TensorType bias_type) {
    for (int g = 0; g < 4; ++g) {
      const float ws = WeightScale(g);
      for (int k = 0; k < 4; ++k) w8[g].push_back(Clamp<int8_t>(std::lround(kInputW[g][k] / ws), -127, 127));
      w8[4 + g] = w8[g];
      views[1 + g] = MakeView(w8[g].data(), TensorType::INT8, w_dims, 2, ws, 0);
      views[5 + g] = MakeView(w8[4 + g].data(), TensorType::INT8, w_dims, 2, ws, 0);
      for (int k = 0; k < 2; ++k) bias[g].push_back(static_cast<Bias>(std::llround(kBias[g][k] / (ws * in_scale))));
      views[12 + g] = MakeView(bias[g].data(), bias_type, b_dims, 1, ws * in_scale, 0);
    }
  }

  // The tensors TFLM's test uses: input, 8 weights, 4 biases, hidden and cell state.
  void WireInputs() {
    for (int i : {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 15, 18, 19}) ins[i] = &views[i];
  }

  StandaloneContext Context(const tfl::Operator* op, uint32_t num_inputs = 24) {
    return StandaloneContext(ins, num_inputs, outs, 1, op, arena.data(), arena.size());
  }
};

// The float node of TFLM's test, batch-major [2, 3, 2].
struct FloatNode : Node<float, float, float> {
  explicit FloatNode(int32_t batch, int32_t steps, const float* seq) : Node(batch, steps) {
    input.assign(seq, seq + batch * steps * 2);
    hidden.assign(static_cast<size_t>(batch) * 2, 0.0f);
    cell.assign(static_cast<size_t>(batch) * 2, 0.0f);
    output.assign(static_cast<size_t>(batch) * steps * 2, 0.0f);
    views[0] = MakeView(input.data(), TensorType::FLOAT32, in_dims, 3);
    for (int g = 0; g < 4; ++g) {
      wf[g].assign(kInputW[g], kInputW[g] + 4);
      wf[4 + g].assign(kInputW[g], kInputW[g] + 4);  // recurrent weights equal input weights
      views[1 + g] = MakeView(wf[g].data(), TensorType::FLOAT32, w_dims, 2);
      views[5 + g] = MakeView(wf[4 + g].data(), TensorType::FLOAT32, w_dims, 2);
      bias[g].assign(kBias[g], kBias[g] + 2);
      views[12 + g] = MakeView(bias[g].data(), TensorType::FLOAT32, b_dims, 1);
    }
    views[18] = MakeView(hidden.data(), TensorType::FLOAT32, state_dims, 2);
    views[19] = MakeView(cell.data(), TensorType::FLOAT32, state_dims, 2);
    out_view = MakeView(output.data(), TensorType::FLOAT32, out_dims, 3);
    WireInputs();
  }
};

// int8 activations / weights, int32 bias, int16 cell; TFLM's Get2X2Int8LstmQuantizationSettings.
struct Int8Node : Node<int8_t, int32_t, int16_t> {
  static constexpr float kInScale = 0.00784313725490196f;
  static constexpr float kHiddenScale = 0.004705882165580988f;
  static constexpr int32_t kHiddenZp = -21;
  static constexpr float kCellScale = 0.00024414062f;

  Int8Node(int32_t batch, int32_t steps, const float* seq) : Node(batch, steps) {
    for (int32_t i = 0; i < batch * steps * 2; ++i) {
      input.push_back(Clamp<int8_t>(std::lround(seq[i] / kInScale), -128, 127));
    }
    hidden.assign(static_cast<size_t>(batch) * 2, static_cast<int8_t>(kHiddenZp));
    cell.assign(static_cast<size_t>(batch) * 2, 0);
    output.assign(static_cast<size_t>(batch) * steps * 2, 0);
    views[0] = MakeView(input.data(), TensorType::INT8, in_dims, 3, kInScale, 0);
    QuantizeWeights(kInScale, TensorType::INT32);
    views[18] = MakeView(hidden.data(), TensorType::INT8, state_dims, 2, kHiddenScale, kHiddenZp);
    views[19] = MakeView(cell.data(), TensorType::INT16, state_dims, 2, kCellScale, 0);
    out_view = MakeView(output.data(), TensorType::INT8, out_dims, 3, kHiddenScale, kHiddenZp);
    WireInputs();
  }
  float Out(size_t i) const { return (output[i] - kHiddenZp) * kHiddenScale; }
};

// int16 activations, int8 weights, int64 bias, int16 cell; TFLM's Get2X2Int16LstmQuantizationSettings.
struct Int16Node : Node<int16_t, int64_t, int16_t> {
  static constexpr float kInScale = 3.0518044e-5f;
  static constexpr float kHiddenScale = 2.1362956633198035e-05f;
  static constexpr float kCellScale = 0.00024414062f;

  Int16Node(int32_t batch, int32_t steps, const float* seq) : Node(batch, steps) {
    for (int32_t i = 0; i < batch * steps * 2; ++i) {
      input.push_back(Clamp<int16_t>(std::lround(seq[i] / kInScale), -32768, 32767));
    }
    hidden.assign(static_cast<size_t>(batch) * 2, 0);
    cell.assign(static_cast<size_t>(batch) * 2, 0);
    output.assign(static_cast<size_t>(batch) * steps * 2, 0);
    views[0] = MakeView(input.data(), TensorType::INT16, in_dims, 3, kInScale, 0);
    QuantizeWeights(kInScale, TensorType::INT64);
    views[18] = MakeView(hidden.data(), TensorType::INT16, state_dims, 2, kHiddenScale, 0);
    views[19] = MakeView(cell.data(), TensorType::INT16, state_dims, 2, kCellScale, 0);
    out_view = MakeView(output.data(), TensorType::INT16, out_dims, 3, kHiddenScale, 0);
    WireInputs();
  }
  float Out(size_t i) const { return output[i] * kHiddenScale; }
};

const KernelRegistration& Lstm() { return *Register_UNIDIRECTIONAL_SEQUENCE_LSTM(); }

TEST(LstmTest, FloatMatchesTflmGolden2x3x2x2) {
  FloatNode n(2, 3, kSeq);
  auto op = LstmOp(6.0f);
  StandaloneContext ctx = n.Context(op->op);
  ASSERT_EQ(ctx.Run(Lstm()), StatusCode::kOk) << ctx.error().text;
  for (int i = 0; i < 12; ++i) EXPECT_NEAR(n.output[i], kExpectedOutput[i], 1e-6) << "output " << i;
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(n.hidden[i], kExpectedHidden[i], 1e-6) << "hidden " << i;
    EXPECT_NEAR(n.cell[i], kExpectedCell[i], 1e-6) << "cell " << i;
  }
}

TEST(LstmTest, FloatCellClipIsApplied) {
  // TFLM gate test: batch-2 cell -7.3 with forget ~0.93 and tiny input gate gives -6.806..., which
  // the clip of 6 must cut to exactly -6 after one step.
  const float x[4] = {0.2f, 0.3f, -0.98f, 0.62f};
  FloatNode n(2, 1, x);
  const float h0[4] = {-0.1f, 0.2f, -0.3f, 0.5f};
  const float c0[4] = {-1.3f, 6.2f, -7.3f, 3.5f};
  std::memcpy(n.hidden.data(), h0, sizeof(h0));
  std::memcpy(n.cell.data(), c0, sizeof(c0));
  auto op = LstmOp(6.0f);
  StandaloneContext ctx = n.Context(op->op);
  ASSERT_EQ(ctx.Run(Lstm()), StatusCode::kOk) << ctx.error().text;
  const float expected_cell[4] = {0.52475447f, 0.53730665f, -6.0f, 3.47992756f};
  const float expected_hidden[4] = {0.31079388f, 0.3169827f, -0.46007947f, 0.45921249f};
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(n.cell[i], expected_cell[i], 1e-6) << i;
    EXPECT_NEAR(n.hidden[i], expected_hidden[i], 1e-6) << i;
  }
  EXPECT_EQ(n.cell[2], -6.0f);
}

// Runs a quantized node on TFLM's test sequence: TFLM's own quantized tests accept a few output
// steps of error against the float golden.
template <typename QuantNode>
void ExpectNearFloatGolden(uint32_t* memory_used) {
  QuantNode n(2, 3, kSeq);
  auto op = LstmOp(6.0f);
  StandaloneContext ctx = n.Context(op->op);
  ASSERT_EQ(ctx.Run(Lstm()), StatusCode::kOk) << ctx.error().text;
  for (int i = 0; i < 12; ++i) EXPECT_NEAR(n.Out(i), kExpectedOutput[i], 0.02) << "output " << i;
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(n.cell[i] * QuantNode::kCellScale, kExpectedCell[i], 0.02) << i;
  *memory_used = ctx.memory_used();
}

TEST(LstmTest, Int8CloseToTflmFloatGolden) {
  uint32_t memory_used = 0;
  ASSERT_NO_FATAL_FAILURE(ExpectNearFloatGolden<Int8Node>(&memory_used));
  // Scratch: four batch x state int16 buffers.
  EXPECT_GE(memory_used, 4u * 2u * 2u * 2u);
}

TEST(LstmTest, Int16x8CloseToTflmFloatGolden) {
  uint32_t memory_used = 0;
  ExpectNearFloatGolden<Int16Node>(&memory_used);
}

TEST(LstmTest, Int8StateCarriesAcrossInvokesExactly) {
  // One sequence of 6 steps must equal two Invokes of 3 steps on the same node (hidden and cell
  // state are variable tensors the kernel updates in place), bit for bit.
  const float seq6[12] = {0.2f, 0.3f, -0.5f, 0.1f, 0.9f, -0.9f, 0.4f, 0.4f, -0.2f, 0.7f, 0.0f, 0.6f};
  Int8Node whole(1, 6, seq6);
  auto op = LstmOp(6.0f);
  StandaloneContext c1 = whole.Context(op->op);
  ASSERT_EQ(c1.Run(Lstm()), StatusCode::kOk) << c1.error().text;

  Int8Node half(1, 3, seq6);
  StandaloneContext c2 = half.Context(op->op);
  ASSERT_EQ(c2.Prepare(Lstm()), StatusCode::kOk) << c2.error().text;
  ASSERT_EQ(c2.Eval(Lstm()), StatusCode::kOk);
  const std::vector<int8_t> first = half.output;
  Int8Node second_in(1, 3, seq6 + 6);
  std::copy(second_in.input.begin(), second_in.input.end(), half.input.begin());  // views keep pointing here
  ASSERT_EQ(c2.Eval(Lstm()), StatusCode::kOk);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(first[i], whole.output[i]) << i;
  for (int i = 0; i < 6; ++i) EXPECT_EQ(half.output[i], whole.output[6 + i]) << i;
  EXPECT_EQ(half.hidden, whole.hidden);
  EXPECT_EQ(half.cell, whole.cell);
  EXPECT_NE(half.output, first);  // the second Invoke really saw the new state and input
}

TEST(LstmTest, ZeroWeightsGiveZeroPointOutput) {
  // All weights and biases zero: every gate is sigmoid(0) = 0.5 / tanh(0) = 0, the cell stays 0
  // and the hidden state is exactly the hidden zero point.
  Int8Node n(2, 3, kSeq);
  for (int g = 0; g < 8; ++g) std::fill(n.w8[g].begin(), n.w8[g].end(), 0);
  for (int g = 0; g < 4; ++g) std::fill(n.bias[g].begin(), n.bias[g].end(), 0);
  auto op = LstmOp(0.0f);
  StandaloneContext ctx = n.Context(op->op);
  ASSERT_EQ(ctx.Run(Lstm()), StatusCode::kOk) << ctx.error().text;
  for (int8_t v : n.output) EXPECT_EQ(v, Int8Node::kHiddenZp);
  for (int16_t c : n.cell) EXPECT_EQ(c, 0);
}

TEST(LstmTest, RejectsPeepholeAndBadShapes) {
  auto op = LstmOp(6.0f);
  {
    FloatNode n(2, 3, kSeq);
    n.ins[9] = &n.views[1];  // a "cell_to_input" peephole tensor
    StandaloneContext ctx = n.Context(op->op);
    EXPECT_EQ(ctx.Prepare(Lstm()), StatusCode::kUnsupported);
    EXPECT_NE(std::string(ctx.error().text).find("input 9"), std::string::npos) << ctx.error().text;
  }
  {
    FloatNode n(2, 3, kSeq);
    n.w_dims[1] = 3;  // input weights no longer [state, input]
    StandaloneContext ctx = n.Context(op->op);
    EXPECT_EQ(ctx.Prepare(Lstm()), StatusCode::kInvalidModel) << ctx.error().text;
  }
  {
    FloatNode n(2, 3, kSeq);
    n.ins[19] = nullptr;  // no cell state
    StandaloneContext ctx = n.Context(op->op);
    EXPECT_EQ(ctx.Prepare(Lstm()), StatusCode::kInvalidModel);
  }
  {
    FloatNode n(2, 3, kSeq);
    StandaloneContext ctx = n.Context(op->op, 23);
    EXPECT_EQ(ctx.Prepare(Lstm()), StatusCode::kInvalidModel);
  }
  {
    FloatNode n(2, 3, kSeq);
    StandaloneContext ctx = n.Context(nullptr);
    EXPECT_EQ(ctx.Prepare(Lstm()), StatusCode::kInvalidModel);  // options are required
  }
}

TEST(LstmTest, RejectsCellScalesThatAreNoPowerOfTwo) {
  // NaN and infinity have no finite log2 (TFLM's int cast of it is undefined): refused like 0.3.
  auto op = LstmOp(6.0f);
  for (float scale : {0.3f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    Int8Node n(2, 3, kSeq);
    n.views[19].scale = scale;
    StandaloneContext ctx = n.Context(op->op);
    EXPECT_EQ(ctx.Prepare(Lstm()), StatusCode::kUnsupported) << scale;
    EXPECT_NE(std::string(ctx.error().text).find("cell state scale must be a power of two"), std::string::npos)
        << ctx.error().text;
  }
}

TEST(LstmTest, TimeMajorMatchesBatchMajorForOneBatch) {
  // With batch 1 the two layouts hold the same bytes; results must be identical.
  FloatNode a(1, 3, kSeq);
  FloatNode b(1, 3, kSeq);
  b.in_dims[0] = 3;
  b.in_dims[1] = 1;
  b.out_dims[0] = 3;
  b.out_dims[1] = 1;
  auto op_a = LstmOp(6.0f, false);
  auto op_b = LstmOp(6.0f, true);
  StandaloneContext c1 = a.Context(op_a->op);
  StandaloneContext c2 = b.Context(op_b->op);
  ASSERT_EQ(c1.Run(Lstm()), StatusCode::kOk) << c1.error().text;
  ASSERT_EQ(c2.Run(Lstm()), StatusCode::kOk) << c2.error().text;
  EXPECT_EQ(a.output, b.output);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(a.output[i], kExpectedOutput[i], 1e-6) << i;
}

}  // namespace
}  // namespace arenaplan::rt
