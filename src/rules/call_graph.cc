#include "rules/call_graph.h"

#include "rules/limits.h"
#include "rules/model.h"

namespace arenaplan::rules {
namespace {

struct Frame {
  uint32_t subgraph;
  uint32_t op;    // the op being walked (== op count once the subgraph is done)
  uint32_t call;  // how many of that op's calls were entered
  bool begun;     // BeginOp was sent for `op`
};

StatusCode CallError(const tfl::Model& model, const Frame& f, int32_t callee, const Frame* stack, uint32_t depth,
                     ErrorText* error) {
  const uint32_t n = Size(model.subgraphs());
  char name[64];
  const tfl::Operator& op = *model.subgraphs()->Get(f.subgraph)->operators()->Get(f.op);
  OpName(*model.operator_codes()->Get(op.opcode_index()), name, sizeof(name));
  if (callee < 0 || static_cast<uint32_t>(callee) >= n) {
    SetError(error, "subgraph %u, op %u (%s): calls subgraph %d, out of range (%u subgraphs)", f.subgraph, f.op, name,
             callee, n);
    return StatusCode::kInvalidModel;
  }
  for (uint32_t d = 0; d <= depth; ++d) {
    if (stack[d].subgraph != static_cast<uint32_t>(callee)) continue;
    char path[160];  // "1 -> 2 -> 1": the cycle, from the callee's first appearance
    uint32_t len = 0;
    for (uint32_t k = d; k <= depth; ++k) len += Format(path + len, sizeof(path) - len, "%u -> ", stack[k].subgraph);
    Format(path + len, sizeof(path) - len, "%d", callee);
    SetError(error, "subgraph %u, op %u (%s): cyclic subgraph calls: subgraph %s", f.subgraph, f.op, name, path);
    return StatusCode::kInvalidModel;
  }
  SetError(error, "subgraph %u, op %u (%s): control flow nested deeper than %u subgraphs", f.subgraph, f.op, name,
           kMaxCallDepth);
  return StatusCode::kUnsupported;
}

// The callee of f's op to enter next, or -1 when all are done.
bool NextCall(const tfl::Model& model, const Frame& f, int32_t* callee) {
  int32_t called[2];
  const tfl::Operator& op = *model.subgraphs()->Get(f.subgraph)->operators()->Get(f.op);
  const uint32_t n = CalledSubgraphs(model, op, called);
  if (f.call >= n) return false;
  *callee = called[f.call];
  return true;
}

}  // namespace

StatusCode WalkCallTree(const tfl::Model& model, CallTreeVisitor& v, ErrorText* error, uint32_t* visits) {
  Frame stack[kMaxCallDepth + 1];
  uint32_t depth = 0;
  uint32_t count = 0;
  stack[0] = Frame{0, 0, 0, false};
  v.EnterSubgraph(0, 0);
  for (;;) {
    Frame& f = stack[depth];
    const uint32_t ops = Size(model.subgraphs()->Get(f.subgraph)->operators());
    if (f.op == ops) {  // subgraph done: back to the caller's op
      v.ExitSubgraph(f.subgraph, depth);
      if (depth == 0) break;
      --depth;
      ++stack[depth].call;
      continue;
    }
    if (!f.begun) {
      if (++count > kMaxOperatorVisits) {
        SetError(error, "control flow expands to more than %u operator visits", kMaxOperatorVisits);
        return StatusCode::kUnsupported;
      }
      f.begun = true;
      v.BeginOp(f.subgraph, f.op, depth);
    }
    int32_t callee = 0;
    if (NextCall(model, f, &callee)) {
      const bool in_range = callee >= 0 && static_cast<uint32_t>(callee) < Size(model.subgraphs());
      bool on_chain = false;
      for (uint32_t d = 0; in_range && d <= depth; ++d) on_chain |= stack[d].subgraph == static_cast<uint32_t>(callee);
      if (!in_range || on_chain || depth + 1 > kMaxCallDepth) return CallError(model, f, callee, stack, depth, error);
      v.BeforeCall(f.subgraph, f.op, static_cast<uint32_t>(callee), depth);
      ++depth;
      stack[depth] = Frame{static_cast<uint32_t>(callee), 0, 0, false};
      v.EnterSubgraph(stack[depth].subgraph, depth);
      continue;
    }
    v.EndOp(f.subgraph, f.op, depth);
    ++f.op;
    f.call = 0;
    f.begun = false;
  }
  if (visits != nullptr) *visits = count;
  return StatusCode::kOk;
}

}  // namespace arenaplan::rules
