#include "runtime/plan_buffers.h"

namespace arenaplan::rt {

namespace {

void Touch(PlanBuffer* b, int32_t t, bool set_first) {
  if (set_first && b->first == -1) b->first = t;
  b->last = t;
}

bool Overlap(const PlanBuffer& a, const PlanBuffer& b) { return !(a.first > b.last || b.first > a.last); }

// Online buffer i goes before online buffer j: bigger first, later-added first among equals.
bool Before(const PlanBuffer* bufs, uint16_t i, uint16_t j) {
  if (bufs[i].size != bufs[j].size) return bufs[i].size > bufs[j].size;
  return i > j;
}

}  // namespace

void MarkLifetimes(const tfl::SubGraph& sg, const uint32_t* buffer_of_tensor, const ScratchRequest* requests,
                   uint32_t num_requests, uint32_t first_scratch, PlanBuffer* buffers) {
  auto touch = [&](int32_t tensor, int32_t t, bool set_first) {
    if (tensor < 0) return;
    const uint32_t b = buffer_of_tensor[tensor];
    if (b != kNoBuffer) Touch(&buffers[b], t, set_first);
  };
  int32_t t = 0;
  if (sg.inputs() != nullptr) {
    for (int32_t in : *sg.inputs()) touch(in, t, true);
  }
  const auto* ops = sg.operators();
  const uint32_t num_ops = ops != nullptr ? ops->size() : 0;
  for (uint32_t i = 0; i < num_ops; ++i) {
    const tfl::Operator* op = ops->Get(i);
    ++t;
    if (op->outputs() != nullptr) {
      for (int32_t out : *op->outputs()) {
        if (out >= 0 && buffer_of_tensor[out] != kNoBuffer && buffers[buffer_of_tensor[out]].first == -1) {
          buffers[buffer_of_tensor[out]].first = t;
        }
      }
    }
    if (op->inputs() != nullptr) {
      for (int32_t in : *op->inputs()) touch(in, t, false);
    }
    if (op->outputs() != nullptr) {
      for (int32_t out : *op->outputs()) touch(out, t, false);
    }
    for (uint32_t r = 0; r < num_requests; ++r) {
      if (requests[r].op_index == i) Touch(&buffers[first_scratch + r], t, true);
    }
  }
  if (sg.outputs() != nullptr) {
    for (int32_t out : *sg.outputs()) touch(out, t, true);
  }
}

StatusCode PlanOnline(PlanBuffer* bufs, uint32_t n, uint16_t* order, uint16_t* next, PlannerKind kind,
                  uint32_t* head_bytes, ErrorText* error) {
  *head_bytes = 0;
  if (n > kMaxPlanBuffers) {
    SetError(error, "too many buffers to plan (%u, at most %u)", n, kMaxPlanBuffers);
    return StatusCode::kUnsupported;
  }
  // Order: fixed in add order, then online by insertion sort (a total order, so any sort agrees).
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
  // Place, keeping a singly linked list of placed buffers sorted by offset.
  constexpr uint16_t kEnd = 0xFFFFu;
  uint16_t list = kEnd;
  uint64_t top = 0;
  for (uint32_t k = 0; k < n; ++k) {
    const uint16_t id = order[k];
    PlanBuffer& b = bufs[id];
    if (k >= fixed) {
      int64_t cand = 0;
      int64_t best = -1;
      uint64_t best_gap = UINT64_MAX;
      for (uint16_t p = list; p != kEnd; p = next[p]) {
        const PlanBuffer& q = bufs[p];
        if (!Overlap(b, q)) continue;
        const int64_t gap = static_cast<int64_t>(q.offset) - cand;
        if (gap >= static_cast<int64_t>(b.size)) {
          if (kind == PlannerKind::kGreedy) break;
          if (static_cast<uint64_t>(gap) < best_gap) {
            best_gap = static_cast<uint64_t>(gap);
            best = cand;
          }
        }
        const int64_t end = static_cast<int64_t>(q.offset) + q.size;
        if (end > cand) cand = end;
      }
      if (kind == PlannerKind::kBestFit && best >= 0) cand = best;
      if (cand + static_cast<int64_t>(b.size) > 0x7FFFFFFF) {
        SetError(error, "plan exceeds 2 GiB");
        return StatusCode::kArenaFull;
      }
      b.offset = static_cast<int32_t>(cand);
    }
    // Insert: at the front if below the current front, else after the last entry <= its offset.
    if (list == kEnd || b.offset < bufs[list].offset) {
      next[id] = list;
      list = id;
    } else {
      uint16_t p = list;
      while (next[p] != kEnd && bufs[next[p]].offset <= b.offset) p = next[p];
      next[id] = next[p];
      next[p] = id;
    }
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

}  // namespace arenaplan::rt
