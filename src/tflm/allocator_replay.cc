#include "tflm/allocator_replay.h"

#include <algorithm>

#include "plan/plan_and_verify.h"
#include "rules/limits.h"
#include "util/checked_math.h"

namespace arenaplan::tflm {
namespace {

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

size_t CountOps(const model::Subgraph& sg, const model::Model& m, int32_t code) {
  size_t n = 0;
  for (const model::Operator& op : sg.operators) n += m.code_of(op).builtin_code == code;
  return n;
}

// Kernel table rows and type checks, in Prepare order; the first failure at AllocateTensors wins.
Status EvaluateKernels(const model::Model& model, const Target& target, PreparedModel& p) {
  p.allocs.assign(model.subgraphs.size(), {});
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
          p.size.error = v.message;
          p.fails_allocation = true;
          return Status::Ok();
        }
        if (p.invoke_error.empty()) p.invoke_error = v.message;
      }
      auto a = EvaluateKernel(model, s, i, target);
      if (!a.ok()) return a.status();
      if (name == "CUSTOM:ethos-u") {
        p.size.notes.push_back(
            "custom op ethos-u is sized as a no-op kernel (Ethos-U builds only); its NPU command stream "
            "and scratch are not modelled");
      }
      p.allocs[s].push_back(std::move(*a));
    }
  }
  return Status::Ok();
}

// The head: tensors + scratch, planned.
Status PlanHead(const model::Model& model, const Target& target, const std::string& planner, bool use_offline_plan,
                PreparedModel& p) {
  auto lopt = LifetimeOptionsFor(model, target);
  if (!lopt.ok()) return lopt.status();
  lopt->use_offline_plan = use_offline_plan;
  auto lifetimes = lifetime::ComputeLifetimes(model, *lopt);
  if (!lifetimes.ok()) {
    // What TFLM refuses to plan (an unsized tensor type, ...) is "TFLM cannot run it"; a
    // malformed model (an offline plan that does not match) is bad input, as in every command.
    if (lifetimes.status().code() != ErrorCode::kUnsupported) return lifetimes.status();
    p.size.error = lifetimes.status().message();
    p.fails_allocation = true;
    return Status::Ok();
  }
  const plan::Problem problem = lifetime::ToProblem(*lifetimes, target.buffer_alignment);
  auto planned = plan::PlanAndVerify(problem, planner);
  if (!planned.ok()) return planned.status();
  p.size.head_bytes = static_cast<uint64_t>(planned->plan.height);
  p.size.planned_buffers = lifetimes->buffers.size();
  p.size.scratch_requests = p.scratch_requests = lopt->scratch.size();
  return Status::Ok();
}

}  // namespace

Result<PreparedModel> PrepareModel(const model::Model& model, const Target& target, const std::string& planner,
                                   bool use_offline_plan) {
  ARENAPLAN_RETURN_IF_ERROR(plan::CheckPlannerName(planner));
  PreparedModel p;
  p.model = &model;
  p.use_offline_plan = use_offline_plan;
  p.size.target = target.name;
  p.size.planner = plan::FindPlanner(planner)->name;
  if (model.subgraphs.empty()) return InvalidArgument("model has no subgraphs");
  for (const model::Subgraph& sg : model.subgraphs) p.total_tensors += sg.tensors.size();
  if (std::string note = IgnoredScheduleNote(model); !note.empty()) p.size.notes.push_back(std::move(note));
  p.size.error = RegistrationError(model);  // every op needs a kernel
  p.fails_allocation = !p.size.error.empty();
  if (!p.fails_allocation) ARENAPLAN_RETURN_IF_ERROR(EvaluateKernels(model, target, p));
  if (!p.fails_allocation) ARENAPLAN_RETURN_IF_ERROR(PlanHead(model, target, planner, use_offline_plan, p));
  return p;
}

void AllocatorReplay::Categories::Add(const char* category, uint64_t n) {
  if (bytes.find(category) == bytes.end()) order.push_back(category);
  bytes[category] += n;
}

std::vector<TailCategory> AllocatorReplay::Categories::List() const {
  std::vector<TailCategory> out;
  for (const std::string& c : order) out.push_back({c, bytes.at(c)});
  return out;
}

AllocatorReplay::AllocatorReplay(const Target& target) : target_(target) {
  for (const StructLayout& o : target.fixed_objects) Alloc(o.size, o.align, kTailAllocatorObjects);
  fixed_bytes_ = tail_used_;
}

// TFLM's persistent (tail) allocator: the tail moves down to align_down(tail - size, align).
uint64_t AllocatorReplay::Alloc(uint64_t size, uint64_t align, const char* category) {
  const uint64_t before = tail_used_;
  tail_used_ = AlignUp<uint64_t>(tail_used_ + size, align == 0 ? 1 : align);
  all_.Add(category, tail_used_ - before);
  model_.Add(category, tail_used_ - before);
  return tail_used_ - before;
}

std::vector<TailCategory> AllocatorReplay::TailBreakdown() const { return all_.List(); }

