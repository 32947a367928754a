// Packed INT4 filters (TFLM: FULLY_CONNECTED, CONV_2D, DEPTHWISE_CONV_2D with int8 input) against
// the equivalent model with the same values as INT8: every output byte must be equal, on the
// portable and the DSP kernel tables. The int4 models are packed here by hand (element 2i in the
// low nibble of byte i, 2i + 1 in the high nibble, an odd last element alone in the low nibble), with
// odd element counts, every value -8..7 and per-channel scales. The arena must grow by exactly the
// unpacked filter (one byte per element, TFLM's scratch request): in a one-op model input, output
// and scratch are all live at once, so the head is the sum of their 16-aligned sizes.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "model/writer.h"
#include "runtime/interpreter.h"
#include "runtime/kernels/dsp/registrations.h"
#include "runtime/op_resolver.h"
#include "util/aligned_bytes.h"

namespace arenaplan::rt {
namespace {

using model::ModelSpec;
using model::OperatorSpec;
using model::TensorSpec;
using MT = model::TensorType;

constexpr uint32_t kArena = 16384;

uint32_t Align16(uint32_t n) { return (n + 15u) & ~15u; }

// Filter values cycling through -8..7 in a scrambled order (so neighbours differ in sign).
std::vector<int8_t> FilterValues(uint32_t n) {
  std::vector<int8_t> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = static_cast<int8_t>(static_cast<int32_t>((i * 7 + 3) % 16) - 8);
  return v;
}

// TFLM's packing, written out independently of the code under test.
std::vector<uint8_t> PackInt4(const std::vector<int8_t>& v, bool high_first = false) {
  std::vector<uint8_t> out((v.size() + 1) / 2, 0);
  for (size_t i = 0; i < v.size(); ++i) {
    const uint8_t nibble = static_cast<uint8_t>(v[i]) & 0x0F;
    const bool high = (i % 2 == 1) != high_first;
    out[i / 2] |= high ? static_cast<uint8_t>(nibble << 4) : nibble;
  }
  return out;
}

model::Quantization Q(std::vector<float> scales, int32_t dim, int64_t zp = 0) {
  model::Quantization q;
  q.scale = std::move(scales);
  q.zero_point.assign(q.scale.size(), zp);
  q.quantized_dimension = dim;
  return q;
}

std::vector<uint8_t> Bytes(const std::vector<int32_t>& v) {
  std::vector<uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

struct Case {
  const char* name;
  tfl::BuiltinOperator code;
  model::OpOptions options;
  std::vector<int32_t> input_shape, filter_shape, output_shape;
  std::vector<float> filter_scales;  // one per output channel, or one (per tensor)
  int32_t quantized_dimension;
  MT input_type = MT::kInt8;
};

// input (graph input) -> op(filter, bias) -> output; the filter as INT8 or packed INT4 (optionally
// with the nibbles swapped, to show the comparison can fail).
std::vector<uint8_t> Build(const Case& c, MT filter_type, bool swap_nibbles = false) {
  ModelSpec spec;
  const uint32_t code = model::AddOperatorCode(spec, static_cast<int32_t>(c.code));
  uint32_t n = 1;
  for (int32_t d : c.filter_shape) n *= static_cast<uint32_t>(d);
  const std::vector<int8_t> values = FilterValues(n);
  std::vector<uint8_t> filter_bytes;
  if (filter_type == MT::kInt4) {
    filter_bytes = PackInt4(values, swap_nibbles);
  } else {
    filter_bytes.assign(values.begin(), values.end());
  }
  const uint32_t filter_buffer = model::AddBuffer(spec, filter_bytes);
  const int32_t channels = c.output_shape.back();
  std::vector<int32_t> bias(static_cast<size_t>(channels));
  for (int32_t i = 0; i < channels; ++i) bias[static_cast<size_t>(i)] = (i % 3 - 1) * 37;
  const uint32_t bias_buffer = model::AddBuffer(spec, Bytes(bias));

  const bool int16 = c.input_type == MT::kInt16;
  model::SubgraphSpec sg;
  sg.tensors.push_back({"input", c.input_type, c.input_shape, 0, false, Q({0.05f}, 0, int16 ? 0 : -3)});
  sg.tensors.push_back({"filter", filter_type, c.filter_shape, filter_buffer, false,
                        Q(c.filter_scales, c.quantized_dimension)});
  std::vector<float> bias_scales;
  for (float s : c.filter_scales) bias_scales.push_back(0.05f * s);
  sg.tensors.push_back({"bias", int16 ? MT::kInt64 : MT::kInt32, {channels}, bias_buffer, false, Q(bias_scales, 0)});
  sg.tensors.push_back({"output", c.input_type, c.output_shape, 0, false, Q({0.02f}, 0, int16 ? 0 : 2)});
  if (int16) {  // int64 bias data
    std::vector<uint8_t> b64(static_cast<size_t>(channels) * 8, 0);
    spec.buffers[bias_buffer] = b64;
  }
  OperatorSpec op{code, {0, 1, 2}, {3}};
  op.options = c.options;
  sg.inputs = {0};
  sg.outputs = {3};
  sg.operators = {op};
  spec.subgraphs.push_back(sg);
  return model::WriteModel(spec);
}

struct ModelRun {
  std::vector<uint8_t> model;
  AlignedBytes arena{kArena};
  std::unique_ptr<Interpreter> interp;
  ModelRun(std::vector<uint8_t> m, const OpResolver& resolver) : model(std::move(m)) {
    interp = std::make_unique<Interpreter>(model.data(), model.size(), resolver, arena.data(), arena.size());
  }
};

// Output bytes of one Invoke on a fixed int8 input pattern.
std::vector<uint8_t> Invoke(ModelRun& r) {
  EXPECT_EQ(r.interp->AllocateTensors(), StatusCode::kOk) << r.interp->error_message();
  TensorView in = r.interp->input(0);
  auto* x = static_cast<int8_t*>(in.data);
  for (uint32_t i = 0; i < in.bytes; ++i) x[i] = static_cast<int8_t>(static_cast<int32_t>((i * 29 + 11) % 256) - 128);
  EXPECT_EQ(r.interp->Invoke(), StatusCode::kOk) << r.interp->error_message();
  const TensorView out = r.interp->output(0);
  const auto* o = static_cast<const uint8_t*>(out.data);
  return std::vector<uint8_t>(o, o + out.bytes);
}

std::vector<Case> Cases() {
  model::OpOptions fc;
  fc.kind = model::OptionsKind::kFullyConnected;
  model::OpOptions conv;
  conv.kind = model::OptionsKind::kConv2D;
  model::OpOptions conv_valid = conv;
  conv_valid.padding_same = false;
  conv_valid.stride_w = 2;
  model::OpOptions dw;
  dw.kind = model::OptionsKind::kDepthwiseConv2D;
  model::OpOptions dw2 = dw;
  dw2.depth_multiplier = 3;
  dw2.activation = 1;  // RELU
  return {
      // 5 x 7 = 35 weights
      {"fc_per_channel", tfl::BuiltinOperator::FULLY_CONNECTED, fc, {2, 7}, {5, 7}, {2, 5},
       {0.011f, 0.02f, 0.007f, 0.013f, 0.03f}, 0},
      {"fc_per_tensor", tfl::BuiltinOperator::FULLY_CONNECTED, fc, {3, 7}, {5, 7}, {3, 5}, {0.017f}, 0},
      // 3 x 3 x 3 x 3 = 81 weights, SAME padding
      {"conv_same", tfl::BuiltinOperator::CONV_2D, conv, {1, 5, 5, 3}, {3, 3, 3, 3}, {1, 5, 5, 3},
       {0.01f, 0.02f, 0.015f}, 0},
      // 5 x 3 x 1 x 3 = 45 weights, VALID, stride 2 along the width
      {"conv_valid_stride", tfl::BuiltinOperator::CONV_2D, conv_valid, {1, 6, 7, 3}, {5, 3, 1, 3}, {1, 4, 4, 5},
       {0.01f, 0.02f, 0.015f, 0.004f, 0.03f}, 0},
      // 1 x 3 x 3 x 5 = 45 weights
      {"depthwise", tfl::BuiltinOperator::DEPTHWISE_CONV_2D, dw, {1, 4, 4, 5}, {1, 3, 3, 5}, {1, 4, 4, 5},
       {0.01f, 0.02f, 0.015f, 0.03f, 0.005f}, 3},
      // depth multiplier 3: 1 x 3 x 1 x 3 = 9 weights
      {"depthwise_multiplier", tfl::BuiltinOperator::DEPTHWISE_CONV_2D, dw2, {2, 4, 3, 1}, {1, 3, 1, 3},
       {2, 4, 3, 3}, {0.01f, 0.02f, 0.015f}, 3},
  };
}

TEST(Int4Weights, OutputsEqualTheInt8ModelsOnBothKernelTables) {
  for (const OpResolver* resolver : {&AllOpsResolver(), &DspOpsResolver()}) {
    for (const Case& c : Cases()) {
      SCOPED_TRACE(std::string(c.name) + (resolver == &AllOpsResolver() ? " portable" : " dsp"));
      ModelRun int8(Build(c, MT::kInt8), *resolver);
      ModelRun int4(Build(c, MT::kInt4), *resolver);
      const std::vector<uint8_t> a = Invoke(int8);
      const std::vector<uint8_t> b = Invoke(int4);
      ASSERT_FALSE(a.empty());
      EXPECT_EQ(a, b);
      // A second Invoke unpacks again into the same scratch: still equal.
      ASSERT_EQ(int4.interp->Invoke(), StatusCode::kOk);
      const TensorView out = int4.interp->output(0);
      EXPECT_EQ(std::memcmp(out.data, a.data(), a.size()), 0);
      // The outputs are not degenerate (so equality says something): several distinct bytes.
      std::vector<bool> seen(256, false);
      uint32_t distinct = 0;
      for (uint8_t v : a) distinct += seen[v] ? 0 : (seen[v] = true, 1);
      EXPECT_GE(distinct, 4u);
    }
  }
}

TEST(Int4Weights, SwappedNibblesGiveOtherOutputs) {
  // The comparison above can fail: packing the high nibble first changes the result.
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    ModelRun int8(Build(c, MT::kInt8), AllOpsResolver());
    ModelRun swapped(Build(c, MT::kInt4, true), AllOpsResolver());
    EXPECT_NE(Invoke(int8), Invoke(swapped));
  }
}

TEST(Int4Weights, ArenaHoldsTheUnpackedFilterAsScratch) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    uint32_t in = 1, filter = 1, out = 1;
    for (int32_t d : c.input_shape) in *= static_cast<uint32_t>(d);
    for (int32_t d : c.filter_shape) filter *= static_cast<uint32_t>(d);
    for (int32_t d : c.output_shape) out *= static_cast<uint32_t>(d);
    ModelRun int8(Build(c, MT::kInt8), AllOpsResolver());
    ModelRun int4(Build(c, MT::kInt4), AllOpsResolver());
    ASSERT_EQ(int8.interp->AllocateTensors(), StatusCode::kOk);
    ASSERT_EQ(int4.interp->AllocateTensors(), StatusCode::kOk) << int4.interp->error_message();
    EXPECT_EQ(int8.interp->memory_record().scratch_requests, 0u);
    EXPECT_EQ(int4.interp->memory_record().scratch_requests, 1u);
    EXPECT_EQ(int8.interp->memory_record().head_bytes, Align16(in) + Align16(out));
    EXPECT_EQ(int4.interp->memory_record().head_bytes, Align16(in) + Align16(out) + Align16(filter));
  }
}

