// Filler sets (see hole_fill.h): a depth-first walk over the profile's steps, left to right, that
// explains each step by fillers closing and opening there, run once per total cost (the number
// of coincidences, spent exactly) so that the sets come out plainest first, each way of explaining
// the profile once.
#include "plan/hole_fill.h"

#include "plan/search_model.h"

namespace arenaplan::plan::optimal_internal {
namespace {

constexpr int kMaxCost = 8;        // coincidences per set
constexpr size_t kMaxSteps = 400;  // more steps: not a few rectangles taken out; nothing tried
constexpr size_t kMaxClosing = 3;  // fillers closing at one step

struct Open {
  int from;   // index into the steps
  int64_t h;  // height in units of g
};

struct Walk {
  std::vector<Step> at;     // the profile's steps: position ...
  std::vector<int64_t> by;  // ... and change, in units of g (never 0)
  Bytes g = 1;
  size_t max_sets = 0;
  int64_t max_nodes = 0, nodes = 0;
  std::vector<Open> open;
  std::vector<Buffer> closed;
  std::vector<std::vector<Buffer>> sets;

  bool Done() const { return sets.size() >= max_sets || nodes >= max_nodes; }

  void Close(const Open& o, int64_t h, int step) {
    Buffer b;
    b.first = at[o.from];
    b.last = at[step] - 1;
    b.size = h * g;
    closed.push_back(b);
  }

  // Closes the open fillers at positions `which` (ascending) and opens one of height `opens`
  // (none if 0) at `step`, then walks on with `budget` left; restores the state after.
  void Apply(int step, const std::vector<size_t>& which, int64_t opens, int budget) {
    const std::vector<Open> saved = open;
    const size_t mark = closed.size();
    for (size_t k = which.size(); k-- > 0;) {
      Close(open[which[k]], open[which[k]].h, step);
      open.erase(open.begin() + static_cast<std::ptrdiff_t>(which[k]));
    }
    if (opens > 0) open.push_back({step, opens});
    Visit(step + 1, budget);
    open = saved;
    closed.resize(mark);
  }

  // Explains the steps from `step` on with exactly `budget` coincidences; records each set found.
  void Visit(int step, int budget) {
    if (Done()) return;
    ++nodes;
    if (step == static_cast<int>(at.size())) {
      if (open.empty() && budget == 0) sets.push_back(closed);
      return;
    }
    const int64_t j = by[step];
    const size_t m = open.size();
    // Cost 0: a step up opens one filler; a step down closes one of exactly its height.
    if (j > 0) Apply(step, {}, j, budget);
    for (size_t i = 0; i < m && j < 0; ++i) {
      if (open[i].h == -j) Apply(step, {i}, 0, budget);
    }
    if (budget == 0) return;
    // Coincidences: 1-3 fillers close here (any that leaves the step's rest to open), costing
    // one per event beyond the first.
    std::vector<size_t> which;
    auto subsets = [&](auto&& self, size_t from, int64_t closing) -> void {
      if (Done()) return;
      if (!which.empty()) {
        const int64_t opens = j + closing;
        const int cost = static_cast<int>(which.size()) + (opens > 0 ? 1 : 0) - 1;
        const bool plain = opens == 0 && which.size() == 1;
        if (opens >= 0 && !plain && cost >= 1 && cost <= budget) Apply(step, which, opens, budget - cost);
      }
      if (which.size() == kMaxClosing) return;
      for (size_t i = from; i < m; ++i) {
        which.push_back(i);
        self(self, i + 1, closing + open[i].h);
        which.pop_back();
      }
    };
    subsets(subsets, 0, 0);
    // A filler closed in part (two began together): cost 1.
    for (size_t i = 0; i < m && j < 0 && !Done(); ++i) {
      if (open[i].h <= -j) continue;
      const size_t mark = closed.size();
      Close(open[i], -j, step);
      open[i].h += j;
      Visit(step + 1, budget - 1);
      open[i].h -= j;
      closed.resize(mark);
    }
  }
};

}  // namespace

std::vector<std::vector<Buffer>> FillerSets(const std::vector<Buffer>& buffers, Bytes capacity, Bytes g,
                                            size_t max_sets, int64_t max_nodes, int64_t* nodes) {
  if (buffers.empty() || g <= 0) return {};
  const Sections sec = BuildSections(buffers);
  const Bytes top = capacity / g * g;
  Walk walk;
  walk.g = g;
  walk.max_sets = max_sets;
  walk.max_nodes = max_nodes;
  int64_t before = 0;
  for (int s = 0; s <= sec.num_sections; ++s) {
    int64_t free = 0;
    if (s < sec.num_sections) {
      if (sec.online_load[s] > top) return {};
      free = (top - sec.online_load[s]) / g;
    }
    if (free != before) {
      walk.at.push_back(sec.points[s]);
      walk.by.push_back(free - before);
    }
    before = free;
  }
  if (walk.at.empty() || walk.at.size() > kMaxSteps) return {};
  for (int cost = 0; cost <= kMaxCost && !walk.Done(); ++cost) walk.Visit(0, cost);
  if (nodes != nullptr) *nodes += walk.nodes;
  return std::move(walk.sets);
}

}  // namespace arenaplan::plan::optimal_internal
