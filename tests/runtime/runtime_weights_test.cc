// Weights and bias computed at run time (graph inputs here), which TFLM accepts for CONV_2D,
// DEPTHWISE_CONV_2D and FULLY_CONNECTED: the kernels must not read them in Prepare (their data
// is not planned yet) and must give the same result as with constant weights. Models are built
// in memory; expected outputs are worked out by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "model/writer.h"
#include "runtime/interpreter.h"
#include "runtime/op_resolver.h"
#include "util/aligned_bytes.h"

namespace arenaplan::rt {
namespace {

using model::ModelSpec;
using model::OperatorSpec;
using model::TensorSpec;
using MT = model::TensorType;

// One operator whose inputs are all graph inputs.
struct OneOp {
  tfl::BuiltinOperator code;
  model::OpOptions options;
  std::vector<TensorSpec> inputs;  // a name of "-" marks an omitted optional input
  TensorSpec output;
};

const TensorSpec kOmitted{"-", MT::kFloat32, {}};

std::vector<uint8_t> Build(const OneOp& def) {
  ModelSpec spec;
  const uint32_t code = model::AddOperatorCode(spec, static_cast<int32_t>(def.code));
  model::SubgraphSpec sg;
  OperatorSpec op{code, {}, {}};
  op.options = def.options;
  for (const TensorSpec& t : def.inputs) {
    if (t.name == "-") {
      op.inputs.push_back(-1);
      continue;
    }
    op.inputs.push_back(static_cast<int32_t>(sg.tensors.size()));
    sg.inputs.push_back(static_cast<int32_t>(sg.tensors.size()));
    sg.tensors.push_back(t);
  }
  op.outputs = {static_cast<int32_t>(sg.tensors.size())};
  sg.outputs = op.outputs;
  sg.tensors.push_back(def.output);
  sg.operators = {op};
  spec.subgraphs.push_back(sg);
  return model::WriteModel(spec);
}

struct OneRun {
  std::vector<uint8_t> model;
  AlignedBytes arena{8192};
  std::unique_ptr<Interpreter> interp;
  explicit OneRun(std::vector<uint8_t> m) : model(std::move(m)) {
    interp = std::make_unique<Interpreter>(model.data(), model.size(), AllOpsResolver(), arena.data(), arena.size());
  }
};

template <typename T>
void Set(Interpreter& in, uint32_t k, std::vector<T> v) {
  ASSERT_EQ(in.input(k).bytes, v.size() * sizeof(T));
  std::memcpy(in.input(k).data, v.data(), in.input(k).bytes);
}

template <typename T>
std::vector<T> Out(const Interpreter& in) {
  const TensorView o = in.output(0);
  return std::vector<T>(o.As<T>(), o.As<T>() + o.bytes / sizeof(T));
}

model::Quantization Q(float scale, int64_t zp) {
  model::Quantization q;
  q.scale = {scale};
  q.zero_point = {zp};
  return q;
}

TEST(RuntimeWeightsTest, Conv2DFilterAndBiasFromInputs) {
  model::OpOptions o;
  o.kind = model::OptionsKind::kConv2D;
  o.padding_same = false;
  OneRun r(Build({tfl::BuiltinOperator::CONV_2D,
                  o,
                  {TensorSpec{"x", MT::kFloat32, {1, 2, 2, 1}}, TensorSpec{"w", MT::kFloat32, {1, 1, 1, 1}},
                   TensorSpec{"b", MT::kFloat32, {1}}},
                  TensorSpec{"y", MT::kFloat32, {1, 2, 2, 1}}}));
  ASSERT_EQ(r.interp->AllocateTensors(), StatusCode::kOk) << r.interp->error_message();
  Set<float>(*r.interp, 0, {1, 2, 3, 4});
  Set<float>(*r.interp, 1, {2});
  Set<float>(*r.interp, 2, {1});
  ASSERT_EQ(r.interp->Invoke(), StatusCode::kOk) << r.interp->error_message();
  EXPECT_EQ(Out<float>(*r.interp), (std::vector<float>{3, 5, 7, 9}));
  Set<float>(*r.interp, 1, {-1});  // new weights, same interpreter
  ASSERT_EQ(r.interp->Invoke(), StatusCode::kOk);
  EXPECT_EQ(Out<float>(*r.interp), (std::vector<float>{0, -1, -2, -3}));
}

TEST(RuntimeWeightsTest, DepthwiseFilterFromAnInputWithoutBias) {
  model::OpOptions o;
  o.kind = model::OptionsKind::kDepthwiseConv2D;
  o.padding_same = false;
  OneRun r(Build({tfl::BuiltinOperator::DEPTHWISE_CONV_2D,
                  o,
                  {TensorSpec{"x", MT::kFloat32, {1, 1, 1, 2}}, TensorSpec{"w", MT::kFloat32, {1, 1, 1, 2}}, kOmitted},
                  TensorSpec{"y", MT::kFloat32, {1, 1, 1, 2}}}));
  ASSERT_EQ(r.interp->AllocateTensors(), StatusCode::kOk) << r.interp->error_message();
  Set<float>(*r.interp, 0, {3, 4});
  Set<float>(*r.interp, 1, {2, -1});
  ASSERT_EQ(r.interp->Invoke(), StatusCode::kOk) << r.interp->error_message();
  EXPECT_EQ(Out<float>(*r.interp), (std::vector<float>{6, -4}));
}

TEST(RuntimeWeightsTest, FullyConnectedFloatAndInt8) {
  model::OpOptions o;
  o.kind = model::OptionsKind::kFullyConnected;
  OneRun f(Build({tfl::BuiltinOperator::FULLY_CONNECTED,
                  o,
                  {TensorSpec{"x", MT::kFloat32, {1, 3}}, TensorSpec{"w", MT::kFloat32, {2, 3}},
                   TensorSpec{"b", MT::kFloat32, {2}}},
                  TensorSpec{"y", MT::kFloat32, {1, 2}}}));
  ASSERT_EQ(f.interp->AllocateTensors(), StatusCode::kOk) << f.interp->error_message();
  Set<float>(*f.interp, 0, {1, 2, 3});
  Set<float>(*f.interp, 1, {1, 0, 0, 0, 1, 1});
  Set<float>(*f.interp, 2, {10, 20});
  ASSERT_EQ(f.interp->Invoke(), StatusCode::kOk) << f.interp->error_message();
  EXPECT_EQ(Out<float>(*f.interp), (std::vector<float>{11, 25}));
  // int8, scales 1 and zero points 0, no bias: [1, 2] . [3, 4] = 11.
  OneRun q(Build({tfl::BuiltinOperator::FULLY_CONNECTED,
                  o,
                  {TensorSpec{"x", MT::kInt8, {1, 2}, 0, false, Q(1, 0)},
                   TensorSpec{"w", MT::kInt8, {1, 2}, 0, false, Q(1, 0)}, kOmitted},
                  TensorSpec{"y", MT::kInt8, {1, 1}, 0, false, Q(1, 0)}}));
  ASSERT_EQ(q.interp->AllocateTensors(), StatusCode::kOk) << q.interp->error_message();
  Set<int8_t>(*q.interp, 0, {1, 2});
  Set<int8_t>(*q.interp, 1, {3, 4});
  ASSERT_EQ(q.interp->Invoke(), StatusCode::kOk) << q.interp->error_message();
  EXPECT_EQ(Out<int8_t>(*q.interp), (std::vector<int8_t>{11}));
}

}  // namespace
}  // namespace arenaplan::rt
