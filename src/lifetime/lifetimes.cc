// ComputeLifetimes: rules::MarkLifetimes over the model's flatbuffer, O(tensors + operator visits x
// arity x log buffers); then ids and names. The walk's limits are rules/limits.h's.
#include "lifetime/lifetimes.h"

#include <algorithm>
#include <string>

#include "model/device_status.h"
#include "rules/lifetimes.h"
#include "rules/limits.h"
#include "rules/offline_plan.h"
#include "schema/tflite_generated.h"
#include "util/checked_math.h"

namespace arenaplan::lifetime {
namespace {

struct Index {
  std::vector<uint32_t> tensor_base, op_base;
  rules::ModelIndex view;
};

void BuildIndex(const tfl::Model& fb, Index* index) {
  const uint32_t n = rules::Size(fb.subgraphs());
  index->tensor_base.resize(n + 1);
  index->op_base.resize(n + 1);
  rules::FillModelIndex(fb, index->tensor_base.data(), index->op_base.data());
  index->view = rules::ModelIndex{&fb, n, index->tensor_base.data(), index->op_base.data()};
}

// Outputs of VAR_HANDLE ops: TFLM points them at resource variables during Prepare, so they have
// data when it plans (rules::NeedsAllocating's has_data).
std::vector<bool> VarHandleOutputs(const model::Model& model, const Index& index) {
  std::vector<bool> out(index.view.total_tensors(), false);
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    for (const model::Operator& op : model.subgraphs[s].operators) {
      if (model.code_of(op).builtin_code != model::op::kVarHandle) continue;
      for (int32_t o : op.outputs) out[index.tensor_base[s] + static_cast<uint32_t>(o)] = true;
    }
  }
  return out;
}

// The subgraph and op of a global op index.
std::pair<int32_t, int32_t> SubgraphAndOp(const Index& index, uint32_t global_op) {
  const auto it = std::upper_bound(index.op_base.begin(), index.op_base.end() - 1, global_op);
  const auto s = static_cast<int32_t>(it - index.op_base.begin()) - 1;
  return {s, static_cast<int32_t>(global_op - index.op_base[static_cast<size_t>(s)])};
}

// The global indices of the tensors TFLM plans (rules::NeedsAllocating), ascending, less the
// external I/O (appended to *external).
std::vector<uint32_t> PlannedTensors(const model::Model& model, const Index& index, const rules::OfflinePlan& offline,
                                     rules::ExternalIo io, std::vector<uint32_t>* external) {
  const std::vector<bool> var_handle = VarHandleOutputs(model, index);
  std::vector<uint32_t> planned;
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    for (size_t t = 0; t < model.subgraphs[s].tensors.size(); ++t) {
      const model::Tensor& tensor = model.subgraphs[s].tensors[t];
      const uint32_t global = index.tensor_base[s] + static_cast<uint32_t>(t);
      if (rules::NeedsAllocating(tensor.has_data || var_handle[global], tensor.is_variable, *tensor.bytes,
                                 rules::OfflineOffset(offline, global))) {
        const bool is_external = s == 0 && rules::IsExternalTensor(index.view.subgraph(0), global, io);
        (is_external ? *external : planned).push_back(global);
      }
    }
  }
  return planned;
}

}  // namespace

uint32_t GlobalOp(const model::Model& model, size_t subgraph, size_t op) {
  uint32_t base = 0;
  for (size_t s = 0; s < subgraph; ++s) base += static_cast<uint32_t>(model.subgraphs[s].operators.size());
  return base + static_cast<uint32_t>(op);
}

