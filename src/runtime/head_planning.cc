#include "runtime/head_planning.h"

#include <cstring>

#include "rules/lifetimes.h"
#include "rules/limits.h"
#include "rules/offline_plan.h"
#include "rules/schedule.h"
#include "runtime/stream.h"

namespace arenaplan::rt {
namespace {

using rules::kOnline;

// Everything the pass works on; the arrays live in the arena.
struct Pass {
  const BoundModel& model;
  TailTables* tables;
  const rules::OfflinePlan& offline;
  rules::ExternalIo io;
  PlanBuffer* bufs = nullptr;
  uint32_t num_tensors = 0;  // planned tensors: buffers [0, num_tensors)
  uint32_t num_requests = 0;
  uint8_t* workspace = nullptr;  // 4 bytes per buffer

  uint32_t count() const { return num_tensors + num_requests; }
  const rules::ScratchRequest* requests(const Arena& arena) const {
    return reinterpret_cast<const rules::ScratchRequest*>(arena.base);
  }
};

// TFLM's needs_allocating for global tensor t; a tensor a kernel pointed at persistent data in
// prepare has data already (its offset is set), like a constant. External I/O is not planned.
bool Planned(const BoundModel& model, const TailTables& tables, const rules::OfflinePlan& offline, rules::ExternalIo io,
             uint32_t t) {
  const tfl::Tensor& tensor = model.tensor(t);
  uint64_t size = 0;
  const bool has_data = model.ConstantData(tensor, &size) != nullptr || tables.tensor_offset[t] != kNoData;
  if (!rules::NeedsAllocating(has_data, tensor.is_variable(), rules::TensorBytes(tensor),
                              rules::OfflineOffset(offline, t))) {
    return false;
  }
  return io == rules::ExternalIo::kNone || t >= rules::Size(model.subgraph(0).tensors()) ||
         !rules::IsExternalTensor(model.subgraph(0), t, io);
}

uint32_t Aligned(uint64_t bytes) {
  return AlignUp<uint32_t>(static_cast<uint32_t>(bytes), rules::kBufferAlignment);  // bytes <= limits
}

// Buffers in AddBuffer order, and the sorted planned-tensor ids in the workspace.
void CollectBuffers(Pass& p, const Arena& arena) {
  auto* planned = reinterpret_cast<uint32_t*>(p.workspace);
  uint32_t b = 0;
  for (uint32_t t = 0; t < p.model.counts.tensors; ++t) {
    if (!Planned(p.model, *p.tables, p.offline, p.io, t)) continue;
    planned[b] = t;
    p.bufs[b++] = PlanBuffer{Aligned(rules::TensorBytes(p.model.tensor(t))), -1, -1,
                             rules::OfflineOffset(p.offline, t)};
  }
  for (uint32_t r = 0; r < p.num_requests; ++r) {
    p.bufs[b++] = PlanBuffer{Aligned(p.requests(arena)[r].bytes), -1, -1, kOnline};
  }
}

// `what` names the plan ("compiled plan", "offline plan").
StatusCode CheckPlan(const PlanBuffer* bufs, uint32_t n, uint32_t head_bytes, const char* what, ErrorText* error) {
  // A compiled plan is trusted for nothing: two buffers live at the same time must not overlap.
  for (uint32_t i = 0; i < n; ++i) {
    if (static_cast<uint64_t>(bufs[i].offset) + bufs[i].size > head_bytes) {
      SetError(error, "%s: buffer %u ends at %u, beyond head_bytes %u", what, i,
               static_cast<uint32_t>(bufs[i].offset + bufs[i].size), head_bytes);
      return StatusCode::kBadArgument;
    }
    for (uint32_t j = i + 1; j < n; ++j) {
      const bool live_together = !(bufs[i].first > bufs[j].last || bufs[j].first > bufs[i].last);
      const uint64_t end_i = static_cast<uint64_t>(bufs[i].offset) + bufs[i].size;
      const uint64_t end_j = static_cast<uint64_t>(bufs[j].offset) + bufs[j].size;
      const bool apart = end_i <= static_cast<uint64_t>(bufs[j].offset) ||
                         end_j <= static_cast<uint64_t>(bufs[i].offset);
      if (live_together && !apart && bufs[i].size > 0 && bufs[j].size > 0) {
        SetError(error, "%s: buffers %u and %u are live together and overlap", what, i, j);
        return StatusCode::kBadArgument;
      }
    }
  }
  return StatusCode::kOk;
}

// A region plan: each buffer checked against its region's bytes, then moved to its virtual offset
// (region_arenas.h), where the regions are disjoint and one overlap check covers them all.
StatusCode ApplyRegions(const Pass& p, const CompiledPlan& plan, const InterpreterOptions& options, const Arena& arena,
                        ErrorText* error) {
  RT_RETURN_IF_ERROR(CheckRegionArenas(arena, options.regions, options.num_regions, error));
  if (plan.head_bytes > arena.size) {
    SetError(error, "compiled plan: region 0 needs a head of %u bytes, the arena has %u", plan.head_bytes, arena.size);
    return StatusCode::kArenaFull;
  }
  for (uint32_t b = 0; b < p.count(); ++b) {
    const uint32_t r = plan.regions[b];
    if (r > options.num_regions) {
      SetError(error, "compiled plan: buffer %u is in region %u; the interpreter has regions 0..%u", b, r,
               options.num_regions);
      return StatusCode::kBadArgument;
    }
    const uint32_t bytes = r == 0 ? plan.head_bytes : options.regions[r - 1].bytes;
    const uint64_t end = static_cast<uint64_t>(p.bufs[b].offset) + p.bufs[b].size;
    if (end > bytes) {
      SetError(error, "compiled plan: buffer %u ends at %llu, beyond region %u's %u bytes", b,
               static_cast<unsigned long long>(end), r, bytes);
      return StatusCode::kBadArgument;
    }
    p.bufs[b].offset += static_cast<int32_t>(RegionStart(arena, options.regions, r));  // < 4 GiB: checked
  }
  const uint32_t limit = RegionStart(arena, options.regions, options.num_regions + 1);
  return CheckPlan(p.bufs, p.count(), limit, "compiled plan", error);
}

StatusCode ApplyCompiledPlan(const Pass& p, const CompiledPlan& plan, ErrorText* error) {
  const uint32_t n = p.count();
  const uint32_t per_tensor = p.model.counts.tensors + p.num_requests;
  if ((plan.offsets == nullptr && plan.count > 0) || (plan.count != per_tensor && plan.count != n)) {
    SetError(error, "compiled plan has %u offsets; expected %u (per tensor + scratch) or %u (per planned buffer)",
             plan.count, per_tensor, n);
    return StatusCode::kBadArgument;
  }
  uint32_t b = 0;
  for (uint32_t i = 0; i < plan.count; ++i) {
    const bool planned = plan.count == n || i >= p.model.counts.tensors ||
                         Planned(p.model, *p.tables, p.offline, p.io, i);
    if (!planned) continue;
    if (plan.offsets[i] < 0) {
      SetError(error, "compiled plan entry %u is %d for a buffer that needs memory", i, plan.offsets[i]);
      return StatusCode::kBadArgument;
    }
    p.bufs[b++].offset = plan.offsets[i];
  }
  if (plan.regions != nullptr) return StatusCode::kOk;  // checked per region by ApplyRegions
  return CheckPlan(p.bufs, n, plan.head_bytes, "compiled plan", error);
}

// A tied pair (AliasInPlace's split QUANTIZE input, OverlapStreams' split stream input) is one
// tensor's bytes: a compiled plan must keep the upper part directly on the lower, in one region (`regions`: the plan's, or nullptr).
// Offsets are final (virtual for regions). O(buffers).
StatusCode CheckTies(const Pass& p, const uint16_t* above, const uint8_t* regions, ErrorText* error) {
  if (above == nullptr) return StatusCode::kOk;
  const auto* planned = reinterpret_cast<const uint32_t*>(p.workspace);  // tied buffers are tensors
  for (uint32_t i = 0; i < p.num_tensors; ++i) {
    const uint32_t j = above[i];
    if (j == 0xFFFFu) continue;
    const uint64_t want = static_cast<uint64_t>(p.bufs[i].offset) + p.bufs[i].size;
    if (static_cast<uint64_t>(p.bufs[j].offset) == want && (regions == nullptr || regions[i] == regions[j])) continue;
    SetError(error,
             "compiled plan: buffer %u (tensor %u, the upper part of a split buffer: an in-place QUANTIZE's or a "
             "stream's input) must start at %llu, directly on buffer %u (tensor %u), in its region; it starts at %d",
             static_cast<unsigned>(j), static_cast<unsigned>(planned[j]), static_cast<unsigned long long>(want),
             static_cast<unsigned>(i), static_cast<unsigned>(planned[i]), static_cast<int>(p.bufs[j].offset));
    return StatusCode::kBadArgument;
  }
  return StatusCode::kOk;
}

void CopyPlan(const Pass& p, bool after, const uint16_t* above, PlanCopy* copy) {
  copy->count = p.count();
  if (copy->count > copy->capacity) return;
  for (uint32_t b = 0; b < p.count(); ++b) {
    if (after && copy->offsets != nullptr) copy->offsets[b] = p.bufs[b].offset;
    if (!after && copy->problem != nullptr) copy->problem[b] = p.bufs[b];
    if (!after && copy->above != nullptr) copy->above[b] = above != nullptr ? above[b] : 0xFFFFu;
  }
}

// The offsets: offline, compiled or online. *head = the plan's height.
StatusCode Place(Pass& p, const InterpreterOptions& options, const Arena& arena, MemoryRecord* record,
                 const uint16_t* above, uint32_t* head, ErrorText* error) {
  const uint32_t n = p.count();
  record->plan_source = p.offline.present() ? "offline" : "tflm-greedy";
  rules::GapRule rule = rules::GapRule::kFirstFit;
  if (!p.offline.present() && options.compiled_plan != nullptr) {
    RT_RETURN_IF_ERROR(ApplyCompiledPlan(p, *options.compiled_plan, error));
    record->plan_source = "compiled";
    if (options.compiled_plan->regions != nullptr) {
      if (options.compiled_plan->count != n) {
        SetError(error, "compiled plan with regions has %u offsets; expected %u (one per planned buffer)",
                 options.compiled_plan->count, n);
        return StatusCode::kBadArgument;
      }
      RT_RETURN_IF_ERROR(ApplyRegions(p, *options.compiled_plan, options, arena, error));
      RT_RETURN_IF_ERROR(CheckTies(p, above, options.compiled_plan->regions, error));
      *head = options.compiled_plan->head_bytes;
      record->plan_source = "compiled regions";
      return StatusCode::kOk;
    }
    RT_RETURN_IF_ERROR(CheckTies(p, above, nullptr, error));
    above = nullptr;  // every offset is set: the placement below only measures the head
  } else if (!p.offline.present() && options.planner == PlannerKind::kTflmOrderBestFit) {
    record->plan_source = "tflm-order-best-fit";
    rule = rules::GapRule::kBestFit;
  }
  // The workspace now holds the placement's order and next arrays.
  auto* order = reinterpret_cast<uint16_t*>(p.workspace);
  RT_RETURN_IF_ERROR(rules::PlaceBuffers(p.bufs, n, rules::kBufferAlignment, rule, order, order + n, head, error, above));
  // A model's own plan was made for its tensors' plain lifetimes: kept tensors (and buffers a
  // stream stretches) may now overlap.
  if (p.offline.present() && (options.num_keep_tensors > 0 || HasStreams(p.model.schedule))) {
    RT_RETURN_IF_ERROR(CheckPlan(p.bufs, n, *head, "offline plan with kept tensors or streams", error));
  }
  if (options.compiled_plan != nullptr && !p.offline.present() && options.compiled_plan->head_bytes > *head) {
    *head = options.compiled_plan->head_bytes;
  }
  return StatusCode::kOk;
}

// Every planned tensor and scratch request gets its buffer's offset.
void AssignOffsets(const Pass& p) {
  uint32_t b = 0;
  for (uint32_t t = 0; t < p.model.counts.tensors; ++t) {
    if (Planned(p.model, *p.tables, p.offline, p.io, t))
      p.tables->tensor_offset[t] = static_cast<uint32_t>(p.bufs[b++].offset);
  }
  for (uint32_t r = 0; r < p.num_requests; ++r) {
    p.tables->scratch_offset[r] = static_cast<uint32_t>(p.bufs[p.num_tensors + r].offset);
  }
}

// Variables without an offline offset live in the tail; allocated once temp is free again, so they
// never add to the planning peak.
StatusCode AllocateVariables(const BoundModel& model, TailTables* tables, Arena* arena, MemoryRecord* record,
                             ErrorText* error) {
  for (uint32_t t = 0; t < model.counts.tensors; ++t) {
    const tfl::Tensor& tensor = model.tensor(t);
    if (!tensor.is_variable() || tables->tensor_offset[t] != kNoData) continue;
    uint64_t size = 0;
    const uint64_t bytes = rules::TensorBytes(tensor);
    if (model.ConstantData(tensor, &size) != nullptr || bytes == 0) continue;
    uint32_t off = 0;
    RT_RETURN_IF_ERROR(AllocTail(arena, static_cast<uint32_t>(bytes), kArenaAlignment, &record->variable_bytes,
                                 "variable tensor", &off, error));
    tables->tensor_offset[t] = off;
  }
  return StatusCode::kOk;
}

// Input k and output 0 of `op` (subgraph sg) have one type and one shape: that input is read at
// the output's own index (the other may broadcast).
bool SameShape(const BoundModel& model, uint32_t sg, const tfl::Operator& op, uint32_t k) {
  const uint32_t base = model.index.tensor_base[sg];
  const tfl::Tensor& out = model.tensor(base + static_cast<uint32_t>(op.outputs()->Get(0)));
  if (op.inputs()->Get(k) < 0) return false;
  const tfl::Tensor& in = model.tensor(base + static_cast<uint32_t>(op.inputs()->Get(k)));
  if (in.type() != out.type() || rules::Size(in.shape()) != rules::Size(out.shape())) return false;
  for (uint32_t d = 0; d < rules::Size(out.shape()); ++d) {
    if (in.shape()->Get(d) != out.shape()->Get(d)) return false;
  }
  return true;
}

// In place (rules/schedule.h, kInPlace): the output of a marked op shares an input's buffer (the
// depthwise input; an elementwise op's input 0, else 1, of the output's shape) when both are
// planned online, have one size, and the input's lifetime ends at the step where the
// output's begins (no later op reads it, it is not kept). The input's buffer then spans both
// lifetimes and the output's own buffer takes no bytes: the alias is explicit in the planning
// problem (and in PlanCopy), so the placement and any verifier see it. A marked QUANTIZE from
// float32 narrows: its output takes the first bytes of the input, so the output's buffer becomes
// that long-lived part (from the input's first step to the output's last) and the input's buffer
// the rest, which dies with the input, tied directly above it (`above`, rules/greedy.h): the two
// parts together are exactly the input's bytes while it lives. (input, output, narrowing) global
// tensor triples go to pairs[0, 3 * *count) in temp (the input is the buffer's owner: a chain of
// in-place ops all lands on the first one's input; after a narrowing, on the output's own
// buffer). O(marked ops^2).
StatusCode AliasInPlace(Pass& p, Arena* arena, uint32_t** pairs, uint32_t* count, uint16_t** above,
                        ErrorText* error) {
  *pairs = nullptr;
  *count = 0;
  *above = nullptr;
  const rules::Schedule& s = p.model.schedule;
  uint32_t marked = 0;
  for (uint32_t i = 0; i < s.count; ++i) marked += rules::ScheduleAt(s, i).kind == rules::ScheduleKind::kInPlace;
  if (marked == 0) return StatusCode::kOk;
  uint32_t off = 0;
  RT_RETURN_IF_ERROR(ArenaAllocTemp(arena, 12 * marked, 4, &off, error, "in-place pairs"));
  *pairs = reinterpret_cast<uint32_t*>(ArenaPtr(*arena, off));
  const auto* planned = reinterpret_cast<const uint32_t*>(p.workspace);
  for (uint32_t i = 0; i < s.count; ++i) {
    const rules::ScheduleRecord r = rules::ScheduleAt(s, i);
    if (r.kind != rules::ScheduleKind::kInPlace) continue;
    const uint32_t sg = static_cast<uint32_t>(r.subgraph);
    const tfl::Operator& op = p.model.index.op(sg, static_cast<uint32_t>(r.op));
    const uint32_t inputs = rules::Size(op.inputs());
    if (inputs < 1 || rules::Size(op.outputs()) < 1) continue;
    const uint32_t base = p.model.index.tensor_base[sg];
    const uint32_t y = base + static_cast<uint32_t>(op.outputs()->Get(0));
    // Elementwise ops: only an input of the output's shape, which the kernels read at the index
    // they write (ForEachBroadcast, the fast kernels' flat loops); the depthwise kernel checked
    // its shapes in prepare and reads input 0 only.
    const int32_t code = rules::BuiltinCode(p.model.index.code_of(op));
    const bool depthwise = code == static_cast<int32_t>(tfl::BuiltinOperator::DEPTHWISE_CONV_2D);
    const bool quantize = code == static_cast<int32_t>(tfl::BuiltinOperator::QUANTIZE);
    if (!depthwise && !quantize && inputs != 2) continue;
    if (quantize) {
      // Float32 in, a narrower type out (prepare checked the element counts): the kernel writes
      // output i (at most 2 bytes at 2i) only after reading input i (bytes 4i..4i+3).
      if (op.inputs()->Get(0) < 0) continue;
      const uint32_t x = base + static_cast<uint32_t>(op.inputs()->Get(0));
      if (p.model.tensor(x).type() != TensorType::FLOAT32) continue;
      bool aliased = false;
      for (uint32_t a = 0; a < *count; ++a) aliased |= (*pairs)[3 * a] == x || (*pairs)[3 * a + 1] == x;
      if (aliased) continue;
      const int32_t bx = rules::PlannedBufferOf(planned, p.num_tensors, x);
      const int32_t by = rules::PlannedBufferOf(planned, p.num_tensors, y);
      if (bx < 0 || by < 0 || bx == by) continue;
      PlanBuffer& in = p.bufs[bx];
      PlanBuffer& out = p.bufs[by];
      if (in.offset != kOnline || out.offset != kOnline || in.size <= out.size || in.last != out.first ||
          in.first > in.last)
        continue;
      if (*above == nullptr) {
        RT_RETURN_IF_ERROR(ArenaAllocTemp(arena, 2 * p.count(), 2, &off, error, "tied buffers"));
        *above = reinterpret_cast<uint16_t*>(ArenaPtr(*arena, off));
        for (uint32_t b = 0; b < p.count(); ++b) (*above)[b] = 0xFFFFu;
      }
      out.first = in.first;  // the long-lived part: output bytes, from the input's first step
      in.size -= out.size;   // the rest, above it, dies with the input (both sizes 16-aligned)
      (*above)[by] = static_cast<uint16_t>(bx);
      (*pairs)[3 * *count] = x;
      (*pairs)[3 * *count + 1] = y;
      (*pairs)[3 * *count + 2] = 1;
      ++*count;
      continue;
    }
    for (uint32_t k = 0; k < (depthwise ? 1u : 2u); ++k) {
      if (op.inputs()->Get(k) < 0 || (!depthwise && !SameShape(p.model, sg, op, k))) continue;
      uint32_t x = base + static_cast<uint32_t>(op.inputs()->Get(k));
      for (uint32_t a = 0; a < *count; ++a) {  // x on an earlier op's input: that buffer (chains)
        if ((*pairs)[3 * a + 1] == x && (*pairs)[3 * a + 2] == 0) x = (*pairs)[3 * a];
      }
      const int32_t bx = rules::PlannedBufferOf(planned, p.num_tensors, x);
      const int32_t by = rules::PlannedBufferOf(planned, p.num_tensors, y);
      if (bx < 0 || by < 0 || bx == by) continue;
      PlanBuffer& in = p.bufs[bx];
      PlanBuffer& out = p.bufs[by];
      if (in.offset != kOnline || out.offset != kOnline || in.size != out.size || in.last != out.first) continue;
      if (*above != nullptr && ((*above)[by] != 0xFFFFu || (*above)[bx] != 0xFFFFu)) continue;
      in.last = out.last;
      out.size = 0;
      (*pairs)[3 * *count] = x;
      (*pairs)[3 * *count + 1] = y;
      (*pairs)[3 * *count + 2] = 0;
      ++*count;
      break;
    }
  }
  return StatusCode::kOk;
}

}  // namespace

StatusCode PlanHead(const BoundModel& model, const InterpreterOptions& options, uint32_t num_requests, Arena* arena,
                    TailTables* tables, MemoryRecord* record, ErrorText* error) {
  uint32_t off = 0;
  if (num_requests > 0) {
    RT_RETURN_IF_ERROR(
        AllocTail(arena, 4 * num_requests, 4, &record->scratch_table_bytes, "scratch table", &off, error));
    tables->scratch_offset = reinterpret_cast<uint32_t*>(ArenaPtr(*arena, off));
  }
  rules::OfflinePlan offline;
  RT_RETURN_IF_ERROR(rules::ReadOfflinePlan(model.index, model.file, &offline, error));
  Pass p{model, tables, offline, options.external_io};
  p.num_requests = num_requests;
  for (uint32_t t = 0; t < model.counts.tensors; ++t) {
    p.num_tensors += Planned(model, *tables, offline, p.io, t) ? 1 : 0;
  }
  const uint32_t n = p.count();  // <= kMaxPlanBuffers by limits.h
  uint32_t bufs_off = 0, work_off = 0;
  RT_RETURN_IF_ERROR(
      ArenaAllocTemp(arena, n * static_cast<uint32_t>(sizeof(PlanBuffer)), 4, &bufs_off, error, "plan buffers"));
  RT_RETURN_IF_ERROR(ArenaAllocTemp(arena, 4 * n, 4, &work_off, error, "planner workspace"));
  p.bufs = reinterpret_cast<PlanBuffer*>(ArenaPtr(*arena, bufs_off));
  p.workspace = ArenaPtr(*arena, work_off);
  CollectBuffers(p, *arena);
  const auto* planned = reinterpret_cast<const uint32_t*>(p.workspace);
  int32_t steps = 0;
  RT_RETURN_IF_ERROR(rules::MarkLifetimes(model.index, planned, p.num_tensors, p.requests(*arena), num_requests, p.bufs,
                                          error, &steps));
  RT_RETURN_IF_ERROR(rules::ExtendKeptLifetimes(model.index, planned, p.num_tensors, options.keep_tensors,
                                                options.num_keep_tensors, steps, p.bufs, error));
  RT_RETURN_IF_ERROR(PlanStreams(model, planned, p.num_tensors, p.bufs, n, error));
  uint32_t* aliases = nullptr;
  uint32_t num_aliases = 0;
  uint16_t* above = nullptr;
  uint32_t* overlaps = nullptr;
  uint32_t num_overlaps = 0;
  // Online and compiled plans alike: a compiled plan is a plan of this same problem (the host
  // plans the problem PlanCopy records), so it is checked against it, ties included. A model's
  // offline plan was made for the plain lifetimes and keeps them.
  if (!offline.present()) {
    RT_RETURN_IF_ERROR(AliasInPlace(p, arena, &aliases, &num_aliases, &above, error));
    uint32_t streams = 0;
    for (uint32_t i = 0; i < model.schedule.count; ++i) {
      streams += rules::ScheduleAt(model.schedule, i).kind == rules::ScheduleKind::kStream;
    }
    if (streams > 0) {
      RT_RETURN_IF_ERROR(ArenaAllocTemp(arena, 12 * streams, 4, &off, error, "stream overlaps"));
      overlaps = reinterpret_cast<uint32_t*>(ArenaPtr(*arena, off));
      RT_RETURN_IF_ERROR(OverlapStreams(model, planned, p.num_tensors, p.bufs, n, aliases, num_aliases, arena, &above,
                                        overlaps, &num_overlaps, error));
    }
  }
  uint32_t head = 0;
  if (options.plan_copy != nullptr) CopyPlan(p, false, above, options.plan_copy);
  RT_RETURN_IF_ERROR(Place(p, options, *arena, record, above, &head, error));
  if (options.plan_copy != nullptr) CopyPlan(p, true, above, options.plan_copy);
  AssignOffsets(p);
  // Streams first (an in-place alias below may name a stream's X as its owner), the last segment
  // first (its Y fixes its X, which may be an earlier segment's Y).
  for (uint32_t k = num_overlaps; k-- > 0;) {
    const uint32_t x = overlaps[3 * k], y = overlaps[3 * k + 1];
    p.tables->tensor_offset[x] = p.tables->tensor_offset[y] + overlaps[3 * k + 2];
  }
  for (uint32_t k = 0; k < num_aliases; ++k) {
    const uint32_t x = aliases[3 * k], y = aliases[3 * k + 1];
    if (aliases[3 * k + 2] != 0) {
      p.tables->tensor_offset[x] = p.tables->tensor_offset[y];  // narrowing: the input starts at the output
    } else {
      p.tables->tensor_offset[y] = p.tables->tensor_offset[x];
    }
  }
  record->in_place_ops = num_aliases;
  record->stream_overlaps = num_overlaps;
  record->planning_temp_bytes = arena->temp - arena->head;
  record->planned_buffers = n;
  record->scratch_requests = num_requests;
  ArenaResetTemp(arena);
  RT_RETURN_IF_ERROR(ArenaSetHead(arena, head, error, "planned tensors (head)"));
  // Planned buffers start at zero, as in TFLM's measured runs (zeroed arena): ops whose output is
  // state or is left untouched on some Invokes (CIRCULAR_BUFFER, SignalStacker, SignalFramer)
  // then give the same bytes on any arena.
  std::memset(ArenaPtr(*arena, 0), 0, arena->head);
  for (uint32_t k = 0; options.compiled_plan != nullptr && options.compiled_plan->regions != nullptr &&
                       !offline.present() && k < options.num_regions;
       ++k) {
    std::memset(options.regions[k].base, 0, options.regions[k].bytes);
  }
  RT_RETURN_IF_ERROR(AllocateVariables(model, tables, arena, record, error));
  FillVariables(model, *tables, *arena);
  return StatusCode::kOk;
}

void FillVariables(const BoundModel& model, const TailTables& tables, const Arena& arena) {
  for (uint32_t t = 0; t < model.counts.tensors; ++t) {
    const tfl::Tensor& tensor = model.tensor(t);
    if (!tensor.is_variable() || tables.tensor_offset[t] == kNoData) continue;
    int value = 0;
    const tfl::QuantizationParameters* q = tensor.quantization();
    if (tensor.type() == TensorType::INT8 && q != nullptr && rules::Size(q->zero_point()) > 0) {
      value = static_cast<int>(rules::Int64At(*q->zero_point(), 0));
    }
    std::memset(ArenaPtr(arena, tables.tensor_offset[t]), value, static_cast<size_t>(rules::TensorBytes(tensor)));
  }
}

}  // namespace arenaplan::rt
