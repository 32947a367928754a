// Control flow in the interpreter on small models written with model::WriteModel: IF picks a
// branch, WHILE loops with TFLM's copy semantics, CALL_ONCE runs its init subgraph once (again after
// Reset), and AllocateTensors rejects cyclic, out-of-range and too deeply nested subgraph calls.
// Expected values are worked out by hand in each test's comment.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "model/writer.h"
#include "rules/limits.h"
#include "runtime/interpreter.h"
#include "util/aligned_bytes.h"

namespace arenaplan::rt {
namespace {

using model::ModelSpec;
using model::OperatorSpec;
using model::OptionsKind;
using model::SubgraphSpec;
using model::TensorSpec;
using MT = model::TensorType;
using B = tfl::BuiltinOperator;

template <typename T>
std::vector<uint8_t> Bytes(std::vector<T> v) {
  std::vector<uint8_t> out(v.size() * sizeof(T));
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

OperatorSpec Op(uint32_t code, std::vector<int32_t> in, std::vector<int32_t> out, OptionsKind kind = OptionsKind::kNone,
                int32_t a = 0, int32_t b = 0) {
  OperatorSpec op{code, std::move(in), std::move(out), {}, {}, {}};
  op.options.kind = kind;
  op.options.subgraph_a = a;
  op.options.subgraph_b = b;
  return op;
}

struct Harness {
  explicit Harness(std::vector<uint8_t> m, size_t arena_bytes = 8192) : model(std::move(m)), arena(arena_bytes) {
    interp = std::make_unique<Interpreter>(model.data(), model.size(), AllOpsResolver(), arena.data(), arena.size());
  }
  std::vector<uint8_t> model;
  AlignedBytes arena;
  std::unique_ptr<Interpreter> interp;
};

// IF(cond, x): then = x + x, else = x + 10.
ModelSpec IfSpec() {
  ModelSpec spec;
  const uint32_t if_code = model::AddOperatorCode(spec, static_cast<int32_t>(B::IF));
  const uint32_t add = model::AddOperatorCode(spec, static_cast<int32_t>(B::ADD));
  const uint32_t ten = model::AddBuffer(spec, Bytes<float>({10, 10}));
  SubgraphSpec main;
  main.tensors = {TensorSpec{"cond", MT::kBool, {1}}, TensorSpec{"x", MT::kFloat32, {2}},
                  TensorSpec{"y", MT::kFloat32, {2}}};
  main.inputs = {0, 1};
  main.outputs = {2};
  main.operators = {Op(if_code, {0, 1}, {2}, OptionsKind::kIf, 1, 2)};
  SubgraphSpec then_sg;
  then_sg.tensors = {TensorSpec{"a", MT::kFloat32, {2}}, TensorSpec{"r", MT::kFloat32, {2}}};
  then_sg.inputs = {0};
  then_sg.outputs = {1};
  then_sg.operators = {Op(add, {0, 0}, {1}, OptionsKind::kAdd)};
  SubgraphSpec else_sg;
  else_sg.tensors = {TensorSpec{"a", MT::kFloat32, {2}}, TensorSpec{"c", MT::kFloat32, {2}, ten},
                     TensorSpec{"r", MT::kFloat32, {2}}};
  else_sg.inputs = {0};
  else_sg.outputs = {2};
  else_sg.operators = {Op(add, {0, 1}, {2}, OptionsKind::kAdd)};
  spec.subgraphs = {main, then_sg, else_sg};
  return spec;
}

TEST(ControlFlow, IfRunsTheChosenBranch) {
  Harness h(model::WriteModel(IfSpec()));
  Interpreter& in = *h.interp;
  ASSERT_EQ(in.AllocateTensors(), StatusCode::kOk) << in.error_message();
  EXPECT_EQ(in.subgraphs_size(), 3u);
  const float x[2] = {1.5f, -2.0f};
  std::memcpy(in.input(1).data, x, 8);
  *static_cast<uint8_t*>(in.input(0).data) = 1;
  ASSERT_EQ(in.Invoke(), StatusCode::kOk) << in.error_message();
  EXPECT_EQ(in.output(0).As<float>()[0], 3.0f);
  EXPECT_EQ(in.output(0).As<float>()[1], -4.0f);
  *static_cast<uint8_t*>(in.input(0).data) = 0;
  std::memcpy(in.input(1).data, x, 8);
  ASSERT_EQ(in.Invoke(), StatusCode::kOk) << in.error_message();
  EXPECT_EQ(in.output(0).As<float>()[0], 11.5f);
  EXPECT_EQ(in.output(0).As<float>()[1], 8.0f);
}

// WHILE(i, x) with cond i < 5 and body (i + 1, x + x): from (0, 1) to (5, 32).
ModelSpec WhileSpec(int32_t cond_index = 1, int32_t body_index = 2) {
  ModelSpec spec;
  const uint32_t while_code = model::AddOperatorCode(spec, static_cast<int32_t>(B::WHILE));
  const uint32_t less = model::AddOperatorCode(spec, static_cast<int32_t>(B::LESS));
  const uint32_t add = model::AddOperatorCode(spec, static_cast<int32_t>(B::ADD));
  const uint32_t five = model::AddBuffer(spec, Bytes<int32_t>({5}));
  const uint32_t one = model::AddBuffer(spec, Bytes<int32_t>({1}));
  SubgraphSpec main;
  main.tensors = {TensorSpec{"i", MT::kInt32, {1}}, TensorSpec{"x", MT::kFloat32, {1}},
                  TensorSpec{"i_out", MT::kInt32, {1}}, TensorSpec{"x_out", MT::kFloat32, {1}}};
  main.inputs = {0, 1};
  main.outputs = {2, 3};
  main.operators = {Op(while_code, {0, 1}, {2, 3}, OptionsKind::kWhile, cond_index, body_index)};
  SubgraphSpec cond;
  cond.tensors = {TensorSpec{"i", MT::kInt32, {1}}, TensorSpec{"x", MT::kFloat32, {1}},
                  TensorSpec{"five", MT::kInt32, {1}, five}, TensorSpec{"go", MT::kBool, {1}}};
  cond.inputs = {0, 1};
  cond.outputs = {3};
  cond.operators = {Op(less, {0, 2}, {3})};
  SubgraphSpec body;
  body.tensors = {TensorSpec{"i", MT::kInt32, {1}}, TensorSpec{"x", MT::kFloat32, {1}},
                  TensorSpec{"one", MT::kInt32, {1}, one}, TensorSpec{"i1", MT::kInt32, {1}},
                  TensorSpec{"x2", MT::kFloat32, {1}}};
  body.inputs = {0, 1};
  body.outputs = {3, 4};
  body.operators = {Op(add, {0, 2}, {3}, OptionsKind::kAdd), Op(add, {1, 1}, {4}, OptionsKind::kAdd)};
  spec.subgraphs = {main, cond, body};
  return spec;
}

TEST(ControlFlow, WhileLoopsUntilTheConditionFails) {
  Harness h(model::WriteModel(WhileSpec()));
  Interpreter& in = *h.interp;
  ASSERT_EQ(in.AllocateTensors(), StatusCode::kOk) << in.error_message();
  // Lifetimes on one counter: main op at 1, cond marked from 2 (LESS at 3), body from 4 (ops 5, 6);
  // the WHILE's inputs and outputs live [0..6] / [1..6], so no head slot is shared with them.
  const uint32_t used = in.arena_used_bytes();
  for (int32_t start : {0, 3, 7}) {
    const int32_t i0 = start;
    const float x0 = 1.0f;
    std::memcpy(in.input(0).data, &i0, 4);
    std::memcpy(in.input(1).data, &x0, 4);
    ASSERT_EQ(in.Invoke(), StatusCode::kOk) << in.error_message();
    const int32_t loops = start < 5 ? 5 - start : 0;
    EXPECT_EQ(in.output(0).As<int32_t>()[0], start < 5 ? 5 : start);
    EXPECT_EQ(in.output(1).As<float>()[0], static_cast<float>(1 << loops));
  }
  EXPECT_EQ(in.arena_used_bytes(), used);  // nothing is allocated during Invoke
}

TEST(ControlFlow, CyclicSubgraphCallIsRejected) {
  // The body is subgraph 0 itself: WHILE would recurse forever.
  Harness h(model::WriteModel(WhileSpec(1, 0)));
  EXPECT_EQ(h.interp->AllocateTensors(), StatusCode::kInvalidModel);
  EXPECT_NE(std::string(h.interp->error_message()).find("cyclic"), std::string::npos) << h.interp->error_message();
}

TEST(ControlFlow, OutOfRangeSubgraphIsRejected) {
  Harness h(model::WriteModel(WhileSpec(1, 7)));
  EXPECT_EQ(h.interp->AllocateTensors(), StatusCode::kInvalidModel);
  EXPECT_NE(std::string(h.interp->error_message()).find("WhileOptions subgraph 7 out of range (3 subgraphs)"),
            std::string::npos)
      << h.interp->error_message();
}

// Subgraph s CALL_ONCEs subgraph s + 1, `levels` deep.
ModelSpec CallChain(uint32_t levels) {
  ModelSpec spec;
  const uint32_t call = model::AddOperatorCode(spec, static_cast<int32_t>(B::CALL_ONCE));
  for (uint32_t s = 0; s <= levels; ++s) {
    SubgraphSpec sg;
    if (s < levels) sg.operators = {Op(call, {}, {}, OptionsKind::kCallOnce, static_cast<int32_t>(s + 1))};
    spec.subgraphs.push_back(sg);
  }
  return spec;
}

TEST(ControlFlow, NestingIsBoundedAndRunsUpToTheLimit) {
  Harness ok(model::WriteModel(CallChain(rules::kMaxCallDepth)));
  ASSERT_EQ(ok.interp->AllocateTensors(), StatusCode::kOk) << ok.interp->error_message();
  EXPECT_EQ(ok.interp->Invoke(), StatusCode::kOk) << ok.interp->error_message();
  Harness deep(model::WriteModel(CallChain(rules::kMaxCallDepth + 1)));
  EXPECT_EQ(deep.interp->AllocateTensors(), StatusCode::kUnsupported);
  EXPECT_NE(std::string(deep.interp->error_message()).find("nested deeper than 16"), std::string::npos)
      << deep.interp->error_message();
}

TEST(ControlFlow, ExponentialCallExpansionIsRejected) {
  // Subgraphs 0..9 each CALL_ONCE the next four times: 4 + 16 + ... + 4^10 = 1,398,100 operator
  // visits of TFLM's lifetime walk, more than rules::kMaxOperatorVisits.
  ModelSpec spec;
  const uint32_t call = model::AddOperatorCode(spec, static_cast<int32_t>(B::CALL_ONCE));
  for (uint32_t s = 0; s <= 10; ++s) {
    SubgraphSpec sg;
    for (int k = 0; s < 10 && k < 4; ++k) {
      sg.operators.push_back(Op(call, {}, {}, OptionsKind::kCallOnce, static_cast<int32_t>(s + 1)));
    }
    spec.subgraphs.push_back(sg);
  }
  Harness h(model::WriteModel(spec));
  EXPECT_EQ(h.interp->AllocateTensors(), StatusCode::kUnsupported);
  EXPECT_NE(std::string(h.interp->error_message()).find("more than 1000000 operator visits"), std::string::npos)
      << h.interp->error_message();
}

TEST(ControlFlow, ResetBeforeAllocateIsAnError) {
  Harness h(model::WriteModel(IfSpec()));
  EXPECT_EQ(h.interp->Reset(), StatusCode::kBadState);
}

}  // namespace
}  // namespace arenaplan::rt
