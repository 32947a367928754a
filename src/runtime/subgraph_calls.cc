#include "runtime/subgraph_calls.h"

namespace arenaplan::rt {

namespace {

template <typename T>
uint32_t Size(const flatbuffers::Vector<T>* v) {
  return v != nullptr ? v->size() : 0;
}

uint32_t Calls(const tfl::Model& model, const tfl::SubGraph& sg, uint32_t i, int32_t out[2]) {
  const tfl::Operator& op = *sg.operators()->Get(i);
  return CalledSubgraphs(BuiltinCode(*model.operator_codes()->Get(op.opcode_index())), op, out);
}

struct CallCheck {
  const tfl::Model& model;
  ErrorText* error;
  uint32_t path[kMaxSubgraphDepth + 1];
  uint32_t visits;
};

StatusCode Visit(CallCheck& c, uint32_t s, uint32_t depth) {
  c.path[depth] = s;
  if (++c.visits > kMaxSubgraphVisits) {
    SetError(c.error, "control flow expands to more than %u subgraph calls", kMaxSubgraphVisits);
    return StatusCode::kUnsupported;
  }
  const tfl::SubGraph& sg = *c.model.subgraphs()->Get(s);
  const uint32_t num_subgraphs = c.model.subgraphs()->size();
  for (uint32_t i = 0; i < Size(sg.operators()); ++i) {
    int32_t called[2];
    const uint32_t n = Calls(c.model, sg, i, called);
    for (uint32_t k = 0; k < n; ++k) {
      if (called[k] < 0 || static_cast<uint32_t>(called[k]) >= num_subgraphs) {
        SetError(c.error, "subgraph %u, op %u: calls subgraph %d (model has %u subgraphs)", s, i, called[k],
                 num_subgraphs);
        return StatusCode::kInvalidModel;
      }
      const uint32_t target = static_cast<uint32_t>(called[k]);
      for (uint32_t d = 0; d <= depth; ++d) {
        if (c.path[d] == target) {
          SetError(c.error, "subgraph %u, op %u: calls subgraph %u, which is already on the call chain (cyclic)",
                   s, i, target);
          return StatusCode::kInvalidModel;
        }
      }
      if (depth + 1 > kMaxSubgraphDepth) {
        SetError(c.error, "subgraph %u, op %u: control flow nested deeper than %u subgraphs", s, i,
                 kMaxSubgraphDepth);
        return StatusCode::kUnsupported;
      }
      RT_RETURN_IF_ERROR(Visit(c, target, depth + 1));
    }
  }
  return StatusCode::kOk;
}

struct Marker {
  const tfl::Model& model;
  const uint32_t* tensor_base;
  const uint32_t* op_base;
  const uint32_t* buffer_of_tensor;
  const ScratchRequest* requests;
  uint32_t num_requests;
  uint32_t first_scratch;
  PlanBuffer* buffers;
  int32_t t;
};

void Touch(Marker& m, uint32_t s, int32_t tensor, bool set_first) {
  if (tensor < 0) return;
  const uint32_t b = m.buffer_of_tensor[m.tensor_base[s] + static_cast<uint32_t>(tensor)];
  if (b >= kMaxPlanBuffers) return;  // kNoBuffer, or a tensor pointed at persistent data
  if (set_first && m.buffers[b].first == -1) m.buffers[b].first = m.t;
  m.buffers[b].last = m.t;
}

// Depth is bounded by CheckSubgraphCalls (no cycles, at most kMaxSubgraphDepth levels).
void Mark(Marker& m, uint32_t s) {
  const tfl::SubGraph& sg = *m.model.subgraphs()->Get(s);
  for (uint32_t k = 0; k < Size(sg.inputs()); ++k) Touch(m, s, sg.inputs()->Get(k), true);
  for (uint32_t i = 0; i < Size(sg.operators()); ++i) {
    const tfl::Operator& op = *sg.operators()->Get(i);
    ++m.t;
    for (uint32_t k = 0; k < Size(op.outputs()); ++k) {
      const int32_t out = op.outputs()->Get(k);
      if (out < 0) continue;
      const uint32_t b = m.buffer_of_tensor[m.tensor_base[s] + static_cast<uint32_t>(out)];
      if (b < kMaxPlanBuffers && m.buffers[b].first == -1) m.buffers[b].first = m.t;
    }
    const int32_t start = m.t;
    int32_t called[2];
    const uint32_t n = Calls(m.model, sg, i, called);
    for (uint32_t k = 0; k < n; ++k) {
      ++m.t;
      Mark(m, static_cast<uint32_t>(called[k]));
    }
    for (uint32_t k = 0; k < Size(op.inputs()); ++k) Touch(m, s, op.inputs()->Get(k), false);
    for (uint32_t k = 0; k < Size(op.outputs()); ++k) Touch(m, s, op.outputs()->Get(k), false);
    const uint32_t global_op = m.op_base[s] + i;
    for (uint32_t r = 0; r < m.num_requests; ++r) {
      if (m.requests[r].op_index != global_op) continue;
      PlanBuffer& b = m.buffers[m.first_scratch + r];
      if (b.first == -1) b.first = start;
      b.last = m.t;
    }
  }
  for (uint32_t k = 0; k < Size(sg.outputs()); ++k) Touch(m, s, sg.outputs()->Get(k), true);
}

}  // namespace

int32_t BuiltinCode(const tfl::OperatorCode& code) {
  const int32_t b = static_cast<int32_t>(code.builtin_code());
  return b > code.deprecated_builtin_code() ? b : code.deprecated_builtin_code();
}

uint32_t CalledSubgraphs(int32_t builtin, const tfl::Operator& op, int32_t out[2]) {
  switch (static_cast<tfl::BuiltinOperator>(builtin)) {
    case tfl::BuiltinOperator::WHILE: {
      const auto* o = op.builtin_options_as_WhileOptions();
      out[0] = o != nullptr ? o->cond_subgraph_index() : 0;
      out[1] = o != nullptr ? o->body_subgraph_index() : 0;
      return 2;
    }
    case tfl::BuiltinOperator::IF: {
      const auto* o = op.builtin_options_as_IfOptions();
      out[0] = o != nullptr ? o->then_subgraph_index() : 0;
      out[1] = o != nullptr ? o->else_subgraph_index() : 0;
      return 2;
    }
    case tfl::BuiltinOperator::CALL_ONCE: {
      const auto* o = op.builtin_options_as_CallOnceOptions();
      out[0] = o != nullptr ? o->init_subgraph_index() : 0;
      return 1;
    }
    default:
      return 0;
  }
}

StatusCode CheckSubgraphCalls(const tfl::Model& model, ErrorText* error) {
  CallCheck c{model, error, {}, 0};
  return Visit(c, 0, 0);
}

void MarkModelLifetimes(const tfl::Model& model, const uint32_t* tensor_base, const uint32_t* op_base,
                        const uint32_t* buffer_of_tensor, const ScratchRequest* requests, uint32_t num_requests,
                        uint32_t first_scratch, PlanBuffer* buffers) {
  Marker m{model, tensor_base, op_base, buffer_of_tensor, requests, num_requests, first_scratch, buffers, 0};
  Mark(m, 0);
}

}  // namespace arenaplan::rt
