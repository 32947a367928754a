// TFLM's walk over control flow: subgraph 0's ops in order, and at each IF / WHILE / CALL_ONCE
// the called subgraphs in TFLM's order (then, else; cond, body; init), entered once per call site,
// recursively, exactly as AllocationInfoBuilder marks lifetimes. The walk keeps its frames in a
// fixed array (no recursion: the stack cost is known on a device) and is where the call-graph
// limits live:
//   a called index outside the model, or a call to a subgraph already on the call chain (a cycle,
//   which TFLM would follow forever)                                      -> kInvalidModel;
//   nesting deeper than kMaxCallDepth, more than kMaxOperatorVisits visits -> kUnsupported.
// A visitor sees every event; the default visitor does nothing (the walk then only checks).
// O(visits), where visits <= kMaxOperatorVisits.
#pragma once

#include <cstdint>

#include "rules/status.h"
#include "schema/tflite_generated.h"

namespace arenaplan::rules {

class CallTreeVisitor {
 public:
  // `depth` is 0 for subgraph 0 and grows by one per nested call.
  virtual void EnterSubgraph(uint32_t s, uint32_t depth) {}
  virtual void BeginOp(uint32_t s, uint32_t op, uint32_t depth) {}
  // Before the walk enters `callee` from op `op` of subgraph s.
  virtual void BeforeCall(uint32_t s, uint32_t op, uint32_t callee, uint32_t depth) {}
  virtual void EndOp(uint32_t s, uint32_t op, uint32_t depth) {}
  virtual void ExitSubgraph(uint32_t s, uint32_t depth) {}

 protected:
  ~CallTreeVisitor() = default;
};

// Walks the call tree from subgraph 0. The model must have at least one subgraph and valid
// opcode indices. `visits` (optional) receives the number of operator visits.
StatusCode WalkCallTree(const tfl::Model& model, CallTreeVisitor& visitor, ErrorText* error,
                        uint32_t* visits = nullptr);

}  // namespace arenaplan::rules
