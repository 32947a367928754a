#include "rules/greedy.h"

#include "rules/limits.h"

namespace arenaplan::rules {
namespace {

constexpr uint16_t kEnd = 0xFFFFu;

bool Overlap(const PlanBuffer& a, const PlanBuffer& b) { return !(a.first > b.last || b.first > a.last); }

// Bytes buffer i takes when ordered: its own, plus those of the stack tied above it.
uint64_t OrderSize(const PlanBuffer* bufs, const uint16_t* above, uint16_t i) {
  uint64_t size = bufs[i].size;
  for (uint16_t t = above != nullptr ? above[i] : kEnd; t != kEnd; t = above[t]) size += bufs[t].size;
  return size;
}

// Online buffer i goes before online buffer j: bigger first, later-added first among equals.
bool Before(const PlanBuffer* bufs, const uint16_t* above, uint16_t i, uint16_t j) {
  const uint64_t si = OrderSize(bufs, above, i), sj = OrderSize(bufs, above, j);
  if (si != sj) return si > sj;
  return i > j;
}

// Fixed buffers in add order, then the online ones in TFLM's order, without the tied buffers
// (`tied` marks them; placed with the buffer below). Returns the fixed count; *m = entries.
uint32_t Order(const PlanBuffer* bufs, uint32_t n, const uint16_t* above, const uint16_t* tied, uint16_t* order,
               uint32_t* count) {
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (bufs[i].offset != kOnline) order[m++] = static_cast<uint16_t>(i);
  }
  const uint32_t fixed = m;
  for (uint32_t i = 0; i < n; ++i) {
    if (bufs[i].offset != kOnline || (tied != nullptr && tied[i] != 0)) continue;
    uint32_t j = m++;
    while (j > fixed && Before(bufs, above, static_cast<uint16_t>(i), order[j - 1])) {
      order[j] = order[j - 1];
      --j;
    }
    order[j] = static_cast<uint16_t>(i);
  }
  *count = m;
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

// The lowest aligned offset for the stack from buffer b up (each part directly above the one
// below, its lifetime within that one's): a placed buffer live with a part must lie outside that
// part's bytes. Lifetimes nest, so a buffer live with a part is live with every part below it,
// and a conflict at c persists up to the neighbour's end: moving there and rescanning until
// nothing conflicts gives the lowest fit. O(placed^2 x stack height) in the worst case.
int64_t ChooseTied(const PlanBuffer* bufs, uint16_t b, const uint16_t* above, uint16_t list, const uint16_t* next,
                   int64_t alignment) {
  int64_t cand = 0;
  for (bool moved = true; moved;) {
    moved = false;
    for (uint16_t p = list; p != kEnd; p = next[p]) {
      const PlanBuffer& q = bufs[p];
      const int64_t lo = static_cast<int64_t>(q.offset), hi = lo + q.size;
      if (q.size == 0) continue;
      bool hits = false;
      int64_t part_lo = cand;
      for (uint16_t t = b; t != kEnd && !hits; t = above[t]) {
        const int64_t part_hi = part_lo + static_cast<int64_t>(bufs[t].size);
        hits = bufs[t].size > 0 && Overlap(bufs[t], q) && hi > part_lo && lo < part_hi;
        part_lo = part_hi;
      }
      if (!hits) continue;
      cand = arenaplan::AlignUp<int64_t>(hi, alignment);
      moved = true;
    }
  }
  return cand;
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
                        uint32_t* head_bytes, ErrorText* error, const uint16_t* above) {
  *head_bytes = 0;
  if (n > kMaxPlanBuffers) {
    SetError(error, "too many buffers to plan (%u, at most %u)", n, kMaxPlanBuffers);
    return StatusCode::kUnsupported;
  }
  const int64_t align = alignment == 0 ? 1 : alignment;
  // `next` marks the tied buffers while ordering (it is list storage only once placing starts).
  if (above != nullptr) {
    for (uint32_t i = 0; i < n; ++i) next[i] = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const uint16_t t = above[i];
      if (t == kEnd) continue;
      if (t >= n || t == i || bufs[i].offset != kOnline || bufs[t].offset != kOnline || next[t] != 0 ||
          bufs[t].first < bufs[i].first || bufs[t].last > bufs[i].last) {
        SetError(error, "buffer %u cannot be tied above buffer %u", t, i);
        return StatusCode::kBadArgument;
      }
      next[t] = 1;
    }
    // Every stack starts at an untied buffer: a cycle of ties has none (each buffer is tied at
    // most once, so a walk from a base visits each buffer once).
    uint32_t reached = 0, tied = 0;
    for (uint32_t i = 0; i < n; ++i) {
      tied += next[i];
      if (next[i] != 0) continue;
      for (uint16_t t = above[i]; t != kEnd && reached <= n; t = above[t]) ++reached;
    }
    if (reached != tied) {
      SetError(error, "tied buffers form a cycle");
      return StatusCode::kBadArgument;
    }
  }
  uint32_t count = 0;
  const uint32_t fixed = Order(bufs, n, above, above != nullptr ? next : nullptr, order, &count);
  uint16_t list = kEnd;
  uint64_t top = 0;
  for (uint32_t k = 0; k < count; ++k) {
    const uint16_t id = order[k];
    PlanBuffer& b = bufs[id];
    const uint16_t tied = k >= fixed && above != nullptr ? above[id] : kEnd;
    if (k >= fixed) {
      const int64_t offset = tied != kEnd ? ChooseTied(bufs, id, above, list, next, align)
                                          : Choose(bufs, b, list, next, align, rule);
      if (static_cast<uint64_t>(offset) + OrderSize(bufs, above, id) > 0x7FFFFFFF) {
        SetError(error, "plan exceeds 2 GiB");
        return StatusCode::kArenaFull;
      }
      b.offset = static_cast<int32_t>(offset);
    }
    Insert(bufs, id, &list, next);
    uint64_t end = static_cast<uint64_t>(b.offset) + b.size;
    for (uint16_t t = tied; t != kEnd; t = above[t]) {
      bufs[t].offset = static_cast<int32_t>(end);
      Insert(bufs, t, &list, next);
      end += bufs[t].size;
    }
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
