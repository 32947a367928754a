// rules/lifetimes.h on hand-drawn graphs: each graph is drawn in a comment with the expected
// [first, last] of every planned buffer on TFLM's one time counter.
#include "rules/lifetimes.h"

#include <gtest/gtest.h>

#include <vector>

#include "rules_testutil.h"

namespace arenaplan::rules {
namespace {

using B = tfl::BuiltinOperator;
using testing::Build;
using testing::Call;
using testing::Op;
using testing::Tensors;

struct Span {
  int32_t first, last;
  bool operator==(const Span& o) const { return first == o.first && last == o.last; }
};

std::vector<Span> Mark(const testing::Built& b, std::vector<uint32_t> planned,
                       std::vector<ScratchRequest> requests = {}, int32_t* steps = nullptr) {
  std::vector<PlanBuffer> bufs(planned.size() + requests.size(), PlanBuffer{16, 7, 7, kOnline});
  ErrorText e;
  EXPECT_EQ(MarkLifetimes(b.index, planned.data(), static_cast<uint32_t>(planned.size()), requests.data(),
                          static_cast<uint32_t>(requests.size()), bufs.data(), &e, steps),
            StatusCode::kOk)
      << e.text;
  std::vector<Span> out;
  for (const PlanBuffer& p : bufs) out.push_back({p.first, p.last});
  return out;
}

// t0 (in) --op0--> t1 --op1(t1, t4)--> t2 (out);  t3 unused;  t4 read by op1, produced by nobody.
//   t0 [0, 1]   t1 [1, 2]   t2 [2, 2]   t3 [-1, -1]   t4 [-1, 2];  scratch of op1 [2, 2]
TEST(RulesLifetimes, ChainWithUnusedAndUnproducedTensors) {
  model::ModelSpec spec;
  spec.subgraphs.resize(1);
  auto& sg = spec.subgraphs[0];
  sg.tensors = Tensors(5);
  sg.operators = {Op(spec, 0, {0}, {1}), Op(spec, 0, {1, 4}, {2})};
  sg.inputs = {0};
  sg.outputs = {2};
  const auto b = Build(spec);
  int32_t steps = 0;
  EXPECT_EQ(Mark(b, {0, 1, 2, 3, 4}, {{100, 1}}, &steps),
            (std::vector<Span>{{0, 1}, {1, 2}, {2, 2}, {-1, -1}, {-1, 2}, {2, 2}}));
  EXPECT_EQ(steps, 2);
  // Only the planned tensors get buffers: t1 and t4 alone.
  EXPECT_EQ(Mark(b, {1, 4}), (std::vector<Span>{{1, 2}, {-1, 2}}));
}

// s0: t0 (in) --op0 WHILE(cond 1, body 2)--> t1 --op1--> t2 (out)
// s1 (cond): c0 (in) --op0--> c1 (out)        s2 (body): b0 (in) --op0--> b1 (out)
//   t=1 op0 of s0 (t1 born); t=2 enter s1: c0 [2, 3], op at 3: c1 [3, 3];
//   t=4 enter s2: b0 [4, 5], op at 5: b1 [5, 5]; back in s0 op0's inputs / outputs live to 5;
//   t=6 op1.  Scratch of s0 op0 spans its callees: [1, 5]; scratch of s2 op0: [5, 5].
//   t0 [0, 5]  t1 [1, 6]  t2 [6, 6]
TEST(RulesLifetimes, OneCounterAcrossSubgraphs) {
  model::ModelSpec spec;
  spec.subgraphs.resize(3);
  spec.subgraphs[0].tensors = Tensors(3);
  spec.subgraphs[0].operators = {Call(spec, B::WHILE, 1, 2), Op(spec, 0, {1}, {2})};
  spec.subgraphs[0].operators[0].inputs = {0};
  spec.subgraphs[0].operators[0].outputs = {1};
  spec.subgraphs[0].inputs = {0};
  spec.subgraphs[0].outputs = {2};
  for (int s = 1; s <= 2; ++s) {
    spec.subgraphs[s].tensors = Tensors(2);
    spec.subgraphs[s].operators = {Op(spec, 0, {0}, {1})};
    spec.subgraphs[s].inputs = {0};
    spec.subgraphs[s].outputs = {1};
  }
  const auto b = Build(spec);
  // Global tensors: s0 0..2, s1 3..4, s2 5..6; global ops: s0 0..1, s1 2, s2 3.
  int32_t steps = 0;
  EXPECT_EQ(Mark(b, {0, 1, 2, 3, 4, 5, 6}, {{8, 0}, {8, 3}}, &steps),
            (std::vector<Span>{{0, 5}, {1, 6}, {6, 6}, {2, 3}, {3, 3}, {4, 5}, {5, 5}, {1, 5}, {5, 5}}));
  EXPECT_EQ(steps, 6);
}

TEST(RulesLifetimes, ScratchRequestsMustBeInOpOrder) {
  model::ModelSpec spec;
  spec.subgraphs.resize(1);
  spec.subgraphs[0].tensors = Tensors(1);
  spec.subgraphs[0].operators = {Op(spec, 0, {}, {0}), Op(spec, 0, {0}, {})};
  const auto b = Build(spec);
  std::vector<ScratchRequest> bad = {{8, 1}, {8, 0}};
  std::vector<PlanBuffer> bufs(2);
  ErrorText e;
  EXPECT_EQ(MarkLifetimes(b.index, nullptr, 0, bad.data(), 2, bufs.data(), &e), StatusCode::kBadArgument);
  EXPECT_STREQ(e.text, "scratch request 1: op 0 is out of order or does not exist (2 ops)");
  std::vector<ScratchRequest> missing = {{8, 2}};
  EXPECT_EQ(MarkLifetimes(b.index, nullptr, 0, missing.data(), 1, bufs.data(), &e), StatusCode::kBadArgument);
}

TEST(RulesLifetimes, NeedsAllocatingIsTflms) {
  EXPECT_TRUE(NeedsAllocating(false, false, 16, -1));  // an activation
  EXPECT_FALSE(NeedsAllocating(true, false, 16, -1));  // a constant, or a resource handle
  EXPECT_FALSE(NeedsAllocating(false, false, 0, -1));  // zero bytes
  EXPECT_FALSE(NeedsAllocating(false, true, 16, -1));  // a variable: tail
  EXPECT_TRUE(NeedsAllocating(false, true, 16, 32));   // an offline-placed variable: head
  EXPECT_TRUE(NeedsAllocating(false, false, 16, 32));
}

TEST(RulesLifetimes, CheckPlannableRefusesUnsizedTypesAndIntermediates) {
  model::ModelSpec spec;
  spec.subgraphs.resize(1);
  spec.subgraphs[0].tensors = Tensors(3);
  spec.subgraphs[0].tensors[2].type = model::TensorType::kString;
  spec.subgraphs[0].operators = {Op(spec, 0, {0}, {1})};
  ErrorText e;
  EXPECT_EQ(CheckPlannable(*Build(spec).model, &e), StatusCode::kUnsupported);
  EXPECT_STREQ(e.text, "subgraph 0, tensor 2 (t2): STRING tensors have no static byte size; TFLM cannot plan them");
  spec.subgraphs[0].tensors[2].type = model::TensorType::kFloat32;
  spec.subgraphs[0].operators[0].intermediates = {2};
  EXPECT_EQ(CheckPlannable(*Build(spec).model, &e), StatusCode::kUnsupported);
  EXPECT_STREQ(
      e.text,
      "subgraph 0, op 0 (ADD): intermediate tensor 2 (t2) has non-zero size 16 bytes; TFLM does not support it");
  spec.subgraphs[0].tensors[2].shape = {0};
  EXPECT_EQ(CheckPlannable(*Build(spec).model, &e), StatusCode::kOk);
}

}  // namespace
}  // namespace arenaplan::rules
