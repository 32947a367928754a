#include "tflm/arena_size.h"

#include <algorithm>
#include <map>

#include "plan/plan_and_verify.h"
#include "rules/limits.h"
#include "tflm/kernels.h"
#include "tflm/prepare_temp.h"
#include "util/checked_math.h"

namespace arenaplan::tflm {
namespace {

// TFLM's persistent (tail) allocator: the tail moves down to align_down(tail - size, align).
// `used` is arena_end - tail; the arena end is 16-aligned (16-multiple arena, aligned start).
struct TailSim {
  uint64_t used = 0;
  std::map<std::string, uint64_t> by_category;
  std::vector<std::string> order;
  uint64_t Alloc(uint64_t size, uint64_t align, const char* category) {
    const uint64_t before = used;
    used = AlignUp<uint64_t>(used + size, align == 0 ? 1 : align);
    if (by_category.find(category) == by_category.end()) order.push_back(category);
    by_category[category] += used - before;
    return used - before;
  }
};

std::string StringOf(const model::Model& m, size_t s, size_t i) { return m.code_of(m.subgraphs[s].operators[i]).name; }

bool IsRegistered(const std::string& name) {
  const auto& ops = TflmRegisteredOps();
  return std::find(ops.begin(), ops.end(), name) != ops.end();
}

// The first op TFLM cannot register, as TFLM reports it; empty when all resolve.
std::string RegistrationError(const model::Model& m) {
  for (size_t s = 0; s < m.subgraphs.size(); ++s) {
    for (size_t i = 0; i < m.subgraphs[s].operators.size(); ++i) {
      const std::string name = StringOf(m, s, i);
      if (IsRegistered(name) || FindKernelEntry(name) != nullptr) continue;
      const bool custom = name.rfind("CUSTOM:", 0) == 0;
      const std::string shown = custom ? name.substr(7) : name;
      return std::string("Didn't find op for ") + (custom ? "custom" : "builtin") + " opcode '" + shown +
             "' | Failed to get registration from op code " + shown + " (subgraph " + std::to_string(s) + ", op " +
             std::to_string(i) + ")";
    }
  }
  return "";
}

bool HasScaleAndZeroPoint(const model::Tensor& t) {
  return t.quantization && !t.quantization->scale.empty() && !t.quantization->zero_point.empty();
}

void IoTensors(TailSim& tail, const Target& tg, const model::Subgraph& sg, const std::vector<int32_t>& list) {
  tail.Alloc(uint64_t{tg.pointer_bytes} * list.size(), tg.buffer_alignment, kTailIoPointers);
  for (int32_t index : list) {
    const model::Tensor& t = sg.tensors[static_cast<size_t>(index)];
    tail.Alloc(tg.persistent_tensor.size, tg.persistent_tensor.align, kTailIoTensors);
    if (HasScaleAndZeroPoint(t)) {
      tail.Alloc(tg.affine_quantization.size, tg.affine_quantization.align, kTailIoQuantization);
      // The zero-point TfLiteIntArray (int size + one int per channel); scales stay in the flatbuffer.
      tail.Alloc(4 + 4 * t.quantization->zero_point.size(), 4, kTailIoQuantization);
    }
  }
}

}  // namespace

Result<std::vector<lifetime::ScratchRequest>> ScratchRequests(const model::Model& model, const Target& target) {
  std::vector<lifetime::ScratchRequest> out;
  uint32_t global_op = 0;
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    for (size_t i = 0; i < model.subgraphs[s].operators.size(); ++i, ++global_op) {
      auto a = EvaluateKernel(model, s, i, target);
      if (!a.ok()) return a.status();
      const std::string where = "subgraph " + std::to_string(s) + ", op " + std::to_string(i) + " (" +
                                StringOf(model, s, i) + ")";
      if (a->scratch_bytes.size() > rules::kMaxScratchPerNode) {
        return Unsupported(where + ": more than " + std::to_string(rules::kMaxScratchPerNode) + " scratch requests");
      }
      for (uint64_t bytes : a->scratch_bytes) {
        if (bytes > rules::kMaxBufferBytes) {
          return Unsupported(where + ": scratch request of " + std::to_string(bytes) + " bytes, more than the " +
                             std::to_string(rules::kMaxBufferBytes) + " a buffer may have");
        }
        if (out.size() >= rules::kMaxScratchRequests) {
          return Unsupported(where + ": more than " + std::to_string(rules::kMaxScratchRequests) +
                             " scratch requests in the model");
        }
        out.push_back({static_cast<uint32_t>(bytes), global_op});
      }
    }
  }
  return out;
}

