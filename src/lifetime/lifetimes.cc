// ComputeLifetimes: O(tensors + operator visits), where a subgraph is walked once per control-flow
// reference (as TFLM does); the visits are capped so hostile nesting cannot explode.
#include "lifetime/lifetimes.h"

#include <algorithm>
#include <string>

#include "model/offline_plan.h"
#include "util/checked_math.h"

namespace arenaplan::lifetime {
namespace {

constexpr size_t kMaxCallDepth = 64;
constexpr uint64_t kMaxOperatorVisits = 4'000'000;

// TFLM's AllocationInfo for one tensor or scratch request, before filtering.
struct Info {
  uint64_t bytes = 0;
  int64_t first = -1;
  int64_t last = -1;
  int64_t offline_offset = -1;
};

struct Walker {
  const model::Model& model;
  const Options& options;
  std::vector<size_t> tensor_base;  // global index of each subgraph's tensor 0
  std::vector<Info> infos;          // tensors of all subgraphs, then scratch requests
  size_t scratch_base = 0;
  int64_t t = 0;
  uint64_t visits = 0;
  std::vector<int32_t> stack;       // subgraphs being marked (cycle detection)

  Info& TensorInfo(int32_t s, int32_t tensor) { return infos[tensor_base[s] + static_cast<size_t>(tensor)]; }
  static void Born(Info& info, int64_t at) {
    if (info.first == -1) info.first = at;
  }

  Status CycleError(int32_t s) const {
    std::string path;
    auto it = std::find(stack.begin(), stack.end(), s);
    for (; it != stack.end(); ++it) path += std::to_string(*it) + " -> ";
    return InvalidArgument("cyclic subgraph calls: subgraph " + path + std::to_string(s));
  }

  Status Mark(int32_t s) {
    if (std::find(stack.begin(), stack.end(), s) != stack.end()) return CycleError(s);
    if (stack.size() >= kMaxCallDepth) {
      return InvalidArgument("subgraph calls nested deeper than " + std::to_string(kMaxCallDepth) +
                             " at subgraph " + std::to_string(s));
    }
    stack.push_back(s);
    const model::Subgraph& sg = model.subgraphs[s];
    for (int32_t in : sg.inputs) {
      Info& info = TensorInfo(s, in);
      Born(info, t);
      info.last = t;
    }
    for (size_t i = 0; i < sg.operators.size(); ++i) {
      if (++visits > kMaxOperatorVisits) {
        return InvalidArgument("control flow expands to more than " + std::to_string(kMaxOperatorVisits) +
                               " operator visits");
      }
      const model::Operator& op = sg.operators[i];
      ++t;
      for (int32_t out : op.outputs) Born(TensorInfo(s, out), t);
      const int64_t start = t;
      for (int32_t callee : op.called_subgraphs) {
        ++t;
        ARENAPLAN_RETURN_IF_ERROR(Mark(callee));
      }
      for (int32_t in : op.inputs) {
        if (in >= 0) TensorInfo(s, in).last = t;
      }
      for (int32_t out : op.outputs) TensorInfo(s, out).last = t;
      for (size_t r = 0; r < options.scratch.size(); ++r) {
        const ScratchRequest& req = options.scratch[r];
        if (req.subgraph != s || req.op != static_cast<int32_t>(i)) continue;
        Info& info = infos[scratch_base + r];
        Born(info, start);
        info.last = t;
      }
    }
    for (int32_t out : sg.outputs) {
      Info& info = TensorInfo(s, out);
      Born(info, t);
      info.last = t;
    }
    stack.pop_back();
    return Status::Ok();
  }
};

std::string TensorWhere(size_t s, size_t t, const model::Tensor& tensor) {
  return "subgraph " + std::to_string(s) + ", tensor " + std::to_string(t) + " (" + tensor.name + ")";
}

// TFLM computes every tensor's byte length (constants included) and fails on unsized types.
Status CheckSizesAndIntermediates(const model::Model& model) {
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    const model::Subgraph& sg = model.subgraphs[s];
    for (size_t t = 0; t < sg.tensors.size(); ++t) {
      if (!sg.tensors[t].bytes) {
        return Unsupported(TensorWhere(s, t, sg.tensors[t]) + ": " + model::TensorTypeName(sg.tensors[t].type) +
                           " tensors have no static byte size; TFLM cannot plan them");
      }
    }
    for (size_t i = 0; i < sg.operators.size(); ++i) {
      for (int32_t m : sg.operators[i].intermediates) {
        const model::Tensor& tensor = sg.tensors[static_cast<size_t>(m)];
        if (*tensor.bytes != 0) {
          return Unsupported("subgraph " + std::to_string(s) + ", op " + std::to_string(i) + " (" +
                             model.code_of(sg.operators[i]).name + "): intermediate tensor " + std::to_string(m) +
                             " (" + tensor.name + ") has non-zero size " + std::to_string(*tensor.bytes) +
                             " bytes; TFLM does not support it");
        }
      }
    }
  }
  return Status::Ok();
}

Status CheckScratch(const model::Model& model, const Options& options) {
  for (size_t r = 0; r < options.scratch.size(); ++r) {
    const ScratchRequest& req = options.scratch[r];
    if (req.subgraph < 0 || static_cast<size_t>(req.subgraph) >= model.subgraphs.size() || req.op < 0 ||
        static_cast<size_t>(req.op) >= model.subgraphs[req.subgraph].operators.size()) {
      return InvalidArgument("scratch request " + std::to_string(r) + ": subgraph " +
                             std::to_string(req.subgraph) + ", op " + std::to_string(req.op) +
                             " does not exist");
    }
  }
  return Status::Ok();
}

// Outputs of VAR_HANDLE ops: TFLM points them at resource variables during Prepare.
std::vector<std::vector<bool>> VarHandleOutputs(const model::Model& model) {
  std::vector<std::vector<bool>> out(model.subgraphs.size());
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    out[s].assign(model.subgraphs[s].tensors.size(), false);
    for (const model::Operator& op : model.subgraphs[s].operators) {
      if (model.code_of(op).builtin_code != model::op::kVarHandle) continue;
      for (int32_t o : op.outputs) out[s][static_cast<size_t>(o)] = true;
    }
  }
  return out;
}

}  // namespace