ArenaSize AllocatorReplay::Allocate(const PreparedModel& p) {
  ArenaSize r = p.size;
  model_ = {};
  const uint64_t tail_before = tail_used_;
  StartModelAllocation(p, r);
  InitAndPrepare(p, r);
  FinishModelAllocation(p, r);
  r.tail_bytes = tail_used_ - tail_before;
  r.tail_breakdown = model_.List();
  r.arena_used_bytes = arena_used();
  r.allocates = true;
  r.supported = p.invoke_error.empty();
  r.error = p.invoke_error;
  return r;
}

// The user's MicroResourceVariables (before the interpreter), then StartModelAllocation and the op
// option structs TFLM parses.
void AllocatorReplay::StartModelAllocation(const PreparedModel& p, ArenaSize& r) {
  const model::Model& model = *p.model;
  size_t var_handles = 0;
  for (const model::Subgraph& sg : model.subgraphs) var_handles += CountOps(sg, model, model::op::kVarHandle);
  if (var_handles > 0) {
    // Capacity = VAR_HANDLE ops; the object, then the entry array.
    Alloc(target_.resource_variables.size, target_.buffer_alignment, kTailResourceVariables);
    Alloc(uint64_t{target_.resource_variable.size} * var_handles, target_.buffer_alignment, kTailResourceVariables);
  }
  Alloc(target_.builtin_data_allocator.size, target_.builtin_data_allocator.align, kTailAllocatorObjects);
  Alloc(uint64_t{target_.subgraph_allocations.size} * model.subgraphs.size(), target_.subgraph_allocations.align,
        kTailAllocatorObjects);
  for (const model::Subgraph& sg : model.subgraphs) {
    Alloc(uint64_t{target_.eval_tensor.size} * sg.tensors.size(), target_.eval_tensor.align, kTailEvalTensors);
    Alloc(uint64_t{target_.node_and_registration.size} * sg.operators.size(), target_.node_and_registration.align,
          kTailNodes);
  }
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    for (size_t i = 0; i < p.allocs[s].size(); ++i) {
      OpTail ot{static_cast<int32_t>(s), static_cast<int32_t>(i), StringOf(model, s, i), 0, 0};
      const StructLayout& o = p.allocs[s][i].options;
      if (o.size > 0) ot.option_bytes = Alloc(o.size, o.align, kTailOpOptions);
      r.ops.push_back(ot);
    }
  }
}

// Init of every op, then Prepare of every op with its temporaries (prepare_temp.h).
void AllocatorReplay::InitAndPrepare(const PreparedModel& p, ArenaSize& r) {
  const model::Model& model = *p.model;
  size_t op_index = 0;
  for (const auto& sg_allocs : p.allocs) {
    for (const OpAllocation& a : sg_allocs) {
      uint64_t& kernel = r.ops[op_index++].kernel_bytes;
      if (a.init_bytes > 0) kernel += Alloc(a.init_bytes, target_.buffer_alignment, kTailKernelData);
      for (uint64_t bytes : a.init_extra_bytes) kernel += Alloc(bytes, target_.buffer_alignment, kTailKernelData);
    }
  }
  // Resource variables get their buffer at the first ASSIGN_VARIABLE that writes them. The model
  // view carries no shared_name, so handles in different subgraphs are taken to name the same
  // variables (the CALL_ONCE init pattern): at most max(VAR_HANDLE ops per subgraph) buffers.
  size_t resources_left = 0;
  for (const model::Subgraph& sg : model.subgraphs) {
    resources_left = std::max(resources_left, CountOps(sg, model, model::op::kVarHandle));
  }
  op_index = 0;
  uint64_t requests_before = 0;  // scratch requests of the ops prepared so far
  std::vector<std::string> assumed_temp;
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    for (size_t i = 0; i < p.allocs[s].size(); ++i, ++op_index) {
      const OpAllocation& a = p.allocs[s][i];
      uint64_t& kernel = r.ops[op_index].kernel_bytes;
      // Temp starts above the scratch-request array, which holds room for 12 more requests.
      temps_.BeginNode(uint64_t{target_.scratch_request_bytes} * (requests_before + rules::kMaxScratchPerNode));
      for (size_t k = 0; k < a.temp_before_persistent; ++k) temps_.Temp(a.prepare_temp[k], tail_used_);
      for (size_t k = 0; k < a.prepare_bytes.size(); ++k) {
        kernel += Alloc(a.prepare_bytes[k], target_.buffer_alignment, kTailKernelData);
        temps_.Persistent(a.prepare_bytes[k], tail_used_, a.prepare_write[k]);
      }
      const model::Operator& op = model.subgraphs[s].operators[i];
      if (model.code_of(op).builtin_code == model::op::kAssignVariable && resources_left > 0 && op.inputs.size() >= 2 &&
          op.inputs[1] >= 0) {
        const model::Tensor& value = model.subgraphs[s].tensors[static_cast<size_t>(op.inputs[1])];
        const uint64_t bytes = value.bytes ? *value.bytes : 0;
        --resources_left;
        kernel += Alloc(bytes, target_.buffer_alignment, kTailResourceVariables);
        temps_.Persistent(bytes, tail_used_, OpAllocation::Write::kWritten);
      }
      for (size_t k = a.temp_before_persistent; k < a.prepare_temp.size(); ++k) {
        temps_.Temp(a.prepare_temp[k], tail_used_);
      }
      requests_before += a.scratch_bytes.size();
      const std::string name = StringOf(model, s, i);
      if (!a.temp_verified && std::find(assumed_temp.begin(), assumed_temp.end(), name) == assumed_temp.end()) {
        assumed_temp.push_back(name);
      }
    }
  }
  if (assumed_temp.empty()) return;
  std::string ops;
  for (const std::string& name : assumed_temp) ops += (ops.empty() ? "" : ", ") + name;
  r.notes.push_back("the temporary tensors the Prepare of " + ops +
                    " fetches are assumed, not read from TFLM's kernel (each input and output twice, more than "
                    "most kernels take): the smallest arena may be high, not low");
}