uint64_t TailBytes(const ArenaSize& size, const std::string& name) {
  for (const TailCategory& c : size.tail_breakdown) {
    if (c.name == name) return c.bytes;
  }
  return 0;
}

Result<ArenaSize> ComputeArenaSize(const model::Model& model, const Target& target, const std::string& planner,
                                   bool use_offline_plan) {
  ARENAPLAN_RETURN_IF_ERROR(plan::CheckPlannerName(planner));
  ArenaSize r;
  r.target = target.name;
  r.planner = plan::FindPlanner(planner)->name;
  if (model.subgraphs.empty()) return InvalidArgument("model has no subgraphs");

  // 1. Registration: every op needs a kernel.
  r.error = RegistrationError(model);
  if (!r.error.empty()) return r;

  // 2. Kernel table rows and type checks, in Prepare order; the first failure wins.
  std::vector<std::vector<OpAllocation>> allocs(model.subgraphs.size());
  std::string invoke_error;
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    for (size_t i = 0; i < model.subgraphs[s].operators.size(); ++i) {
      const std::string name = StringOf(model, s, i);
      const KernelEntry* k = FindKernelEntry(name);
      if (k == nullptr) {
        return Unsupported("subgraph " + std::to_string(s) + ", op " + std::to_string(i) + ": TFLM has a kernel for '" +
                           name + "' but arenaplan's kernel table has no row for it; cannot size the tail");
      }
      TypeVerdict v = CheckKernelTypes(model, s, i, *k);
      if (!v.message.empty()) {
        if (!v.at_invoke) {
          r.error = v.message;
          return r;
        }
        if (invoke_error.empty()) invoke_error = v.message;
      }
      auto a = EvaluateKernel(model, s, i, target);
      if (!a.ok()) return a.status();
      if (name == "CUSTOM:ethos-u") {
        r.notes.push_back(
            "custom op ethos-u is sized as a no-op kernel (Ethos-U builds only); its NPU command stream "
            "and scratch are not modelled");
      }
      allocs[s].push_back(std::move(*a));
    }
  }

  // 3. Head: tensors + scratch, planned.
  auto scratch = ScratchRequests(model, target);
  if (!scratch.ok()) return scratch.status();
  lifetime::Options lopt;
  lopt.alignment = target.buffer_alignment;
  lopt.scratch = *scratch;
  lopt.use_offline_plan = use_offline_plan;
  auto lifetimes = lifetime::ComputeLifetimes(model, lopt);
  if (!lifetimes.ok()) {
    // What TFLM refuses to plan (an unsized tensor type, ...) is "TFLM cannot run it"; a
    // malformed model (an offline plan that does not match) is bad input, as in every command.
    if (lifetimes.status().code() != ErrorCode::kUnsupported) return lifetimes.status();
    r.error = lifetimes.status().message();
    return r;
  }
  const plan::Problem problem = lifetime::ToProblem(*lifetimes, target.buffer_alignment);
  auto planned = plan::PlanAndVerify(problem, planner);
  if (!planned.ok()) return planned.status();
  r.head_bytes = static_cast<uint64_t>(planned->plan.height);
  r.planned_buffers = lifetimes->buffers.size();
  r.scratch_requests = scratch->size();

  // 4. Tail, in TFLM's allocation order.
  TailSim tail;
  for (const StructLayout& o : target.fixed_objects) tail.Alloc(o.size, o.align, kTailAllocatorObjects);
  size_t var_handles = 0;
  for (const model::Subgraph& sg : model.subgraphs) {
    for (const model::Operator& op : sg.operators) {
      if (model.code_of(op).builtin_code == model::op::kVarHandle) ++var_handles;
    }
  }
  if (var_handles > 0) {
    // The user's MicroResourceVariables (capacity = VAR_HANDLE ops), created before AllocateTensors.
    tail.Alloc(target.resource_variables.size, target.buffer_alignment, kTailResourceVariables);
    tail.Alloc(uint64_t{target.resource_variable.size} * var_handles, target.buffer_alignment, kTailResourceVariables);
  }
  tail.Alloc(target.builtin_data_allocator.size, target.builtin_data_allocator.align, kTailAllocatorObjects);
  tail.Alloc(uint64_t{target.subgraph_allocations.size} * model.subgraphs.size(), target.subgraph_allocations.align,
             kTailAllocatorObjects);
  for (const model::Subgraph& sg : model.subgraphs) {
    tail.Alloc(uint64_t{target.eval_tensor.size} * sg.tensors.size(), target.eval_tensor.align, kTailEvalTensors);
    tail.Alloc(uint64_t{target.node_and_registration.size} * sg.operators.size(), target.node_and_registration.align,
               kTailNodes);
  }
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    for (size_t i = 0; i < allocs[s].size(); ++i) {
      OpTail ot{static_cast<int32_t>(s), static_cast<int32_t>(i), StringOf(model, s, i), 0, 0};
      if (allocs[s][i].options.size > 0) {
        ot.option_bytes = tail.Alloc(allocs[s][i].options.size, allocs[s][i].options.align, kTailOpOptions);
      }
      r.ops.push_back(ot);
    }
  }
  size_t op_index = 0;
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {  // Init of every op
    for (size_t i = 0; i < allocs[s].size(); ++i, ++op_index) {
      if (allocs[s][i].init_bytes > 0) {
        r.ops[op_index].kernel_bytes += tail.Alloc(allocs[s][i].init_bytes, target.buffer_alignment, kTailKernelData);
      }
      for (uint64_t bytes : allocs[s][i].init_extra_bytes) {
        r.ops[op_index].kernel_bytes += tail.Alloc(bytes, target.buffer_alignment, kTailKernelData);
      }
    }
  }
  // Resource variables get their buffer at the first ASSIGN_VARIABLE that writes them. The model
  // view carries no shared_name, so handles in different subgraphs are taken to name the same
  // variables (the CALL_ONCE init pattern): at most max(VAR_HANDLE ops per subgraph) buffers.
  size_t resources_left = 0;
  for (const model::Subgraph& sg : model.subgraphs) {
    size_t n = 0;
    for (const model::Operator& op : sg.operators) n += model.code_of(op).builtin_code == model::op::kVarHandle;
    resources_left = std::max(resources_left, n);
  }
  op_index = 0;
  uint64_t requests_before = 0;  // scratch requests of the ops prepared so far
  PrepareTempModel temps;
  std::vector<std::string> assumed_temp;
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {  // then Prepare of every op
    for (size_t i = 0; i < allocs[s].size(); ++i, ++op_index) {
      const OpAllocation& a = allocs[s][i];
      // Temp starts above the scratch-request array, which holds room for 12 more requests.
      temps.BeginNode(uint64_t{target.scratch_request_bytes} * (requests_before + 12));
      auto temp_allocs = [&](size_t from, size_t to) {
        for (size_t k = from; k < to; ++k) temps.Temp(a.prepare_temp[k], tail.used);
      };
      temp_allocs(0, a.temp_before_persistent);
      for (size_t k = 0; k < a.prepare_bytes.size(); ++k) {
        r.ops[op_index].kernel_bytes += tail.Alloc(a.prepare_bytes[k], target.buffer_alignment, kTailKernelData);
        temps.Persistent(a.prepare_bytes[k], tail.used, a.prepare_write[k]);
      }
      const model::Operator& op = model.subgraphs[s].operators[i];
      if (model.code_of(op).builtin_code == model::op::kAssignVariable && resources_left > 0 && op.inputs.size() >= 2 &&
          op.inputs[1] >= 0) {
        const model::Tensor& value = model.subgraphs[s].tensors[static_cast<size_t>(op.inputs[1])];
        --resources_left;
        r.ops[op_index].kernel_bytes += tail.Alloc(value.bytes ? *value.bytes : 0, target.buffer_alignment,
                                                   kTailResourceVariables);
        temps.Persistent(value.bytes ? *value.bytes : 0, tail.used, OpAllocation::Write::kWritten);
      }
      temp_allocs(a.temp_before_persistent, a.prepare_temp.size());
      requests_before += a.scratch_bytes.size();
      const std::string name = StringOf(model, s, i);
      if (!a.temp_verified && std::find(assumed_temp.begin(), assumed_temp.end(), name) == assumed_temp.end()) {
        assumed_temp.push_back(name);
      }
    }
  }
  if (!assumed_temp.empty()) {
    std::string ops;
    for (const std::string& name : assumed_temp) ops += (ops.empty() ? "" : ", ") + name;
    r.notes.push_back("the temporary tensors the Prepare of " + ops +
                      " fetches are assumed, not read from TFLM's kernel (each input and output twice, more than "
                      "most kernels take): the smallest arena may be high, not low");
  }
  if (!scratch->empty()) {
    tail.Alloc(uint64_t{target.scratch_handle.size} * scratch->size(), target.scratch_handle.align,
               kTailScratchHandles);
  }
  // Variable tensors live in the tail unless the offline plan places them in the head.
  size_t global = 0;
  for (const model::Subgraph& sg : model.subgraphs) {
    for (const model::Tensor& t : sg.tensors) {
      const bool offline = use_offline_plan && model.offline_plan && global < model.offline_plan->offsets.size() &&
                           model.offline_plan->offsets[global] != -1;
      if (t.is_variable && !offline && t.bytes && *t.bytes > 0) {
        tail.Alloc(*t.bytes, target.buffer_alignment, kTailVariables);
      }
      ++global;
    }
  }
  const uint64_t tail_before_io = tail.used;
  IoTensors(tail, target, model.subgraphs[0], model.subgraphs[0].inputs);
  IoTensors(tail, target, model.subgraphs[0], model.subgraphs[0].outputs);

  r.tail_bytes = tail.used;
  r.arena_used_bytes = r.head_bytes + r.tail_bytes;
  for (const std::string& c : tail.order) r.tail_breakdown.push_back({c, tail.by_category[c]});

  // 5. The planning-time peak: head = scratch-request array, temp = size_t[subgraphs] +
  // AllocationInfo[tensors + requests], then 16-aligned planner memory at 40 B per planned buffer.
  uint64_t total_tensors = 0;
  for (const model::Subgraph& sg : model.subgraphs) total_tensors += sg.tensors.size();
  // TFLM reserves kMaxScratchBuffersPerOp request slots beyond the requests made.
  uint64_t temp = uint64_t{target.scratch_request_bytes} * (scratch->size() + rules::kMaxScratchPerNode);
  temp = AlignUp<uint64_t>(temp, target.size_t_bytes) + uint64_t{target.size_t_bytes} * model.subgraphs.size();
  temp = AlignUp<uint64_t>(temp, target.size_t_bytes) +
         uint64_t{target.allocation_info_bytes} * (total_tensors + scratch->size());
  temp = AlignUp<uint64_t>(temp, target.buffer_alignment) +
         uint64_t{target.planner_bytes_per_buffer} * r.planned_buffers;
  // The planner gets GetAvailableMemory(16): the tail aligned down to 16 minus the aligned temp end.
  r.planning_peak_bytes = AlignUp<uint64_t>(tail_before_io, rules::kBufferAlignment) + temp;
  const uint64_t floor = AlignUp<uint64_t>(std::max(r.planning_peak_bytes, r.arena_used_bytes),
                                           rules::kBufferAlignment);
  r.min_arena_bytes = temps.Smallest(floor);
  r.safe_arena_bytes = temps.Safe(floor);
  if (r.safe_arena_bytes > r.min_arena_bytes) {
    r.notes.push_back("a kernel's Prepare overwrites its temporary tensors at some sizes between " +
                      std::to_string(r.min_arena_bytes) + " and " + std::to_string(r.safe_arena_bytes) +
                      " bytes (TFLM fails there); every arena from " + std::to_string(r.safe_arena_bytes) +
                      " bytes works");
  }

  r.allocates = true;
  r.supported = invoke_error.empty();
  r.error = invoke_error;
  return r;
}

}  // namespace arenaplan::tflm
