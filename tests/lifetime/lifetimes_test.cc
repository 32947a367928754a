// Lifetimes of small hand-drawn graphs (docs/tflm-arena.md §3). Each graph is drawn in a comment
// with the expected [first, last] of every planned buffer; times are TFLM's global counter.
#include <gtest/gtest.h>

#include "lifetime/lifetimes.h"
#include "model/offline_plan.h"
#include "model/writer.h"
#include "plan/lower_bound.h"
#include "plan/tflm_greedy.h"

namespace arenaplan::lifetime {
namespace {

using model::ModelSpec;
using model::OperatorSpec;
using model::OptionsKind;
using model::SubgraphSpec;
using model::TensorSpec;
using model::TensorType;

constexpr int32_t kAdd = 0, kLess = 58, kAssignVariable = 144;

TensorSpec T(const std::string& name, std::vector<int32_t> shape, TensorType type = TensorType::kFloat32) {
  return {name, type, std::move(shape), 0, false, std::nullopt, {}};
}

OperatorSpec Op(ModelSpec& spec, int32_t code, std::vector<int32_t> in, std::vector<int32_t> out) {
  return {model::AddOperatorCode(spec, code), std::move(in), std::move(out), {}, {}, {}};
}

OperatorSpec Call(ModelSpec& spec, int32_t code, std::vector<int32_t> in, std::vector<int32_t> out, int32_t a,
                  int32_t b = 0) {
  OperatorSpec op = Op(spec, code, std::move(in), std::move(out));
  op.options.kind = code == model::op::kIf      ? OptionsKind::kIf
                    : code == model::op::kWhile ? OptionsKind::kWhile
                                                : OptionsKind::kCallOnce;
  op.options.subgraph_a = a;
  op.options.subgraph_b = b;
  return op;
}

struct Expect {
  std::string id;
  uint64_t size;
  int64_t first, last, offline;
};

Result<Lifetimes> Compute(const ModelSpec& spec, const Options& options = {}) {
  static std::vector<std::vector<uint8_t>> keep;  // Model points into the bytes
  keep.push_back(model::WriteModel(spec));
  auto m = model::ReadModel(keep.back().data(), keep.back().size());
  if (!m.ok()) return m.status();
  return ComputeLifetimes(*m, options);
}

void ExpectBuffers(const Lifetimes& lt, const std::vector<Expect>& expected) {
  ASSERT_EQ(lt.buffers.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(expected[i].id);
    EXPECT_EQ(lt.buffers[i].id, expected[i].id);
    EXPECT_EQ(lt.buffers[i].size, expected[i].size);
    EXPECT_EQ(lt.buffers[i].first, expected[i].first);
    EXPECT_EQ(lt.buffers[i].last, expected[i].last);
    EXPECT_EQ(lt.buffers[i].offline_offset, expected[i].offline);
  }
}

::testing::AssertionResult Fails(const Result<Lifetimes>& r, ErrorCode code, const std::string& words) {
  if (r.ok()) return ::testing::AssertionFailure() << "succeeded";
  if (r.status().code() != code) return ::testing::AssertionFailure() << r.status().ToString();
  if (r.status().message().find(words) == std::string::npos) {
    return ::testing::AssertionFailure() << "\"" << r.status().message() << "\" lacks \"" << words << "\"";
  }
  return ::testing::AssertionSuccess();
}

// Branches, a constant, an unused tensor, a tensor nobody produces, a zero-byte output.
//
//   t0 (input, [1,4]) --op0(t0, t7 const)--> t1 --op1--> t2, t8 ([0], zero bytes) --+
//                                             |                                     op3 --> t4 (output)
//                                             +--op2(t1, t6)--> t3 ------------------+
//   t5: referenced by nothing. t6: read by op2, produced by nobody (first stays -1).
//
//   time: inputs 0, op k runs at k+1.
//   t0 [0,1]  t1 [1,3]  t2 [2,4]  t3 [3,4]  t4 [4,4]  t5 [-1,-1]  t6 [-1,3]; t7, t8 not planned.
ModelSpec BranchesSpec() {
  ModelSpec spec;
  spec.subgraphs.push_back({});
  SubgraphSpec& sg = spec.subgraphs[0];
  const uint32_t w = model::AddBuffer(spec, std::vector<uint8_t>(16, 0));
  sg.tensors = {T("t0", {1, 4}),
                T("t1", {1, 4}),
                T("t2", {1, 4}),
                T("t3", {1, 4}),
                T("t4", {1, 4}),
                T("t5", {2, 3}),
                T("t6", {10}, TensorType::kInt8),
                T("t7", {1, 4}),
                T("t8", {0})};
  sg.tensors[7].buffer = w;
  sg.operators = {Op(spec, kAdd, {0, 7}, {1}), Op(spec, kAdd, {1}, {2, 8}), Op(spec, kAdd, {1, 6}, {3}),
                  Op(spec, kAdd, {2, 3}, {4})};
  sg.inputs = {0};
  sg.outputs = {4};
  return spec;
}

TEST(Lifetimes, BranchesUnusedAndUnproducedTensors) {
  auto lt = Compute(BranchesSpec());
  ASSERT_TRUE(lt.ok()) << lt.status().ToString();
  ExpectBuffers(*lt, {{"s0t0", 16, 0, 1, -1},
                      {"s0t1", 16, 1, 3, -1},
                      {"s0t2", 16, 2, 4, -1},
                      {"s0t3", 16, 3, 4, -1},
                      {"s0t4", 16, 4, 4, -1},
                      {"s0t5", 32, -1, -1, -1},
                      {"s0t6", 16, -1, 3, -1}});
  EXPECT_EQ(lt->steps, 4);
  EXPECT_EQ(lt->buffers[5].bytes, 24u);
  EXPECT_EQ(lt->buffers[6].name, "t6");
  EXPECT_EQ(lt->buffers[6].subgraph, 0);
  EXPECT_EQ(lt->buffers[6].tensor, 6);
}

// WHILE (cond 1, body 2). The counter steps into each called subgraph.
//
//   s0: t0 (in) --op0 WHILE--> t1 --op1 ADD(t1,t1)--> t2 (out)
//   s1 (cond): c0 (in) --LESS(c0, c2 const)--> c1 (out, bool)
//   s2 (body): b0 (in) --ADD--> b1 (out)
//
//   t=0 s0 inputs; t=1 op0 (t1 born, start=1); t=2 Mark(s1): c0 [2,3], op at 3: c1 [3,3];
//   t=4 Mark(s2): b0 [4,5], op at 5: b1 [5,5]; back in op0: t0, t1 last = 5; t=6 op1.
//   s0t0 [0,5]  s0t1 [1,6]  s0t2 [6,6]  s1t0 [2,3]  s1t1 [3,3]  s2t0 [4,5]  s2t1 [5,5]
ModelSpec WhileSpec() {
  ModelSpec spec;
  spec.subgraphs.resize(3);
  const uint32_t limit = model::AddBuffer(spec, {10, 0, 0, 0});
  SubgraphSpec& s0 = spec.subgraphs[0];
  s0.tensors = {T("t0", {4}), T("t1", {4}), T("t2", {4})};
  s0.operators = {Call(spec, model::op::kWhile, {0}, {1}, 1, 2), Op(spec, kAdd, {1, 1}, {2})};
  s0.inputs = {0};
  s0.outputs = {2};
  SubgraphSpec& s1 = spec.subgraphs[1];
  s1.tensors = {T("c0", {4}), T("c1", {}, TensorType::kBool), T("c2", {}, TensorType::kInt32)};
  s1.tensors[2].buffer = limit;
  s1.operators = {Op(spec, kLess, {0, 2}, {1})};
  s1.inputs = {0};
  s1.outputs = {1};
  SubgraphSpec& s2 = spec.subgraphs[2];
  s2.tensors = {T("b0", {4}), T("b1", {4})};
  s2.operators = {Op(spec, kAdd, {0, 0}, {1})};
  s2.inputs = {0};
  s2.outputs = {1};
  return spec;
}

TEST(Lifetimes, WhileWalksCondThenBodyOnOneCounter) {
  auto lt = Compute(WhileSpec());
  ASSERT_TRUE(lt.ok()) << lt.status().ToString();
  ExpectBuffers(*lt, {{"s0t0", 16, 0, 5, -1},
                      {"s0t1", 16, 1, 6, -1},
                      {"s0t2", 16, 6, 6, -1},
                      {"s1t0", 16, 2, 3, -1},
                      {"s1t1", 16, 3, 3, -1},
                      {"s2t0", 16, 4, 5, -1},
                      {"s2t1", 16, 5, 5, -1}});
  EXPECT_EQ(lt->steps, 6);
}

// Scratch requests on the WHILE graph, in TFLM's Prepare order (ops numbered over all subgraphs:
// s0 0..1, s1 2, s2 3): born at the requesting op's start, last at its end.
//   scratch0: s0 op0 (WHILE), 100 B -> [1,5] (the op spans its callees), size 112
//   scratch1: s0 op1, 1 B -> [6,6], size 16;  scratch2: s2 op0, 16 B -> [5,5]
TEST(Lifetimes, ScratchRequestsFollowTheirOp) {
  Options options;
  options.scratch = {{100, 0}, {1, 1}, {16, 3}};
  auto lt = Compute(WhileSpec(), options);
  ASSERT_TRUE(lt.ok()) << lt.status().ToString();
  ASSERT_EQ(lt->buffers.size(), 10u);
  const BufferLifetime& s0 = lt->buffers[7];
  EXPECT_EQ(s0.id, "scratch0");
  EXPECT_EQ(s0.name, "scratch0 (WHILE #0)");
  EXPECT_EQ(s0.bytes, 100u);
  EXPECT_EQ(s0.size, 112u);
  EXPECT_EQ(s0.first, 1);
  EXPECT_EQ(s0.last, 5);
  EXPECT_EQ(s0.scratch, 0);
  EXPECT_EQ(s0.op, 0);
  EXPECT_EQ(s0.tensor, -1);
  EXPECT_EQ(lt->buffers[8].id, "scratch1");
  EXPECT_EQ(lt->buffers[8].size, 16u);
  EXPECT_EQ(lt->buffers[8].first, 6);
  EXPECT_EQ(lt->buffers[8].last, 6);
  EXPECT_EQ(lt->buffers[9].first, 5);
  EXPECT_EQ(lt->buffers[9].last, 5);
  EXPECT_EQ(lt->buffers[9].subgraph, 2);
  EXPECT_EQ(lt->buffers[9].op, 0);
  EXPECT_EQ(lt->buffers[9].name, "scratch2 (ADD #0)");
  const std::vector<uint8_t> bytes = model::WriteModel(WhileSpec());
  auto m = model::ReadModel(bytes.data(), bytes.size());
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(GlobalOp(*m, 0, 1), 1u);
  EXPECT_EQ(GlobalOp(*m, 2, 0), 3u);
  options.scratch = {{8, 4}};
  EXPECT_TRUE(Fails(Compute(WhileSpec(), options), ErrorCode::kInvalidArgument,
                    "scratch request 0: op 4 is out of order or does not exist (4 ops)"));
  options.scratch = {{8, 3}, {8, 1}};
  EXPECT_TRUE(
      Fails(Compute(WhileSpec(), options), ErrorCode::kInvalidArgument, "scratch request 1: op 1 is out of order"));
}

// CALL_ONCE (init 3), IF (then 1, else 2), VAR_HANDLE, and an unreachable subgraph 4.
//
//   s0: op0 CALL_ONCE(init=3); op1 IF(t0 cond, t1) --> t2 (out); inputs t0, t1
//   s1 (then): a0 --ADD--> a1     s2 (else): b0 --ADD--> b1
//   s3 (init): VAR_HANDLE --> h0 (resource); ASSIGN_VARIABLE(h0, k const)
//   s4: u0 --ADD--> u1, called by nobody
//
//   t=0 inputs t0, t1; t=1 op0; t=2 Mark(s3): t=3 VAR_HANDLE, t=4 ASSIGN; t=5 op1 (t2 born);
//   t=6 Mark(s1): a0 [6,7], a1 [7,7]; t=8 Mark(s2): b0 [8,9], b1 [9,9]; op1 ends at 9.
//   s0t0 [0,9]  s0t1 [0,9]  s0t2 [5,9]  s1t0 [6,7]  s1t1 [7,7]  s2t0 [8,9]  s2t1 [9,9]
//   h0: never planned (TFLM points VAR_HANDLE outputs at the resource); s4: [-1,-1].
TEST(Lifetimes, IfCallOnceVarHandleAndUnreachableSubgraph) {
  ModelSpec spec;
  spec.subgraphs.resize(5);
  const uint32_t k = model::AddBuffer(spec, {1, 2, 3, 4});
  SubgraphSpec& s0 = spec.subgraphs[0];
  s0.tensors = {T("cond", {}, TensorType::kBool), T("x", {2}), T("y", {2})};
  s0.operators = {Call(spec, model::op::kCallOnce, {}, {}, 3), Call(spec, model::op::kIf, {0, 1}, {2}, 1, 2)};
  s0.inputs = {0, 1};
  s0.outputs = {2};
  for (int s : {1, 2, 4}) {
    SubgraphSpec& sg = spec.subgraphs[s];
    sg.tensors = {T("in", {2}), T("out", {2})};
    sg.operators = {Op(spec, kAdd, {0, 0}, {1})};
    sg.inputs = {0};
    sg.outputs = {1};
  }
  SubgraphSpec& s3 = spec.subgraphs[3];
  s3.tensors = {T("h0", {}, TensorType::kResource), T("k", {1})};
  s3.tensors[1].buffer = k;
  s3.operators = {Op(spec, model::op::kVarHandle, {}, {0}), Op(spec, kAssignVariable, {0, 1}, {})};
  auto lt = Compute(spec);
  ASSERT_TRUE(lt.ok()) << lt.status().ToString();
  ExpectBuffers(*lt, {{"s0t0", 16, 0, 9, -1},
                      {"s0t1", 16, 0, 9, -1},
                      {"s0t2", 16, 5, 9, -1},
                      {"s1t0", 16, 6, 7, -1},
                      {"s1t1", 16, 7, 7, -1},
                      {"s2t0", 16, 8, 9, -1},
                      {"s2t1", 16, 9, 9, -1},
                      {"s4t0", 16, -1, -1, -1},
                      {"s4t1", 16, -1, -1, -1}});
  EXPECT_EQ(lt->steps, 9);
}

// Variables, constants and zero-byte tensors, with and without offline offsets.
//
//   t0 (in [1,4]) --op0(t0, t1 var, t2 var, t4 const)--> t3 (out)       t5: shape [0]
//   offline offsets: t0 -1, t1 -1, t2 64, t3 128, t4 256 (ignored: constant), t5 512 (ignored: 0 B)
//   -> s0t0 [0,1] online; s0t2 [-1,1] at 64 (an offline variable lives in the head); s0t3 [1,1] at 128
//   without the plan: t1 and t2 are tail-allocated variables, not planned.
TEST(Lifetimes, VariablesConstantsZeroBytesAndOfflineOffsets) {
  ModelSpec spec;
  spec.subgraphs.push_back({});
  SubgraphSpec& sg = spec.subgraphs[0];
  const uint32_t c = model::AddBuffer(spec, std::vector<uint8_t>(16, 0));
  sg.tensors = {T("in", {1, 4}), T("v1", {1, 4}), T("v2", {1, 8}), T("out", {1, 4}), T("c", {1, 4}), T("z", {0})};
  sg.tensors[1].is_variable = sg.tensors[2].is_variable = true;
  sg.tensors[4].buffer = c;
  sg.operators = {Op(spec, kAdd, {0, 1, 2, 4}, {3})};
  sg.inputs = {0};
  sg.outputs = {3};
  auto plain = Compute(spec);
  ASSERT_TRUE(plain.ok());
  ExpectBuffers(*plain, {{"s0t0", 16, 0, 1, -1}, {"s0t3", 16, 1, 1, -1}});

  model::SetMetadata(spec, "OfflineMemoryAllocation", model::EncodeOfflinePlan({-1, -1, 64, 128, 256, 512}));
  auto offline = Compute(spec);
  ASSERT_TRUE(offline.ok()) << offline.status().ToString();
  ExpectBuffers(*offline, {{"s0t0", 16, 0, 1, -1}, {"s0t2", 32, -1, 1, 64}, {"s0t3", 16, 1, 1, 128}});

  Options ignore;
  ignore.use_offline_plan = false;
  auto ignored = Compute(spec, ignore);
  ASSERT_TRUE(ignored.ok());
  ExpectBuffers(*ignored, {{"s0t0", 16, 0, 1, -1}, {"s0t3", 16, 1, 1, -1}});

  model::SetMetadata(spec, "OfflineMemoryAllocation", model::EncodeOfflinePlan({-1, -1, 64}));
  EXPECT_TRUE(Fails(Compute(spec), ErrorCode::kInvalidArgument, "3 offsets but the model has 6 tensors"));
  EXPECT_TRUE(Compute(spec, ignore).ok());
}

TEST(Lifetimes, AlignmentOption) {
  Options options;
  options.alignment = 64;
  auto lt = Compute(BranchesSpec(), options);
  ASSERT_TRUE(lt.ok());
  EXPECT_EQ(lt->buffers[0].size, 64u);
  EXPECT_EQ(lt->buffers[0].bytes, 16u);
  options.alignment = 0;
  EXPECT_TRUE(Fails(Compute(BranchesSpec(), options), ErrorCode::kInvalidArgument, "alignment"));
}

TEST(Lifetimes, StringTensorsAndNonZeroIntermediatesAreRejected) {
  ModelSpec spec = BranchesSpec();
  spec.subgraphs[0].tensors[5].type = TensorType::kString;  // even unused, as TFLM sizes every tensor
  EXPECT_TRUE(Fails(Compute(spec), ErrorCode::kUnsupported,
                    "subgraph 0, tensor 5 (t5): STRING tensors have no static byte size"));
  spec = BranchesSpec();
  spec.subgraphs[0].operators[2].intermediates = {5};
  EXPECT_TRUE(Fails(Compute(spec), ErrorCode::kUnsupported,
                    "subgraph 0, op 2 (ADD): intermediate tensor 5 (t5) has non-zero size 24 bytes"));
  spec.subgraphs[0].operators[2].intermediates = {8};  // zero bytes: fine
  EXPECT_TRUE(Compute(spec).ok());
}

TEST(Lifetimes, CyclicSubgraphCallsAreNamed) {
  ModelSpec spec;
  spec.subgraphs.resize(3);
  spec.subgraphs[0].operators = {Call(spec, model::op::kCallOnce, {}, {}, 1)};
  spec.subgraphs[1].operators = {Call(spec, model::op::kCallOnce, {}, {}, 2)};
  spec.subgraphs[2].operators = {Call(spec, model::op::kCallOnce, {}, {}, 1)};
  EXPECT_TRUE(Fails(Compute(spec), ErrorCode::kInvalidArgument, "cyclic subgraph calls: subgraph 1 -> 2 -> 1"));
  ModelSpec self;
  self.subgraphs.resize(1);
  self.subgraphs[0].operators = {Call(self, model::op::kWhile, {}, {}, 0, 0)};
  EXPECT_TRUE(Fails(Compute(self), ErrorCode::kInvalidArgument, "cyclic subgraph calls: subgraph 0 -> 0"));
}

// The walk's limits are rules/limits.h's (the runtime's too): beyond them a model is unsupported.
TEST(Lifetimes, NestingAndExpansionAreBounded) {
  ModelSpec chain;
  chain.subgraphs.resize(20);
  for (int s = 0; s + 1 < 20; ++s) chain.subgraphs[s].operators = {Call(chain, model::op::kCallOnce, {}, {}, s + 1)};
  EXPECT_TRUE(Fails(Compute(chain), ErrorCode::kUnsupported, "nested deeper than 16"));
  // 11 levels, each with two IFs calling the next level twice: 2 (1 + 4 + ... + 4^10) visits.
  ModelSpec fan;
  fan.subgraphs.resize(12);
  for (int s = 0; s + 1 < 12; ++s) {
    fan.subgraphs[s].operators = {Call(fan, model::op::kIf, {}, {}, s + 1, s + 1),
                                  Call(fan, model::op::kIf, {}, {}, s + 1, s + 1)};
  }
  EXPECT_TRUE(Fails(Compute(fan), ErrorCode::kUnsupported, "more than 1000000 operator visits"));
  ModelSpec empty;
  EXPECT_TRUE(Fails(Compute(empty), ErrorCode::kInvalidArgument, "no subgraphs"));
}

TEST(ToProblem, MapsSizesLifetimesAndFixedOffsets) {
  Lifetimes lt;
  lt.buffers.resize(3);
  lt.buffers[0].bytes = 24, lt.buffers[0].first = 0, lt.buffers[0].last = 2;
  lt.buffers[1].bytes = 16, lt.buffers[1].first = -1, lt.buffers[1].last = 1, lt.buffers[1].offline_offset = 64;
  lt.buffers[2].bytes = 1, lt.buffers[2].first = -1, lt.buffers[2].last = -1;
  const plan::Problem p = ToProblem(lt);
  ASSERT_EQ(p.buffers.size(), 3u);
  EXPECT_EQ(p.buffers[0].size, 32);
  EXPECT_EQ(p.buffers[0].first, 0);
  EXPECT_EQ(p.buffers[0].last, 2);
  EXPECT_FALSE(p.buffers[0].fixed());
  EXPECT_EQ(p.buffers[0].alignment, 16);
  EXPECT_EQ(p.buffers[1].fixed_offset, 64);
  EXPECT_EQ(p.buffers[1].first, -1);
  EXPECT_EQ(p.buffers[2].size, 16);
  EXPECT_EQ(p.buffers[2].last, -1);
  EXPECT_EQ(p.capacity, 0);
  const plan::Problem wide = ToProblem(lt, 64);
  EXPECT_EQ(wide.buffers[0].size, 64);
  EXPECT_EQ(wide.buffers[0].alignment, 64);
}

// The demo model (drawn in src/model/demo_model.cc). Live bytes peak at time 8: d (2048) + e, g, h
// (3 x 4096) = 14336; greedy-by-size leaves holes and needs 18432 (measured, TFLM-exact planner).
TEST(DemoModel, LifetimesAndGreedyGap) {
  const auto bytes = model::DemoModel();
  auto m = model::ReadModel(bytes.data(), bytes.size());
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  for (const auto& code : m->operator_codes) {
    EXPECT_TRUE(code.name == "CONV_2D" || code.name == "DEPTHWISE_CONV_2D" || code.name == "ADD" ||
                code.name == "AVERAGE_POOL_2D" || code.name == "RESHAPE" || code.name == "FULLY_CONNECTED" ||
                code.name == "SOFTMAX")
        << code.name;
  }
  auto lt = ComputeLifetimes(*m);
  ASSERT_TRUE(lt.ok());
  ExpectBuffers(*lt, {{"s0t0", 3072, 0, 1, -1},
                      {"s0t3", 8192, 1, 3, -1},
                      {"s0t6", 2048, 2, 4, -1},
                      {"s0t9", 2048, 3, 4, -1},
                      {"s0t10", 2048, 4, 9, -1},
                      {"s0t13", 4096, 5, 8, -1},
                      {"s0t16", 4096, 6, 7, -1},
                      {"s0t19", 4096, 7, 8, -1},
                      {"s0t20", 4096, 8, 10, -1},
                      {"s0t23", 4096, 9, 10, -1},
                      {"s0t24", 4096, 10, 11, -1},
                      {"s0t25", 64, 11, 12, -1},
                      {"s0t27", 64, 12, 13, -1},
                      {"s0t30", 48, 13, 14, -1},
                      {"s0t31", 48, 14, 14, -1}});
  const plan::Problem problem = ToProblem(*lt);
  EXPECT_EQ(plan::LiveBytesLowerBound(problem), 14336);
  auto greedy = plan::PlanTflmGreedy(problem, {});
  ASSERT_TRUE(greedy.ok());
  EXPECT_EQ(greedy->plan.height, 18432);
}

}  // namespace
}  // namespace arenaplan::lifetime
