#include "tflm/shared_arena.h"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "tflm/allocator_replay.h"

namespace arenaplan::tflm {
namespace {

// One allocator, the models allocated in `order`.
struct Replayed {
  std::vector<ArenaSize> models;
  uint64_t objects = 0, head = 0, tail = 0, used = 0, min = 0, safe = 0;
  std::vector<TailCategory> tail_breakdown;
};

Replayed Replay(const std::vector<PreparedModel>& prepared, const std::vector<size_t>& order, const Target& target) {
  AllocatorReplay arena(target);
  Replayed r;
  for (size_t i : order) r.models.push_back(arena.Allocate(prepared[i]));
  r.objects = arena.allocator_object_bytes();
  r.head = arena.max_head();
  r.tail = arena.tail_used();
  r.used = arena.arena_used();
  r.min = arena.MinArena();
  r.safe = arena.SafeArena();
  r.tail_breakdown = arena.TailBreakdown();
  return r;
}

// Every order of the models, the given one first; the smallest (min arena, safe arena, arena used)
// wins, ties going to the order met first.
OrderSearch CheapestOrder(const std::vector<PreparedModel>& prepared, const Target& target) {
  OrderSearch s;
  if (prepared.size() > kMaxOrderSearchModels) return s;
  std::vector<size_t> order(prepared.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::tuple<uint64_t, uint64_t, uint64_t> best{UINT64_MAX, UINT64_MAX, UINT64_MAX};
  do {
    const Replayed r = Replay(prepared, order, target);
    ++s.orders_tried;
    if (std::make_tuple(r.min, r.safe, r.used) < best) {
      best = {r.min, r.safe, r.used};
      s.best = order;
      s.best_min_arena_bytes = r.min;
      s.best_arena_used_bytes = r.used;
    }
  } while (std::next_permutation(order.begin(), order.end()));
  s.searched = true;
  return s;
}

}  // namespace

Result<SharedArenaSize> ComputeSharedArenaSize(const std::vector<Tenant>& tenants, const Target& target,
                                               const std::string& planner) {
  if (tenants.empty()) return InvalidArgument("no models to size");
  SharedArenaSize r;
  r.target = target.name;
  std::vector<PreparedModel> prepared;
  for (const Tenant& t : tenants) {
    auto p = PrepareModel(*t.model, target, planner, /*use_offline_plan=*/true);
    if (!p.ok()) return Status(p.status().code(), t.name + ": " + p.status().message());
    r.planner = p->size.planner;
    if (p->fails_allocation) {
      r.error = t.name + ": " + p->size.error;
      return r;
    }
    prepared.push_back(std::move(*p));
  }
  std::vector<size_t> given(tenants.size());
  std::iota(given.begin(), given.end(), size_t{0});
  Replayed replayed = Replay(prepared, given, target);
  r.models = std::move(replayed.models);
  r.allocator_object_bytes = replayed.objects;
  r.head_bytes = replayed.head;
  r.tail_bytes = replayed.tail;
  r.arena_used_bytes = replayed.used;
  r.tail_breakdown = std::move(replayed.tail_breakdown);
  r.min_arena_bytes = replayed.min;
  r.safe_arena_bytes = replayed.safe;
  r.allocates = true;
  r.supported = true;
  for (size_t i = 0; i < r.models.size(); ++i) {
    ArenaSize& m = r.models[i];
    r.planned_buffers += m.planned_buffers;
    r.scratch_requests += m.scratch_requests;
    for (const std::string& n : m.notes) r.notes.push_back(tenants[i].name + ": " + n);
    if (!m.supported && r.supported) {
      r.supported = false;
      r.error = tenants[i].name + ": " + m.error;
    }
  }
  if (r.safe_arena_bytes > r.min_arena_bytes) {
    ArenaSize whole;
    whole.min_arena_bytes = r.min_arena_bytes;
    whole.safe_arena_bytes = r.safe_arena_bytes;
    r.notes.push_back(PrepareOverwriteNote(whole));
  }
  r.cheapest = CheapestOrder(prepared, target);
  return r;
}

}  // namespace arenaplan::tflm