TEST(Int4Weights, AnInt4FilterComputedAtRunTimeIsRefusedAtBinding) {
  // TFLM unpacks the filter's bytes as stored; a planned INT4 tensor has no packed form here.
  const Case c = Cases()[0];
  ModelSpec spec;
  const uint32_t code = model::AddOperatorCode(spec, static_cast<int32_t>(c.code));
  model::SubgraphSpec sg;
  sg.tensors = {{"input", MT::kInt8, c.input_shape, 0, false, Q({0.05f}, 0)},
                {"filter", MT::kInt4, c.filter_shape, 0, false, Q(c.filter_scales, 0)},
                {"output", MT::kInt8, c.output_shape, 0, false, Q({0.02f}, 0)}};
  sg.inputs = {0, 1};
  sg.outputs = {2};
  OperatorSpec op{code, {0, 1}, {2}};
  op.options = c.options;
  sg.operators = {op};
  spec.subgraphs.push_back(sg);
  ModelRun r(model::WriteModel(spec), AllOpsResolver());
  EXPECT_EQ(r.interp->AllocateTensors(), StatusCode::kUnsupported);
  EXPECT_STREQ(r.interp->error_message(),
               "subgraph 0, tensor 1: INT4 tensor is not constant (this runtime runs INT4 only as constant filters)");
}