// Scratch handles and variable buffers, CommitStaticMemoryPlan's temporary peak, the head set to the
// largest plan so far, then AllocateTensors' I/O TfLiteTensors.
void AllocatorReplay::FinishModelAllocation(const PreparedModel& p, ArenaSize& r) {
  const model::Model& model = *p.model;
  if (p.scratch_requests > 0) {
    Alloc(uint64_t{target_.scratch_handle.size} * p.scratch_requests, target_.scratch_handle.align,
          kTailScratchHandles);
  }
  // Variable tensors live in the tail unless the offline plan places them in the head.
  size_t global = 0;
  for (const model::Subgraph& sg : model.subgraphs) {
    for (const model::Tensor& t : sg.tensors) {
      const bool offline = p.use_offline_plan && model.offline_plan && global < model.offline_plan->offsets.size() &&
                           model.offline_plan->offsets[global] != -1;
      if (t.is_variable && !offline && t.bytes && *t.bytes > 0)
        Alloc(*t.bytes, target_.buffer_alignment, kTailVariables);
      ++global;
    }
  }
  // Planning: head = scratch-request array (with kMaxScratchBuffersPerOp spare slots), temp =
  // size_t[subgraphs] + AllocationInfo[tensors + requests], then 16-aligned planner memory at 40 B
  // per planned buffer. The planner gets GetAvailableMemory(16): the tail aligned down to 16 minus
  // the aligned temp end.
  uint64_t temp = uint64_t{target_.scratch_request_bytes} * (p.scratch_requests + rules::kMaxScratchPerNode);
  temp = AlignUp<uint64_t>(temp, target_.size_t_bytes) + uint64_t{target_.size_t_bytes} * model.subgraphs.size();
  temp = AlignUp<uint64_t>(temp, target_.size_t_bytes) +
         uint64_t{target_.allocation_info_bytes} * (p.total_tensors + p.scratch_requests);
  temp = AlignUp<uint64_t>(temp, target_.buffer_alignment) +
         uint64_t{target_.planner_bytes_per_buffer} * r.planned_buffers;
  r.planning_peak_bytes = AlignUp<uint64_t>(tail_used_, rules::kBufferAlignment) + temp;
  floor_ = std::max(floor_, r.planning_peak_bytes);
  max_head_ = std::max(max_head_, r.head_bytes);  // ReserveNonPersistentOverlayMemory(max_head_buffer_usage_)
  IoTensors(model.subgraphs[0], model.subgraphs[0].inputs);
  IoTensors(model.subgraphs[0], model.subgraphs[0].outputs);
}

void AllocatorReplay::IoTensors(const model::Subgraph& sg, const std::vector<int32_t>& list) {
  Alloc(uint64_t{target_.pointer_bytes} * list.size(), target_.buffer_alignment, kTailIoPointers);
  for (int32_t index : list) {
    const model::Tensor& t = sg.tensors[static_cast<size_t>(index)];
    Alloc(target_.persistent_tensor.size, target_.persistent_tensor.align, kTailIoTensors);
    if (HasScaleAndZeroPoint(t)) {
      Alloc(target_.affine_quantization.size, target_.affine_quantization.align, kTailIoQuantization);
      // The zero-point TfLiteIntArray (int size + one int per channel); scales stay in the flatbuffer.
      Alloc(4 + 4 * t.quantization->zero_point.size(), 4, kTailIoQuantization);
    }
  }
}

// Every allocation is checked against the head TFLM holds at that moment; the final head (the
// largest plan) + the whole tail bounds them all but the planning and Prepare peaks.
uint64_t AllocatorReplay::MinArena() const {
  return temps_.Smallest(AlignUp<uint64_t>(std::max(floor_, arena_used()), rules::kBufferAlignment));
}

uint64_t AllocatorReplay::SafeArena() const {
  return temps_.Safe(AlignUp<uint64_t>(std::max(floor_, arena_used()), rules::kBufferAlignment));
}

std::string PrepareOverwriteNote(const ArenaSize& size) {
  return "a kernel's Prepare overwrites its temporary tensors at some sizes between " +
         std::to_string(size.min_arena_bytes) + " and " + std::to_string(size.safe_arena_bytes) +
         " bytes (TFLM fails there); every arena from " + std::to_string(size.safe_arena_bytes) + " bytes works";
}

}  // namespace arenaplan::tflm
