#include "plan/sweep_fit.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <queue>

namespace arenaplan::plan {
namespace {

constexpr Offset kNoEnd = std::numeric_limits<Offset>::max();  // the block above everything

// Free address blocks [start, end) in address order, the last one the block above everything.
// There are never more than one plus the buffers alive (a block lies between two of them), and a
// linear scan over a contiguous array beats a balanced tree's O(log n) at those sizes (uniform
// random problems: ~100 alive).
class FreeBlocks {
 public:
  FreeBlocks() { blocks_.push_back({0, kNoEnd}); }

  // The smallest bounded block that holds `size` at an aligned start (ties: the lowest), else
  // the block above everything; takes the bytes and returns their offset.
  Offset Take(Bytes size, Bytes alignment) {
    size_t best = blocks_.size() - 1;
    Bytes best_size = kNoEnd;
    for (size_t i = 0; i + 1 < blocks_.size(); ++i) {
      const Bytes free = blocks_[i].end - blocks_[i].start;
      if (free < size || free >= best_size) continue;
      if (AlignUp(blocks_[i].start, alignment) + size <= blocks_[i].end) best = i, best_size = free;
    }
    const Block b = blocks_[best];
    const Offset at = AlignUp(b.start, alignment);
    // Replace the block by what is left of it below and above the taken bytes.
    const bool below = at > b.start, above = at + size < b.end;
    if (below && above) {
      blocks_[best].end = at;
      blocks_.insert(blocks_.begin() + static_cast<std::ptrdiff_t>(best) + 1, {at + size, b.end});
    } else if (below) {
      blocks_[best].end = at;
    } else if (above) {
      blocks_[best].start = at + size;
    } else {
      blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(best));
    }
    return at;
  }

  // Returns [offset, offset + size) and merges it with free neighbours.
  void Give(Offset offset, Bytes size) {
    const Offset end = offset + size;
    auto next = std::lower_bound(blocks_.begin(), blocks_.end(), end,
                                 [](const Block& b, Offset x) { return b.start < x; });  // exists: top
    const bool joins_prev = next != blocks_.begin() && std::prev(next)->end == offset;
    const bool joins_next = next->start == end;
    if (joins_prev && joins_next) {
      std::prev(next)->end = next->end;
      blocks_.erase(next);
    } else if (joins_prev) {
      std::prev(next)->end = end;
    } else if (joins_next) {
      next->start = offset;
    } else {
      blocks_.insert(next, {offset, end});
    }
  }

 private:
  struct Block {
    Offset start, end;
  };
  std::vector<Block> blocks_;
};

}  // namespace

Plan SweepBestFit(const Problem& problem, const std::function<bool()>& stop) {
  const auto& b = problem.buffers;
  std::vector<uint32_t> order(b.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
    if (b[x].first != b[y].first) return b[x].first < b[y].first;
    if (b[x].size != b[y].size) return b[x].size > b[y].size;
    return x < y;
  });
  Plan plan;
  plan.offsets.assign(b.size(), 0);
  FreeBlocks free;
  using Live = std::pair<Step, uint32_t>;  // (last step, buffer)
  std::priority_queue<Live, std::vector<Live>, std::greater<Live>> live;
  size_t done = 0;
  for (uint32_t i : order) {
    if (stop && (++done & 4095) == 0 && stop()) return Plan{};
    while (!live.empty() && live.top().first < b[i].first) {
      const uint32_t done = live.top().second;
      live.pop();
      free.Give(plan.offsets[done], b[done].size);
    }
    plan.offsets[i] = free.Take(b[i].size, b[i].alignment);
    live.push({b[i].last, i});
  }
  plan.height = PlanHeight(problem, plan.offsets);
  return plan;
}

}  // namespace arenaplan::plan