TEST(Int4Weights, TypePairsTflmRefuses) {
  model::OpOptions fc;
  fc.kind = model::OptionsKind::kFullyConnected;
  model::OpOptions dw;
  dw.kind = model::OptionsKind::kDepthwiseConv2D;
  model::OpOptions conv;
  conv.kind = model::OptionsKind::kConv2D;
  // int16 input: FULLY_CONNECTED and CONV_2D refuse INT4 in Prepare (AllocateTensors) ...
  for (const Case& c : {Case{"fc16", tfl::BuiltinOperator::FULLY_CONNECTED, fc, {1, 3}, {2, 3}, {1, 2}, {0.01f}, 0,
                             MT::kInt16},
                        Case{"conv16", tfl::BuiltinOperator::CONV_2D, conv, {1, 2, 2, 1}, {1, 1, 1, 1}, {1, 2, 2, 1},
                             {0.01f}, 0, MT::kInt16}}) {
    SCOPED_TRACE(c.name);
    ModelRun r(Build(c, MT::kInt4), AllOpsResolver());
    EXPECT_EQ(r.interp->AllocateTensors(), StatusCode::kUnsupported);
    EXPECT_NE(std::string(r.interp->error_message()).find("filter INT4 not supported"), std::string::npos)
        << r.interp->error_message();
  }
  // ... DEPTHWISE_CONV_2D's Prepare takes it and its Invoke fails, with TFLM's message.
  const Case d{"dw16", tfl::BuiltinOperator::DEPTHWISE_CONV_2D, dw, {1, 2, 2, 1}, {1, 1, 1, 1}, {1, 2, 2, 1},
               {0.01f}, 3, MT::kInt16};
  ModelRun r(Build(d, MT::kInt4), AllOpsResolver());
  ASSERT_EQ(r.interp->AllocateTensors(), StatusCode::kOk) << r.interp->error_message();
  EXPECT_EQ(r.interp->Invoke(), StatusCode::kUnsupported);
  EXPECT_STREQ(r.interp->error_message(),
               "subgraph 0, op 0 (DEPTHWISE_CONV_2D): Filter type INT4 (18) for input type INT16 not supported.");
}

}  // namespace
}  // namespace arenaplan::rt