Result<Lifetimes> ComputeLifetimes(const model::Model& model, const Options& options) {
  if (options.alignment == 0) return InvalidArgument("alignment must be > 0");
  if (model.file_data == nullptr) return InvalidArgument("model has no flatbuffer (use model::ReadModel)");
  const tfl::Model& fb = *tfl::GetModel(model.file_data);
  rules::ErrorText error;
  ARENAPLAN_RETURN_IF_ERROR(StatusOf(rules::CheckPlannable(fb, &error), error.text));
  Index index;
  BuildIndex(fb, &index);
  rules::OfflinePlan offline;
  if (options.use_offline_plan) {
    const rules::ModelFile file{model.file_data, model.file_size};
    ARENAPLAN_RETURN_IF_ERROR(StatusOf(rules::ReadOfflinePlan(index.view, file, &offline, &error), error.text));
  }
  Lifetimes result;
  const std::vector<uint32_t> planned = PlannedTensors(model, index, offline, options.external_io, &result.external);
  const auto num_planned = static_cast<uint32_t>(planned.size());
  std::vector<rules::PlanBuffer> marks(planned.size() + options.scratch.size());
  int32_t steps = 0;
  ARENAPLAN_RETURN_IF_ERROR(
      StatusOf(rules::MarkLifetimes(index.view, planned.data(), num_planned, options.scratch.data(),
                                    static_cast<uint32_t>(options.scratch.size()), marks.data(), &error, &steps),
               error.text));
  ARENAPLAN_RETURN_IF_ERROR(
      StatusOf(rules::ExtendKeptLifetimes(index.view, planned.data(), num_planned, options.keep.data(),
                                          static_cast<uint32_t>(options.keep.size()), steps, marks.data(), &error),
               error.text));
  result.steps = steps;
  auto add = [&](BufferLifetime b, uint64_t bytes, const rules::PlanBuffer& mark, int64_t offline_offset) {
    b.bytes = bytes;
    b.size = AlignUp<uint64_t>(bytes, options.alignment);  // bytes <= kMaxBufferBytes: no overflow
    b.first = mark.first;
    b.last = mark.last;
    b.offline_offset = offline_offset;
    result.buffers.push_back(std::move(b));
  };
  for (size_t b = 0; b < planned.size(); ++b) {
    const uint32_t s = index.view.SubgraphOfTensor(planned[b]);
    const uint32_t t = planned[b] - index.tensor_base[s];
    const model::Tensor& tensor = model.subgraphs[s].tensors[t];
    BufferLifetime buffer;
    buffer.id = "s" + std::to_string(s) + "t" + std::to_string(t);
    buffer.subgraph = static_cast<int32_t>(s);
    buffer.tensor = static_cast<int32_t>(t);
    buffer.name = tensor.name;
    add(std::move(buffer), *tensor.bytes, marks[b], rules::OfflineOffset(offline, planned[b]));
  }
  for (size_t r = 0; r < options.scratch.size(); ++r) {
    const rules::ScratchRequest& req = options.scratch[r];
    if (req.bytes > rules::kMaxBufferBytes) {
      return Unsupported("scratch request " + std::to_string(r) + ": " + std::to_string(req.bytes) +
                         " bytes, more than the " + std::to_string(rules::kMaxBufferBytes) + " a buffer may have");
    }
    const auto [s, op] = SubgraphAndOp(index, req.op_index);
    BufferLifetime buffer;
    buffer.id = "scratch" + std::to_string(r);
    buffer.subgraph = s;
    buffer.scratch = static_cast<int32_t>(r);
    buffer.op = op;
    buffer.name = buffer.id + " (" + model.code_of(model.subgraphs[s].operators[op]).name + " #" + std::to_string(op) +
                  ")";
    add(std::move(buffer), req.bytes, marks[planned.size() + r], -1);
  }
  return result;
}

plan::Problem ToProblem(const Lifetimes& lifetimes, uint32_t alignment) {
  plan::Problem problem;
  const uint64_t align = alignment == 0 ? 1 : alignment;
  problem.buffers.reserve(lifetimes.buffers.size());
  for (const BufferLifetime& b : lifetimes.buffers) {
    plan::Buffer buffer;
    const auto size = CheckedAlignUp(b.bytes, align).value_or(b.size);
    buffer.size = static_cast<plan::Bytes>(std::min<uint64_t>(size, INT64_MAX));
    buffer.first = b.first;
    buffer.last = std::max(b.first, b.last);
    buffer.fixed_offset = b.offline_offset >= 0 ? b.offline_offset : plan::kUnfixed;
    // TFLM uses offline offsets exactly as given, aligned or not.
    const bool unaligned_fixed = buffer.fixed() && static_cast<uint64_t>(buffer.fixed_offset) % align != 0;
    buffer.alignment = unaligned_fixed ? 1 : static_cast<plan::Bytes>(align);
    problem.buffers.push_back(buffer);
  }
  return problem;
}

}  // namespace arenaplan::lifetime
