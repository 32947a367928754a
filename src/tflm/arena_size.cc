#include "tflm/arena_size.h"

#include "rules/limits.h"
#include "rules/schedule.h"
#include "tflm/allocator_replay.h"

namespace arenaplan::tflm {
namespace {

std::string StringOf(const model::Model& m, size_t s, size_t i) { return m.code_of(m.subgraphs[s].operators[i]).name; }

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

Result<lifetime::Options> LifetimeOptionsFor(const model::Model& model, const Target& target) {
  auto scratch = ScratchRequests(model, target);
  if (!scratch.ok()) return scratch.status();
  lifetime::Options options;
  options.alignment = target.buffer_alignment;
  options.scratch = std::move(scratch).value();
  return options;
}

std::string IgnoredScheduleNote(const model::Model& model) {
  for (const model::Metadata& m : model.metadata) {
    if (m.name != rules::kScheduleMetadataName) continue;
    return std::string("this model carries an arenaplan execution schedule (") + rules::kScheduleMetadataName +
           ", written by optimize --for arenaplan) that stock TFLM ignores: TFLM would run its convolutions "
           "without the schedule's explicit padding (wrong outputs where there is any) and no op in place; "
           "these figures are for the graph as stored, and the model is for arenaplan's runtime (`arenaplan "
           "run` reports its arena)";
  }
  return "";
}

uint64_t TailBytes(const ArenaSize& size, const std::string& name) {
  for (const TailCategory& c : size.tail_breakdown) {
    if (c.name == name) return c.bytes;
  }
  return 0;
}

Result<ArenaSize> ComputeArenaSize(const model::Model& model, const Target& target, const std::string& planner,
                                   bool use_offline_plan) {
  auto prepared = PrepareModel(model, target, planner, use_offline_plan);
  if (!prepared.ok()) return prepared.status();
  if (prepared->fails_allocation) return prepared->size;
  AllocatorReplay arena(target);
  ArenaSize r = arena.Allocate(*prepared);
  // One model: its figures are the whole arena's.
  r.tail_bytes = arena.tail_used();
  r.arena_used_bytes = arena.arena_used();
  r.tail_breakdown = arena.TailBreakdown();
  r.min_arena_bytes = arena.MinArena();
  r.safe_arena_bytes = arena.SafeArena();
  if (r.safe_arena_bytes > r.min_arena_bytes) r.notes.push_back(PrepareOverwriteNote(r));
  return r;
}

}  // namespace arenaplan::tflm