Result<Lifetimes> ComputeLifetimes(const model::Model& model, const Options& options) {
  if (options.alignment == 0) return InvalidArgument("alignment must be > 0");
  if (model.subgraphs.empty()) return InvalidArgument("model has no subgraphs");
  ARENAPLAN_RETURN_IF_ERROR(CheckSizesAndIntermediates(model));
  ARENAPLAN_RETURN_IF_ERROR(CheckScratch(model, options));
  const model::OfflinePlan* offline = nullptr;
  if (options.use_offline_plan && model::FindOfflinePlanMetadata(model)) {
    ARENAPLAN_RETURN_IF_ERROR(model::ValidateOfflinePlan(model));
    if (!model.offline_plan) return Internal("offline plan validated but not decoded");
    offline = &*model.offline_plan;
  }

  Walker w{model, options, {}, {}, 0, 0, 0, {}};
  size_t total = 0;
  for (const model::Subgraph& sg : model.subgraphs) {
    w.tensor_base.push_back(total);
    total += sg.tensors.size();
  }
  w.scratch_base = total;
  w.infos.resize(total + options.scratch.size());
  for (size_t r = 0; r < options.scratch.size(); ++r) w.infos[total + r].bytes = options.scratch[r].bytes;
  ARENAPLAN_RETURN_IF_ERROR(w.Mark(0));

  const auto var_handle = VarHandleOutputs(model);
  Lifetimes result;
  result.steps = w.t;
  auto add = [&](BufferLifetime b, const Info& info) -> Status {
    b.bytes = info.bytes;
    const auto size = CheckedAlignUp(info.bytes, options.alignment);
    if (!size || *size > static_cast<uint64_t>(INT64_MAX)) {
      return InvalidArgument(b.id + " (" + b.name + "): " + std::to_string(info.bytes) + " bytes is too large to plan");
    }
    b.size = *size;
    b.first = info.first;
    b.last = info.last;
    b.offline_offset = info.offline_offset;
    result.buffers.push_back(std::move(b));
    return Status::Ok();
  };
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    const model::Subgraph& sg = model.subgraphs[s];
    for (size_t t = 0; t < sg.tensors.size(); ++t) {
      const model::Tensor& tensor = sg.tensors[t];
      Info& info = w.infos[w.tensor_base[s] + t];
      info.bytes = *tensor.bytes;
      bool needs = !tensor.has_data && !var_handle[s][t] && !tensor.is_variable && info.bytes != 0;
      if (offline != nullptr) {
        info.offline_offset = offline->offsets[w.tensor_base[s] + t];
        // TFLM: an offline-placed variable lives in the head at its offset.
        if (tensor.is_variable && info.offline_offset != -1) needs = true;
      }
      if (!needs) continue;
      BufferLifetime b;
      b.id = "s" + std::to_string(s) + "t" + std::to_string(t);
      b.subgraph = static_cast<int32_t>(s);
      b.tensor = static_cast<int32_t>(t);
      b.name = tensor.name;
      ARENAPLAN_RETURN_IF_ERROR(add(std::move(b), info));
    }
  }
  for (size_t r = 0; r < options.scratch.size(); ++r) {
    const ScratchRequest& req = options.scratch[r];
    const model::Operator& op = model.subgraphs[req.subgraph].operators[req.op];
    BufferLifetime b;
    b.id = "scratch" + std::to_string(r);
    b.subgraph = req.subgraph;
    b.scratch = static_cast<int32_t>(r);
    b.op = req.op;
    b.name = b.id + " (" + model.code_of(op).name + " #" + std::to_string(req.op) + ")";
    ARENAPLAN_RETURN_IF_ERROR(add(std::move(b), w.infos[w.scratch_base + r]));
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
