// Filler choices (see hole_fill.h): per segment of the profile, a depth-first walk over its steps,
// left to right, that explains each step by fillers closing and opening there, run once per total
// cost (the number of coincidences, spent exactly) so that the ways come out plainest first, each
// once. LowestPicks: the classic k-best walk over sorted lists (each pick's successors raise one
// position at or after the last one raised, so every pick is reached once).
#include "plan/hole_fill.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <queue>
#include <tuple>

#include "plan/search_model.h"

namespace arenaplan::plan::optimal_internal {
namespace {

constexpr int kMaxCost = 8;        // coincidences per segment
constexpr size_t kMaxSteps = 400;  // more steps: not a few rectangles taken out; nothing tried
constexpr size_t kMaxClosing = 3;  // fillers closing at one step (in full or in part)
constexpr size_t kNone = SIZE_MAX;

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

  // Closes the open fillers at positions `which` (ascending) and `part` of the height of the one
  // at position `partial` (not in `which`; none if kNone: two began together, and one goes on),
  // opens one of height `opens` (none if 0) at `step`, then walks on with `budget` left; restores
  // the state after.
  void Apply(int step, const std::vector<size_t>& which, int64_t opens, int budget, size_t partial = kNone,
             int64_t part = 0) {
    const std::vector<Open> saved = open;
    const size_t mark = closed.size();
    if (partial != kNone) {
      Close(open[partial], part, step);
      open[partial].h -= part;
    }
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
    // Coincidences: 1-3 fillers close here in full (any set that leaves the step's rest to open),
    // costing one per event beyond the first; then, where what closes in full falls short of the
    // step down, one more filler closes in part (two began together; slack-600-s17 of
    // packing_bench closes 49 in full and 43 of 57 at one step), costing one more.
    std::vector<size_t> which;
    auto subsets = [&](auto&& self, bool in_part, size_t from, int64_t closing) -> void {
      if (Done()) return;
      const int64_t opens = j + closing;
      if (!in_part && !which.empty()) {
        const int cost = static_cast<int>(which.size()) + (opens > 0 ? 1 : 0) - 1;
        const bool plain = opens == 0 && which.size() == 1;
        if (opens >= 0 && !plain && cost >= 1 && cost <= budget) Apply(step, which, opens, budget - cost);
      }
      if (in_part && opens < 0 && static_cast<int>(which.size()) + 1 <= budget) {
        for (size_t i = 0; i < m && !Done(); ++i) {
          if (open[i].h <= -opens || std::find(which.begin(), which.end(), i) != which.end()) continue;
          Apply(step, which, 0, budget - static_cast<int>(which.size()) - 1, i, -opens);
        }
      }
      if (which.size() == kMaxClosing - (in_part ? 1 : 0) || (in_part && opens >= 0)) return;
      for (size_t i = from; i < m; ++i) {
        which.push_back(i);
        self(self, in_part, i + 1, closing + open[i].h);
        which.pop_back();
      }
    };
    subsets(subsets, false, 0, 0);
    if (j < 0) subsets(subsets, true, 0, 0);
  }
};

}  // namespace

std::vector<FillerSegment> FillerChoices(const std::vector<Buffer>& buffers, Bytes capacity, Bytes g,
                                         size_t max_per_segment, int64_t max_nodes, int64_t* nodes) {
  if (buffers.empty() || g <= 0) return {};
  const Sections sec = BuildSections(buffers);
  const Bytes top = capacity / g * g;
  std::vector<Step> at;
  std::vector<int64_t> by;
  std::vector<size_t> starts;  // steps where a segment begins (the free level leaves zero)
  int64_t before = 0;
  for (int s = 0; s <= sec.num_sections; ++s) {
    int64_t free = 0;
    if (s < sec.num_sections) {
      if (sec.online_load[s] > top) return {};
      free = (top - sec.online_load[s]) / g;
    }
    if (free != before) {
      if (before == 0) starts.push_back(at.size());
      at.push_back(sec.points[s]);
      by.push_back(free - before);
    }
    before = free;
  }
  if (at.empty() || at.size() > kMaxSteps) return {};
  starts.push_back(at.size());
  std::vector<FillerSegment> out;
  int64_t used = 0;
  for (size_t k = 0; k + 1 < starts.size(); ++k) {
    Walk walk;
    walk.at.assign(at.begin() + static_cast<std::ptrdiff_t>(starts[k]),
                   at.begin() + static_cast<std::ptrdiff_t>(starts[k + 1]));
    walk.by.assign(by.begin() + static_cast<std::ptrdiff_t>(starts[k]),
                   by.begin() + static_cast<std::ptrdiff_t>(starts[k + 1]));
    walk.g = g;
    walk.max_sets = max_per_segment;
    // Each segment gets an even share of what the ones before it left.
    walk.max_nodes = (max_nodes - used) / static_cast<int64_t>(starts.size() - 1 - k);
    for (int cost = 0; cost <= kMaxCost && !walk.Done(); ++cost) walk.Visit(0, cost);
    used += walk.nodes;
    // A segment with no way within its steps (never with a plain profile) leaves nothing to pick.
    if (walk.sets.empty()) {
      out.clear();
      break;
    }
    out.push_back({walk.at.front(), walk.at.back() - 1, std::move(walk.sets)});
  }
  if (nodes != nullptr) *nodes += used;
  return out;
}

std::vector<std::vector<size_t>> LowestPicks(const std::vector<std::vector<int64_t>>& scores, size_t count) {
  const size_t lists = scores.size();
  std::vector<std::vector<size_t>> sorted(lists);  // each list's indices by (score, index)
  for (size_t l = 0; l < lists; ++l) {
    sorted[l].resize(scores[l].size());
    std::iota(sorted[l].begin(), sorted[l].end(), size_t{0});
    std::stable_sort(sorted[l].begin(), sorted[l].end(),
                     [&](size_t a, size_t b) { return scores[l][a] < scores[l][b]; });
  }
  // (score sum, index sum, positions in `sorted`, first position a successor may raise): both
  // sums only grow along a successor, so the queue yields picks in order.
  using Entry = std::tuple<int64_t, size_t, std::vector<size_t>, size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  auto sums = [&](const std::vector<size_t>& pos) {
    int64_t score = 0;
    size_t index = 0;
    for (size_t l = 0; l < lists; ++l) {
      score += scores[l][sorted[l][pos[l]]];
      index += sorted[l][pos[l]];
    }
    return std::make_pair(score, index);
  };
  std::vector<std::vector<size_t>> out;
  if (count == 0) return out;
  const std::vector<size_t> first(lists, 0);
  const auto [first_score, first_index] = sums(first);
  queue.emplace(first_score, first_index, first, 0);
  while (!queue.empty() && out.size() < count) {
    const std::vector<size_t> pos = std::get<2>(queue.top());
    const size_t from = std::get<3>(queue.top());
    queue.pop();
    std::vector<size_t> pick(lists);
    for (size_t l = 0; l < lists; ++l) pick[l] = sorted[l][pos[l]];
    out.push_back(std::move(pick));
    for (size_t l = from; l < lists; ++l) {
      if (pos[l] + 1 >= sorted[l].size()) continue;
      std::vector<size_t> next = pos;
      ++next[l];
      const auto [s, i] = sums(next);
      queue.emplace(s, i, std::move(next), l);
    }
  }
  return out;
}

}  // namespace arenaplan::plan::optimal_internal
