#include "plan/lower_bound.h"

#include <algorithm>
#include <limits>

namespace arenaplan::plan {
namespace {

// Length of the union of ranges added (count +1) and removed (count -1) over fixed coordinates.
struct CoverTree {
  std::vector<Offset> coords;  // sorted distinct range ends
  std::vector<int> count;
  std::vector<__int128> covered;
  explicit CoverTree(std::vector<Offset> c) : coords(std::move(c)) {
    const size_t n = coords.size() > 1 ? coords.size() - 1 : 1;
    count.assign(4 * n, 0);
    covered.assign(4 * n, 0);
  }
  size_t Segments() const { return coords.size() > 1 ? coords.size() - 1 : 0; }
  void Update(size_t node, size_t lo, size_t hi, size_t a, size_t b, int delta) {
    if (b <= lo || hi <= a) return;
    if (a <= lo && hi <= b) {
      count[node] += delta;
    } else {
      const size_t mid = (lo + hi) / 2;
      Update(2 * node, lo, mid, a, b, delta);
      Update(2 * node + 1, mid, hi, a, b, delta);
    }
    if (count[node] > 0)
      covered[node] = coords[hi] - coords[lo];
    else
      covered[node] = hi - lo == 1 ? 0 : covered[2 * node] + covered[2 * node + 1];
  }
  void Add(Offset from, Offset to, int delta) {
    if (Segments() == 0) return;
    const size_t a = std::lower_bound(coords.begin(), coords.end(), from) - coords.begin();
    const size_t b = std::lower_bound(coords.begin(), coords.end(), to) - coords.begin();
    Update(1, 0, Segments(), a, b, delta);
  }
  __int128 Covered() const { return Segments() == 0 ? 0 : covered[1]; }
};

struct Event {
  Step step;
  size_t buffer;
  bool start;
};

}  // namespace

Bytes LiveBytesLowerBound(const Problem& problem) {
  std::vector<Event> events;
  std::vector<Offset> coords;
  __int128 best = 0;
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer& b = problem.buffers[i];
    if (b.size <= 0 || b.first > b.last || b.fixed_offset < kUnfixed) continue;
    if (b.fixed() && b.fixed_offset > std::numeric_limits<Offset>::max() - b.size) continue;
    events.push_back({b.first, i, true});
    if (b.last < std::numeric_limits<Step>::max()) events.push_back({b.last + 1, i, false});
    if (b.fixed()) {
      best = std::max<__int128>(best, __int128{b.fixed_offset} + b.size);
      coords.push_back(b.fixed_offset);
      coords.push_back(b.fixed_offset + b.size);
    }
  }
  std::sort(coords.begin(), coords.end());
  coords.erase(std::unique(coords.begin(), coords.end()), coords.end());
  CoverTree fixed(std::move(coords));
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.step < b.step; });
  __int128 online = 0;
  for (size_t k = 0; k < events.size();) {
    // Apply every event of this step, then measure: within a step the order does not matter.
    const Step step = events[k].step;
    for (; k < events.size() && events[k].step == step; ++k) {
      const Buffer& b = problem.buffers[events[k].buffer];
      const int delta = events[k].start ? 1 : -1;
      if (b.fixed())
        fixed.Add(b.fixed_offset, b.fixed_offset + b.size, delta);
      else
        online += delta * __int128{b.size};
    }
    best = std::max(best, online + fixed.Covered());
  }
  return static_cast<Bytes>(std::min<__int128>(best, std::numeric_limits<Bytes>::max()));
}

}  // namespace arenaplan::plan
