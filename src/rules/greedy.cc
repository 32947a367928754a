#include "rules/greedy.h"

#include "rules/limits.h"

namespace arenaplan::rules {
namespace {

constexpr uint16_t kEnd = 0xFFFFu;

bool Overlap(const PlanBuffer& a, const PlanBuffer& b) { return !(a.first > b.last || b.first > a.last); }

// Online buffer i goes before online buffer j: bigger first, later-added first among equals.
bool Before(const PlanBuffer* bufs, uint16_t i, uint16_t j) {
  if (bufs[i].size != bufs[j].size) return bufs[i].size > bufs[j].size;
  return i > j;
}

// Fixed buffers in add order, then the online ones in TFLM's order. Returns the fixed count.
uint32_t Order(const PlanBuffer* bufs, uint32_t n, uint16_t* order) {
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (bufs[i].offset != kOnline) order[m++] = static_cast<uint16_t>(i);
  }
  const uint32_t fixed = m;
  for (uint32_t i = 0; i < n; ++i) {
    if (bufs[i].offset != kOnline) continue;
    uint32_t j = m++;
    while (j > fixed && Before(bufs, static_cast<uint16_t>(i), order[j - 1])) {
      order[j] = order[j - 1];
      --j;
    }
    order[j] = static_cast<uint16_t>(i);
  }
  return fixed;
}

// The offset the gap rule picks for b among the placed buffers (list sorted by offset).
int64_t Choose(const PlanBuffer* bufs, const PlanBuffer& b, uint16_t list, const uint16_t* next, int64_t alignment,
               GapRule rule) {
  int64_t cand = 0;
  int64_t best = -1;
  uint64_t best_gap = UINT64_MAX;
  for (uint16_t p = list; p != kEnd; p = next[p]) {
    const PlanBuffer& q = bufs[p];
    if (!Overlap(b, q)) continue;
    const int64_t gap = static_cast<int64_t>(q.offset) - cand;
    if (gap >= static_cast<int64_t>(b.size)) {
      if (rule == GapRule::kFirstFit) break;
      if (static_cast<uint64_t>(gap) < best_gap) {
        best_gap = static_cast<uint64_t>(gap);
        best = cand;
      }
    }
    const int64_t end = arenaplan::AlignUp<int64_t>(static_cast<int64_t>(q.offset) + q.size, alignment);
    if (end > cand) cand = end;
  }
  return rule == GapRule::kBestFit && best >= 0 ? best : cand;
}

// Inserts id into the offset-sorted list: at the front if below it, else after the last entry
// whose offset is <= its own.
void Insert(const PlanBuffer* bufs, uint16_t id, uint16_t* list, uint16_t* next) {
  if (*list == kEnd || bufs[id].offset < bufs[*list].offset) {
    next[id] = *list;
    *list = id;
    return;
  }
  uint16_t p = *list;
  while (next[p] != kEnd && bufs[next[p]].offset <= bufs[id].offset) p = next[p];
  next[id] = next[p];
  next[p] = id;
}

}  // namespace

StatusCode PlaceBuffers(PlanBuffer* bufs, uint32_t n, uint32_t alignment, GapRule rule, uint16_t* order, uint16_t* next,
                        uint32_t* head_bytes, ErrorText* error) {
  *head_bytes = 0;
  if (n > kMaxPlanBuffers) {
    SetError(error, "too many buffers to plan (%u, at most %u)", n, kMaxPlanBuffers);
    return StatusCode::kUnsupported;
  }
  const int64_t align = alignment == 0 ? 1 : alignment;
  const uint32_t fixed = Order(bufs, n, order);
  uint16_t list = kEnd;
  uint64_t top = 0;
  for (uint32_t k = 0; k < n; ++k) {
    const uint16_t id = order[k];
    PlanBuffer& b = bufs[id];
    if (k >= fixed) {
      const int64_t offset = Choose(bufs, b, list, next, align, rule);
      if (offset + static_cast<int64_t>(b.size) > 0x7FFFFFFF) {
        SetError(error, "plan exceeds 2 GiB");
        return StatusCode::kArenaFull;
      }
      b.offset = static_cast<int32_t>(offset);
    }
    Insert(bufs, id, &list, next);
    const uint64_t end = static_cast<uint64_t>(b.offset) + b.size;
    if (end > top) top = end;
  }
  if (top > 0xFFFFFFF0u) {
    SetError(error, "plan needs %llu bytes", static_cast<unsigned long long>(top));
    return StatusCode::kArenaFull;
  }
  *head_bytes = static_cast<uint32_t>(top);
  return StatusCode::kOk;
}

}  // namespace arenaplan::rules
