#include "rules/lifetimes.h"

#include "rules/call_graph.h"
#include "rules/limits.h"

namespace arenaplan::rules {
namespace {

// The first index in [0, n) whose key is >= key (n when none); key_of(i) ascending.
template <typename KeyOf>
uint32_t LowerBound(uint32_t n, uint32_t key, KeyOf key_of) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (key_of(mid) < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

class Marker final : public CallTreeVisitor {
 public:
  Marker(const ModelIndex& index, const uint32_t* planned, uint32_t num_planned, const ScratchRequest* requests,
         uint32_t num_requests, PlanBuffer* buffers)
      : index_(index),
        planned_(planned),
        num_planned_(num_planned),
        requests_(requests),
        num_requests_(num_requests),
        buffers_(buffers) {}

  void EnterSubgraph(uint32_t s, uint32_t) override { TouchAll(s, index_.subgraph(s).inputs(), true); }
  void BeginOp(uint32_t s, uint32_t i, uint32_t depth) override {
    ++t_;
    const auto* outputs = index_.op(s, i).outputs();
    for (uint32_t k = 0; k < Size(outputs); ++k) {
      PlanBuffer* b = Buffer(s, outputs->Get(k));
      if (b != nullptr && b->first == -1) b->first = t_;
    }
    start_[depth] = t_;
  }
  void BeforeCall(uint32_t, uint32_t, uint32_t, uint32_t) override { ++t_; }
  void EndOp(uint32_t s, uint32_t i, uint32_t depth) override {
    const tfl::Operator& op = index_.op(s, i);
    TouchAll(s, op.inputs(), false);
    TouchAll(s, op.outputs(), false);
    const uint32_t global_op = index_.op_base[s] + i;
    const auto op_of = [this](uint32_t r) { return requests_[r].op_index; };
    for (uint32_t r = LowerBound(num_requests_, global_op, op_of);
         r < num_requests_ && requests_[r].op_index == global_op; ++r) {
      PlanBuffer& b = buffers_[num_planned_ + r];
      if (b.first == -1) b.first = start_[depth];
      b.last = t_;
    }
  }
  void ExitSubgraph(uint32_t s, uint32_t) override { TouchAll(s, index_.subgraph(s).outputs(), true); }
  int32_t steps() const { return t_; }

 private:
  PlanBuffer* Buffer(uint32_t s, int32_t tensor) {
    if (tensor < 0) return nullptr;
    const uint32_t global = index_.tensor_base[s] + static_cast<uint32_t>(tensor);
    const int32_t b = PlannedBufferOf(planned_, num_planned_, global);
    return b >= 0 ? &buffers_[b] : nullptr;
  }
  void TouchAll(uint32_t s, const flatbuffers::Vector<int32_t>* tensors, bool set_first) {
    for (uint32_t k = 0; k < Size(tensors); ++k) {
      PlanBuffer* b = Buffer(s, tensors->Get(k));
      if (b == nullptr) continue;
      if (set_first && b->first == -1) b->first = t_;
      b->last = t_;
    }
  }

  const ModelIndex& index_;
  const uint32_t* planned_;
  uint32_t num_planned_;
  const ScratchRequest* requests_;
  uint32_t num_requests_;
  PlanBuffer* buffers_;
  int32_t t_ = 0;
  int32_t start_[kMaxCallDepth + 1] = {};
};

}  // namespace

StatusCode CheckPlannable(const tfl::Model& model, ErrorText* error) {
  char op_name[48];
  for (uint32_t s = 0; s < Size(model.subgraphs()); ++s) {
    const tfl::SubGraph& sg = *model.subgraphs()->Get(s);
    for (uint32_t t = 0; t < Size(sg.tensors()); ++t) {
      const tfl::Tensor& tensor = *sg.tensors()->Get(t);
      if (TypeBytes(tensor.type()) != 0) continue;
      SetError(error, "subgraph %u, tensor %u (%.40s): %s tensors have no static byte size; TFLM cannot plan them", s,
               t, tensor.name() != nullptr ? tensor.name()->c_str() : "", tfl::EnumNameTensorType(tensor.type()));
      return StatusCode::kUnsupported;
    }
    for (uint32_t i = 0; i < Size(sg.operators()); ++i) {
      const tfl::Operator& op = *sg.operators()->Get(i);
      for (uint32_t k = 0; k < Size(op.intermediates()); ++k) {
        const int32_t m = op.intermediates()->Get(k);
        const tfl::Tensor& tensor = *sg.tensors()->Get(static_cast<uint32_t>(m));
        const uint64_t bytes = TensorBytes(tensor);
        if (bytes == 0) continue;
        OpName(*model.operator_codes()->Get(op.opcode_index()), op_name, sizeof(op_name));
        SetError(error,
                 "subgraph %u, op %u (%.40s): intermediate tensor %d (%.40s) has non-zero size %llu bytes; TFLM does "
                 "not support it",
                 s, i, op_name, m, tensor.name() != nullptr ? tensor.name()->c_str() : "",
                 static_cast<unsigned long long>(bytes));
        return StatusCode::kUnsupported;
      }
    }
  }
  return StatusCode::kOk;
}

int32_t PlannedBufferOf(const uint32_t* planned, uint32_t num_planned, uint32_t t) {
  const uint32_t b = LowerBound(num_planned, t, [planned](uint32_t i) { return planned[i]; });
  return b < num_planned && planned[b] == t ? static_cast<int32_t>(b) : -1;
}

StatusCode MarkLifetimes(const ModelIndex& index, const uint32_t* planned, uint32_t num_planned,
                         const ScratchRequest* requests, uint32_t num_requests, PlanBuffer* buffers, ErrorText* error,
                         int32_t* steps) {
  for (uint32_t r = 0; r < num_requests; ++r) {
    if (requests[r].op_index >= index.total_ops() || (r > 0 && requests[r].op_index < requests[r - 1].op_index)) {
      SetError(error, "scratch request %u: op %u is out of order or does not exist (%u ops)", r, requests[r].op_index,
               index.total_ops());
      return StatusCode::kBadArgument;
    }
  }
  for (uint32_t b = 0; b < num_planned + num_requests; ++b) {
    buffers[b].first = -1;
    buffers[b].last = -1;
  }
  Marker marker(index, planned, num_planned, requests, num_requests, buffers);
  RT_RETURN_IF_ERROR(WalkCallTree(*index.model, marker, error));
  if (steps != nullptr) *steps = marker.steps();
  return StatusCode::kOk;
}

}  // namespace arenaplan::rules
