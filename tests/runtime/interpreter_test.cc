// The interpreter on small models written with model::WriteModel. The float chain:
//
//   in0[1,4] --ADD(c)--> t1 --ADD(t1,t1)--> t2 --RESHAPE--> out[4]       c = 0.5 (constant)
//   times:  in0 [0,1]   t1 [1,2]   t2 [2,3]   out [3,3]   (16 bytes each)
//
// TFLM's greedy order is out, t2, t1, in0 (equal sizes: later-added first), giving offsets
// out 0, t2 16, t1 0, in0 16 and a 32-byte head. in = 1,2,3,4 -> out = 3,5,7,9.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "model/writer.h"
#include "runtime/interpreter.h"
#include "util/aligned_bytes.h"

namespace arenaplan::rt {
namespace {

using model::ModelSpec;
using model::OperatorSpec;
using model::TensorSpec;
using MT = model::TensorType;

std::vector<uint8_t> FloatBytes(std::vector<float> v) {
  std::vector<uint8_t> out(v.size() * 4);
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

ModelSpec ChainSpec() {
  ModelSpec spec;
  const uint32_t add = model::AddOperatorCode(spec, static_cast<int32_t>(tfl::BuiltinOperator::ADD));
  const uint32_t reshape = model::AddOperatorCode(spec, static_cast<int32_t>(tfl::BuiltinOperator::RESHAPE));
  const uint32_t c = model::AddBuffer(spec, FloatBytes({0.5f, 0.5f, 0.5f, 0.5f}));
  model::SubgraphSpec sg;
  sg.tensors = {TensorSpec{"in0", MT::kFloat32, {1, 4}}, TensorSpec{"c", MT::kFloat32, {1, 4}, c},
                TensorSpec{"t1", MT::kFloat32, {1, 4}}, TensorSpec{"t2", MT::kFloat32, {1, 4}},
                TensorSpec{"out", MT::kFloat32, {4}}};
  sg.inputs = {0};
  sg.outputs = {4};
  sg.operators = {OperatorSpec{add, {0, 1}, {2}}, OperatorSpec{add, {2, 2}, {3}}, OperatorSpec{reshape, {3}, {4}}};
  spec.subgraphs.push_back(sg);
  return spec;
}

struct Harness {
  explicit Harness(std::vector<uint8_t> m, size_t arena_bytes = 4096, InterpreterOptions opts = {})
      : model(std::move(m)), arena(arena_bytes), arena_base(arena.data()) {
    interp = std::make_unique<Interpreter>(model.data(), model.size(), AllOpsResolver(), arena_base, arena_bytes, opts);
  }
  std::vector<uint8_t> model;
  AlignedBytes arena;
  uint8_t* arena_base = nullptr;
  std::unique_ptr<Interpreter> interp;
};

void SetInput(Interpreter& in, std::vector<float> v) { std::memcpy(in.input(0).data, v.data(), v.size() * 4); }
std::vector<float> Output(const Interpreter& in) {
  const TensorView o = in.output(0);
  return std::vector<float>(o.As<float>(), o.As<float>() + o.bytes / 4);
}

TEST(InterpreterTest, RunsChainWithTflmGreedyOffsets) {
  Harness h(model::WriteModel(ChainSpec()));
  Interpreter& in = *h.interp;
  ASSERT_EQ(in.AllocateTensors(), StatusCode::kOk) << in.error_message();
  EXPECT_EQ(in.memory_record().head_bytes, 32u);
  EXPECT_STREQ(in.memory_record().plan_source, "tflm-greedy");
  auto offset = [&](uint32_t t) { return static_cast<uint8_t*>(in.tensor(t).data) - h.arena_base; };
  EXPECT_EQ(offset(0), 16);
  EXPECT_EQ(offset(2), 0);
  EXPECT_EQ(offset(3), 16);
  EXPECT_EQ(offset(4), 0);
  SetInput(in, {1, 2, 3, 4});
  ASSERT_EQ(in.Invoke(), StatusCode::kOk) << in.error_message();
  EXPECT_EQ(Output(in), (std::vector<float>{3, 5, 7, 9}));
  EXPECT_EQ(in.arena_used_bytes(), in.memory_record().head_bytes + in.memory_record().tail_bytes);
}

TEST(InterpreterTest, ThousandInvokesChangeNothing) {
  Harness h(model::WriteModel(ChainSpec()));
  Interpreter& in = *h.interp;
  ASSERT_EQ(in.AllocateTensors(), StatusCode::kOk) << in.error_message();
  const uint32_t used = in.arena_used_bytes();
  for (int i = 0; i < 1000; ++i) {
    SetInput(in, {1, 2, 3, 4});
    ASSERT_EQ(in.Invoke(), StatusCode::kOk) << i;
    ASSERT_EQ(Output(in), (std::vector<float>{3, 5, 7, 9})) << i;
    ASSERT_EQ(in.arena_used_bytes(), used) << i;
  }
}

TEST(InterpreterTest, TwoInterpretersSideBySideAreIndependent) {
  Harness a(model::WriteModel(ChainSpec())), b(model::WriteModel(ChainSpec()));
  ASSERT_EQ(a.interp->AllocateTensors(), StatusCode::kOk);
  ASSERT_EQ(b.interp->AllocateTensors(), StatusCode::kOk);
  for (int i = 0; i < 10; ++i) {
    SetInput(*a.interp, {1, 2, 3, 4});
    SetInput(*b.interp, {0, 0, 0, 0});
    ASSERT_EQ(a.interp->Invoke(), StatusCode::kOk);
    ASSERT_EQ(b.interp->Invoke(), StatusCode::kOk);
    EXPECT_EQ(Output(*a.interp), (std::vector<float>{3, 5, 7, 9}));
    EXPECT_EQ(Output(*b.interp), (std::vector<float>{1, 1, 1, 1}));
  }
}

// in0 --ADD(in0, c)--> t1 --ADD(t1, t1)--> t2 --RESHAPE--> out: four planned tensors (c is constant),
// no scratch. Lifetimes: in0 [0, 1], t1 [1, 2], t2 [2, 3], out [3, 3], 16 bytes each.
TEST(InterpreterTest, PlanCopyRecordsTheProblemAndThePlan) {
  std::vector<PlanBuffer> problem(8);
  std::vector<int32_t> offsets(8);
  PlanCopy copy{problem.data(), offsets.data(), 8, 0};
  InterpreterOptions opts;
  opts.plan_copy = &copy;
  Harness h(model::WriteModel(ChainSpec()), 4096, opts);
  ASSERT_EQ(h.interp->AllocateTensors(), StatusCode::kOk) << h.interp->error_message();
  ASSERT_EQ(copy.count, 4u);
  const int32_t first[] = {0, 1, 2, 3}, last[] = {1, 2, 3, 3};
  const uint32_t tensor_of_buffer[] = {0, 2, 3, 4};
  for (uint32_t b = 0; b < 4; ++b) {
    SCOPED_TRACE(b);
    EXPECT_EQ(problem[b].size, 16u);
    EXPECT_EQ(problem[b].first, first[b]);
    EXPECT_EQ(problem[b].last, last[b]);
    EXPECT_EQ(problem[b].offset, rules::kOnline);
    EXPECT_EQ(h.interp->tensor(tensor_of_buffer[b]).data, h.arena_base + offsets[b]);
  }
  PlanCopy small{problem.data(), offsets.data(), 2, 0};  // too small: only the count
  opts.plan_copy = &small;
  Harness s(model::WriteModel(ChainSpec()), 4096, opts);
  ASSERT_EQ(s.interp->AllocateTensors(), StatusCode::kOk);
  EXPECT_EQ(small.count, 4u);
}

TEST(InterpreterTest, InvokeStopsAfterTheOpBudget) {
  InterpreterOptions opts;
  opts.max_ops_per_invoke = 3;  // the chain has three ops
  Harness ok(model::WriteModel(ChainSpec()), 4096, opts);
  ASSERT_EQ(ok.interp->AllocateTensors(), StatusCode::kOk);
  EXPECT_EQ(ok.interp->Invoke(), StatusCode::kOk) << ok.interp->error_message();
  EXPECT_EQ(ok.interp->Invoke(), StatusCode::kOk);  // the budget is per Invoke
  opts.max_ops_per_invoke = 2;
  Harness cut(model::WriteModel(ChainSpec()), 4096, opts);
  ASSERT_EQ(cut.interp->AllocateTensors(), StatusCode::kOk);
  EXPECT_EQ(cut.interp->Invoke(), StatusCode::kUnsupported);
  EXPECT_STREQ(cut.interp->error_message(),
               "subgraph 0, op 2 (RESHAPE): Invoke ran more than 2 ops (InterpreterOptions::max_ops_per_invoke)");
}

TEST(InterpreterTest, TflmOrderBestFitPlannerGivesSameOutputs) {
  InterpreterOptions opts;
  opts.planner = PlannerKind::kTflmOrderBestFit;
  Harness h(model::WriteModel(ChainSpec()), 4096, opts);
  ASSERT_EQ(h.interp->AllocateTensors(), StatusCode::kOk) << h.interp->error_message();
  EXPECT_STREQ(h.interp->memory_record().plan_source, "tflm-order-best-fit");
  EXPECT_EQ(h.interp->memory_record().head_bytes, 32u);
  SetInput(*h.interp, {1, 2, 3, 4});
  ASSERT_EQ(h.interp->Invoke(), StatusCode::kOk);
  EXPECT_EQ(Output(*h.interp), (std::vector<float>{3, 5, 7, 9}));
}

TEST(InterpreterTest, SmallestArenaIsExactAndOneByteLessFailsCleanly) {
  uint32_t min_bytes = 0;
  {
    Harness h(model::WriteModel(ChainSpec()));
    ASSERT_EQ(h.interp->AllocateTensors(), StatusCode::kOk);
    min_bytes = h.interp->memory_record().min_arena_bytes;
  }
  Harness ok(model::WriteModel(ChainSpec()), min_bytes);
  ASSERT_EQ(ok.interp->AllocateTensors(), StatusCode::kOk) << ok.interp->error_message();
  SetInput(*ok.interp, {1, 2, 3, 4});
  ASSERT_EQ(ok.interp->Invoke(), StatusCode::kOk);
  EXPECT_EQ(Output(*ok.interp), (std::vector<float>{3, 5, 7, 9}));
  for (size_t less = 1; less <= min_bytes; less += 7) {
    Harness small(model::WriteModel(ChainSpec()), min_bytes - less);
    EXPECT_EQ(small.interp->AllocateTensors(), StatusCode::kArenaFull) << less;
    EXPECT_NE(std::string(small.interp->error_message()).find("arena full"), std::string::npos);
    EXPECT_EQ(small.interp->Invoke(), StatusCode::kBadState);
  }
}

TEST(InterpreterTest, CompiledPlanPerTensorIsUsed) {
  // Per tensor: in0 0, c (constant, ignored) -1, t1 32, t2 0, out 32; 64-byte head.
  const int32_t offsets[] = {0, -1, 32, 0, 32};
  const CompiledPlan plan{offsets, 5, 64};
  InterpreterOptions opts;
  opts.compiled_plan = &plan;
  Harness h(model::WriteModel(ChainSpec()), 4096, opts);
  ASSERT_EQ(h.interp->AllocateTensors(), StatusCode::kOk) << h.interp->error_message();
  EXPECT_STREQ(h.interp->memory_record().plan_source, "compiled");
  EXPECT_EQ(h.interp->memory_record().head_bytes, 64u);
  EXPECT_EQ(static_cast<uint8_t*>(h.interp->tensor(2).data) - h.arena_base, 32);
  SetInput(*h.interp, {1, 2, 3, 4});
  ASSERT_EQ(h.interp->Invoke(), StatusCode::kOk);
  EXPECT_EQ(Output(*h.interp), (std::vector<float>{3, 5, 7, 9}));
}

TEST(InterpreterTest, CompiledPlanWithOverlapIsRejected) {
  const int32_t offsets[] = {0, -1, 0, 16, 0};  // in0 and t1 both live at time 1, both at 0
  const CompiledPlan plan{offsets, 5, 32};
  InterpreterOptions opts;
  opts.compiled_plan = &plan;
  Harness h(model::WriteModel(ChainSpec()), 4096, opts);
  EXPECT_EQ(h.interp->AllocateTensors(), StatusCode::kBadArgument);
  EXPECT_NE(std::string(h.interp->error_message()).find("overlap"), std::string::npos) << h.interp->error_message();
}

TEST(InterpreterTest, OfflinePlanInMetadataWins) {
  ModelSpec spec = ChainSpec();
  const std::vector<int32_t> words = {1, 0, 5, 48, -1, 0, 16, 0};  // version, subgraph, N, offsets
  std::vector<uint8_t> bytes(words.size() * 4);
  std::memcpy(bytes.data(), words.data(), bytes.size());
  model::SetMetadata(spec, "OfflineMemoryAllocation", bytes);
  Harness h(model::WriteModel(spec));
  ASSERT_EQ(h.interp->AllocateTensors(), StatusCode::kOk) << h.interp->error_message();
  EXPECT_STREQ(h.interp->memory_record().plan_source, "offline");
  EXPECT_EQ(h.interp->memory_record().head_bytes, 64u);
  EXPECT_EQ(static_cast<uint8_t*>(h.interp->input(0).data) - h.arena_base, 48);
  SetInput(*h.interp, {1, 2, 3, 4});
  ASSERT_EQ(h.interp->Invoke(), StatusCode::kOk);
  EXPECT_EQ(Output(*h.interp), (std::vector<float>{3, 5, 7, 9}));
}

TEST(InterpreterTest, OfflinePlanWithWrongCountFails) {
  ModelSpec spec = ChainSpec();
  const std::vector<int32_t> words = {1, 0, 4, 0, -1, 0, 16};
  std::vector<uint8_t> bytes(words.size() * 4);
  std::memcpy(bytes.data(), words.data(), bytes.size());
  model::SetMetadata(spec, "OfflineMemoryAllocation", bytes);
  Harness h(model::WriteModel(spec));
  EXPECT_EQ(h.interp->AllocateTensors(), StatusCode::kInvalidModel);
  EXPECT_STREQ(h.interp->error_message(), "offline plan: 4 offsets but the model has 5 tensors over all subgraphs");
}

TEST(InterpreterTest, UnsupportedOpNamesOpAndIndex) {
  ModelSpec spec = ChainSpec();
  const uint32_t custom = model::AddOperatorCode(spec, static_cast<int32_t>(tfl::BuiltinOperator::CUSTOM),
                                                 "MyCustomOp");
  spec.subgraphs[0].operators[1].opcode_index = custom;
  Harness h(model::WriteModel(spec));
  EXPECT_EQ(h.interp->AllocateTensors(), StatusCode::kUnsupported);
  EXPECT_STREQ(h.interp->error_message(),
               "subgraph 0, op 1 (CUSTOM:MyCustomOp): op not supported by this runtime (no kernel registered)");
  EXPECT_EQ(h.interp->Invoke(), StatusCode::kBadState);
}

TEST(InterpreterTest, BadTensorIndexIsRejected) {
  ModelSpec spec = ChainSpec();
  spec.subgraphs[0].operators[2].inputs = {9};
  Harness h(model::WriteModel(spec));
  EXPECT_EQ(h.interp->AllocateTensors(), StatusCode::kInvalidModel);
  EXPECT_STREQ(h.interp->error_message(), "subgraph 0, op 2 (RESHAPE): input tensor 9 out of range (5 tensors)");
}

TEST(InterpreterTest, ShortConstantBufferIsRejected) {
  ModelSpec spec = ChainSpec();
  spec.buffers[1].resize(8);
  Harness h(model::WriteModel(spec));
  EXPECT_EQ(h.interp->AllocateTensors(), StatusCode::kInvalidModel);
  EXPECT_STREQ(h.interp->error_message(), "subgraph 0, tensor 1 (c): buffer 1 holds 8 bytes, shape needs 16");
}

TEST(InterpreterTest, Int4TensorsOutsideFiltersAreUnsupported) {
  // INT4 runs only as the constant filter of FULLY_CONNECTED / CONV_2D / DEPTHWISE_CONV_2D
  // (int4_weights_test.cc); as ADD's operand it would be read past its packed bytes.
  ModelSpec spec = ChainSpec();
  spec.subgraphs[0].tensors[1].type = MT::kInt4;  // a packed constant: 4 elements in 2 bytes
  spec.buffers[1].resize(2);
  Harness h(model::WriteModel(spec));
  EXPECT_EQ(h.interp->AllocateTensors(), StatusCode::kUnsupported);
  EXPECT_STREQ(h.interp->error_message(),
               "subgraph 0, op 0 (ADD): INT4 tensor 1 as input 1 (INT4 runs only as the filter of FULLY_CONNECTED, "
               "CONV_2D and DEPTHWISE_CONV_2D)");
}

TEST(InterpreterTest, GarbageAndTruncatedModelsFailCleanly) {
  std::vector<uint8_t> garbage(1000);
  for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = static_cast<uint8_t>(i * 131 + 7);
  Harness g(garbage);
  EXPECT_EQ(g.interp->AllocateTensors(), StatusCode::kInvalidModel);
  std::vector<uint8_t> good = model::WriteModel(ChainSpec());
  for (size_t cut = 0; cut < good.size(); cut += 13) {
    Harness t(std::vector<uint8_t>(good.begin(), good.begin() + static_cast<long>(cut)));
    EXPECT_NE(t.interp->AllocateTensors(), StatusCode::kOk) << cut;
  }
}

TEST(InterpreterTest, InvokeBeforeAllocateAndDoubleAllocate) {
  Harness h(model::WriteModel(ChainSpec()));
  EXPECT_EQ(h.interp->Invoke(), StatusCode::kBadState);
  ASSERT_EQ(h.interp->AllocateTensors(), StatusCode::kOk);
  EXPECT_EQ(h.interp->AllocateTensors(), StatusCode::kBadState);
  EXPECT_EQ(h.interp->input(7).data, nullptr);
}

}  // namespace
}  // namespace arenaplan::rt
