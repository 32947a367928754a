#include "plan/sweep_fit.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <queue>
#include <set>

namespace arenaplan::plan {
namespace {

constexpr Offset kNoEnd = std::numeric_limits<Offset>::max();  // the block above everything

// Free address blocks [start, end): by start, and the bounded ones by (size, start).
class FreeBlocks {
 public:
  FreeBlocks() { by_start_[0] = kNoEnd; }

  // The smallest bounded block that holds `size` at an aligned start (ties: the lowest), else
  // the block above everything; takes the bytes and returns their offset.
  Offset Take(Bytes size, Bytes alignment) {
    for (auto it = by_size_.lower_bound({size, 0}); it != by_size_.end(); ++it) {
      const Offset start = it->second, end = by_start_.at(start), at = AlignUp(start, alignment);
      if (at + size <= end) return Split(start, end, at, size);
    }
    const auto top = std::prev(by_start_.end());
    return Split(top->first, kNoEnd, AlignUp(top->first, alignment), size);
  }

  // Returns [offset, offset + size) and merges it with free neighbours.
  void Give(Offset offset, Bytes size) {
    Offset start = offset, end = offset + size;
    auto next = by_start_.lower_bound(end);
    if (next != by_start_.end() && next->first == end) {
      end = next->second;
      Erase(next);
    }
    auto prev = by_start_.lower_bound(start);
    if (prev != by_start_.begin() && std::prev(prev)->second == start) {
      --prev;
      start = prev->first;
      Erase(prev);
    }
    Add(start, end);
  }

 private:
  Offset Split(Offset start, Offset end, Offset at, Bytes size) {
    Erase(by_start_.find(start));
    if (at > start) Add(start, at);
    if (at + size < end) Add(at + size, end);
    return at;
  }
  void Add(Offset start, Offset end) {
    by_start_[start] = end;
    if (end != kNoEnd) by_size_.insert({end - start, start});
  }
  void Erase(std::map<Offset, Offset>::iterator it) {
    if (it->second != kNoEnd) by_size_.erase({it->second - it->first, it->first});
    by_start_.erase(it);
  }

  std::map<Offset, Offset> by_start_;
  std::set<std::pair<Bytes, Offset>> by_size_;
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
