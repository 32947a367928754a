// TFLM's walk over control flow (rules/call_graph.h): the order of events on hand-drawn call trees
// and every limit at its boundary.
#include "rules/call_graph.h"

#include <gtest/gtest.h>

#include <string>

#include "rules/limits.h"
#include "rules_testutil.h"

namespace arenaplan::rules {
namespace {

using B = tfl::BuiltinOperator;
using testing::Build;
using testing::Call;
using testing::Describe;
using testing::Op;

class None final : public CallTreeVisitor {};

class Recorder final : public CallTreeVisitor {
 public:
  std::string events;
  void EnterSubgraph(uint32_t s, uint32_t d) override {
    events += "enter " + std::to_string(s) + "@" + std::to_string(d) + "; ";
  }
  void BeginOp(uint32_t s, uint32_t op, uint32_t) override {
    events += "op " + std::to_string(s) + "." + std::to_string(op) + "; ";
  }
  void BeforeCall(uint32_t, uint32_t, uint32_t callee, uint32_t) override {
    events += "call " + std::to_string(callee) + "; ";
  }
  void EndOp(uint32_t s, uint32_t op, uint32_t) override {
    events += "end " + std::to_string(s) + "." + std::to_string(op) + "; ";
  }
  void ExitSubgraph(uint32_t s, uint32_t) override { events += "exit " + std::to_string(s) + "; "; }
};

// s0: op0 ADD, op1 WHILE(cond 1, body 2), op2 ADD;  s1: op0 ADD;  s2: op0 IF(then 1, else 1)
// TFLM enters the callees at the call site, each call site anew (s1 is walked three times).
TEST(CallGraph, WalksCallSitesInTflmOrder) {
  model::ModelSpec spec;
  spec.subgraphs.resize(3);
  spec.subgraphs[0].operators = {Op(spec, 0, {}, {}), Call(spec, B::WHILE, 1, 2), Op(spec, 0, {}, {})};
  spec.subgraphs[1].operators = {Op(spec, 0, {}, {})};
  spec.subgraphs[2].operators = {Call(spec, B::IF, 1, 1)};
  const auto b = Build(spec);
  Recorder r;
  ErrorText e;
  uint32_t visits = 0;
  ASSERT_EQ(WalkCallTree(*b.model, r, &e, &visits), StatusCode::kOk) << e.text;
  EXPECT_EQ(r.events,
            "enter 0@0; op 0.0; end 0.0; op 0.1; call 1; enter 1@1; op 1.0; end 1.0; exit 1; call 2; enter 2@1; "
            "op 2.0; call 1; enter 1@2; op 1.0; end 1.0; exit 1; call 1; enter 1@2; op 1.0; end 1.0; exit 1; "
            "end 2.0; exit 2; end 0.1; op 0.2; end 0.2; exit 0; ");
  EXPECT_EQ(visits, 7u);  // 3 in s0, 1 in s1 (x3), 1 in s2
}

// Subgraph s CALL_ONCEs subgraph s + 1, `levels` deep.
model::ModelSpec Chain(uint32_t levels) {
  model::ModelSpec spec;
  spec.subgraphs.resize(levels + 1);
  for (uint32_t s = 0; s < levels; ++s)
    spec.subgraphs[s].operators = {Call(spec, B::CALL_ONCE, static_cast<int32_t>(s + 1))};
  return spec;
}

TEST(CallGraph, DepthLimitIsExact) {
  None none;
  ErrorText e;
  const auto ok = Build(Chain(kMaxCallDepth));
  EXPECT_EQ(WalkCallTree(*ok.model, none, &e), StatusCode::kOk) << e.text;
  const auto deep = Build(Chain(kMaxCallDepth + 1));
  EXPECT_EQ(WalkCallTree(*deep.model, none, &e), StatusCode::kUnsupported);
  EXPECT_STREQ(e.text, "subgraph 16, op 0 (CALL_ONCE): control flow nested deeper than 16 subgraphs");
}

// s0 has `calls` CALL_ONCEs of s1 plus `extra` ADDs; s1 has `inner` ADDs:
// visits = calls + extra + calls x inner.
model::ModelSpec Fan(int calls, int extra, int inner) {
  model::ModelSpec spec;
  spec.subgraphs.resize(2);
  for (int i = 0; i < calls; ++i) spec.subgraphs[0].operators.push_back(Call(spec, B::CALL_ONCE, 1));
  for (int i = 0; i < extra; ++i) spec.subgraphs[0].operators.push_back(Op(spec, 0, {}, {}));
  for (int i = 0; i < inner; ++i) spec.subgraphs[1].operators.push_back(Op(spec, 0, {}, {}));
  return spec;
}

TEST(CallGraph, OperatorVisitLimitIsExact) {
  None none;
  ErrorText e;
  uint32_t visits = 0;
  const auto at = Build(Fan(1000, 0, 999));  // 1000 + 999,000 = 1,000,000
  EXPECT_EQ(WalkCallTree(*at.model, none, &e, &visits), StatusCode::kOk) << e.text;
  EXPECT_EQ(visits, kMaxOperatorVisits);
  const auto over = Build(Fan(1000, 1, 999));
  EXPECT_EQ(WalkCallTree(*over.model, none, &e), StatusCode::kUnsupported);
  EXPECT_STREQ(e.text, "control flow expands to more than 1000000 operator visits");
}

TEST(CallGraph, CyclesAndBadIndicesAreInvalid) {
  None none;
  ErrorText e;
  model::ModelSpec cycle;
  cycle.subgraphs.resize(3);
  cycle.subgraphs[0].operators = {Call(cycle, B::CALL_ONCE, 1)};
  cycle.subgraphs[1].operators = {Call(cycle, B::CALL_ONCE, 2)};
  cycle.subgraphs[2].operators = {Call(cycle, B::CALL_ONCE, 1)};
  const StatusCode code = WalkCallTree(*Build(cycle).model, none, &e);
  EXPECT_EQ(code, StatusCode::kInvalidModel) << Describe(code, e);
  EXPECT_STREQ(e.text, "subgraph 2, op 0 (CALL_ONCE): cyclic subgraph calls: subgraph 1 -> 2 -> 1");
  model::ModelSpec self;
  self.subgraphs.resize(1);
  self.subgraphs[0].operators = {Call(self, B::CALL_ONCE, 0)};
  EXPECT_EQ(WalkCallTree(*Build(self).model, none, &e), StatusCode::kInvalidModel);
  EXPECT_STREQ(e.text, "subgraph 0, op 0 (CALL_ONCE): cyclic subgraph calls: subgraph 0 -> 0");
  model::ModelSpec out;
  out.subgraphs.resize(1);
  out.subgraphs[0].operators = {Call(out, B::IF, 0, 5)};
  EXPECT_EQ(WalkCallTree(*Build(out).model, none, &e), StatusCode::kInvalidModel);
}

}  // namespace
}  // namespace arenaplan::rules
