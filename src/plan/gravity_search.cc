// The gravity search (see gravity_search.h). The node loop allocates nothing once warm:
// candidates live on one shared stack, every state change goes to an undo log and is rolled back
// on backtrack.
#include <algorithm>
#include <limits>
#include <map>
#include <numeric>

#include "plan/gravity_search.h"
#include "util/align.h"

namespace arenaplan::plan::optimal_internal {
namespace {

constexpr Offset kInf = std::numeric_limits<Offset>::max() / 4;
// Candidates are collected and sorted this many at a time (see Collect).
constexpr size_t kBatch = 32;

struct Candidate {
  Offset offset;
  int rank;
  int index;
};

}  // namespace

struct GravitySearch::Impl {
  // ---- static data ----
  int n = 0;
  int num_sections = 0;
  std::vector<Bytes> size;
  std::vector<Offset> fixed;  // kUnfixed when online
  std::vector<Bytes> align;
  std::vector<int> span_begin, span_end;    // section range [begin, end)
  std::vector<int> adj_start, adj;          // time-overlapping neighbours (CSR)
  std::vector<int> sec_start, sec_members;  // buffers live in each section (CSR)
  std::vector<Bytes> online_load;           // per section: sum of online sizes live there
  std::vector<Bytes> busiest;               // per buffer: largest section load it spans
  std::vector<Step> width;                  // per buffer: lifetime length
  Bytes lb = 0;
  std::map<std::string, std::vector<int>> ranks;  // order string -> rank per buffer
  // Valley tiling (see ValleysTileable): only without fixed buffers and with every alignment
  // dividing g, the gcd of sizes, so that every gravity offset is a multiple of g.
  bool tile_check = false;
  Bytes g = 1;
  std::vector<int> start_at, starts;  // CSR: buffers whose span begins at each section
  std::vector<uint8_t> reach;         // valley sweep scratch

  // ---- search state ----
  Bytes capacity = 0;
  std::vector<int> rank;                       // static rank per buffer for this run (groups re-rank theirs)
  std::vector<std::pair<int, int>> rank_save;  // (buffer, rank) of re-ranked groups, to restore
  std::string order_;
  bool rerank_groups = true;       // re-rank split groups by their remaining loads
  std::vector<Bytes> busiest_now;  // ReRank scratch: busiest remaining load per buffer
  std::vector<Offset> minoff, off;
  std::vector<uint8_t> placed;
  std::vector<Bytes> floor_, total;
  std::vector<std::pair<int, Offset>> minoff_log, floor_log;
  std::vector<Candidate> stack;
  std::vector<int> cuts;           // per section boundary b (between b-1 and b): unplaced spanning it
  std::vector<int> members;        // every buffer; a component is a range of it (SolveSplit reorders one in place)
  std::vector<int> split_scratch;  // SolveSplit: the placed members of the range being split
  int depth = 0;                   // Dfs levels on the current path
  std::vector<int> witness;        // per section: a hint, an unplaced member with minoff <= floor
  int64_t placement_id = 0;
  bool cut_opened = false;  // the last placement emptied some section boundary
  Offset cur_offset = 0;
  int cur_rank = -1;
  int64_t run_nodes = 0, budget = 0, total_nodes = 0;
  Limits limits;
  Outcome stop = Outcome::kNotFound;   // why a run stopped early
  std::vector<Offset>* out = nullptr;  // offsets written while a successful path unwinds

  explicit Impl(const std::vector<Buffer>& buffers);
  const std::vector<int>& RankFor(const std::string& order);
  Outcome Run(Bytes cap, const std::string& order, int64_t node_budget, const Limits& lim,
              std::vector<Offset>* offsets);
  bool Dfs(size_t first_member, int count, int remaining, int sec_lo, int sec_hi);
  bool SolveSplit(size_t first_member, int count);
  bool Collect(size_t first_member, size_t member_end, Offset lowest_top, const Candidate* after, bool* blocked);
  // Reads the clock / cancel flag every 8 calls (a placement costs microseconds, the clock ~25 ns);
  // sets stop when the run must end.
  bool OutOfTime() {
    const Outcome c = clock.Poll(run_nodes);
    if (c == Outcome::kFound) return false;
    stop = c;
    return true;
  }
  StopCheck clock;
  void ReRank(size_t from, size_t to);
  bool Place(int x, Offset p, int sec_lo, int sec_hi, int* unplaced_neighbours);
  bool ValleysTileable(int sec_lo, int sec_hi, Offset p, int r);
  bool RowTileable(int a, int b, Offset level, Offset p, int r);
  void Unplace(int x, size_t minoff_mark, size_t floor_mark);
};

GravitySearch::Impl::Impl(const std::vector<Buffer>& buffers) {
  n = static_cast<int>(buffers.size());
  size.resize(n);
  fixed.resize(n);
  align.resize(n);
  width.resize(n);
  std::vector<Step> points;
  points.reserve(2 * n);
  for (int i = 0; i < n; ++i) {
    size[i] = buffers[i].size;
    fixed[i] = buffers[i].fixed_offset;
    align[i] = buffers[i].alignment;
    width[i] = buffers[i].last - buffers[i].first + 1;
    points.push_back(buffers[i].first);
    points.push_back(buffers[i].last + 1);
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  num_sections = points.empty() ? 0 : static_cast<int>(points.size()) - 1;
  span_begin.resize(n);
  span_end.resize(n);
  online_load.assign(num_sections, 0);
  std::vector<Bytes> fixed_max(num_sections, 0), all_load(num_sections, 0);
  for (int i = 0; i < n; ++i) {
    span_begin[i] = static_cast<int>(std::lower_bound(points.begin(), points.end(), buffers[i].first) - points.begin());
    span_end[i] = static_cast<int>(std::lower_bound(points.begin(), points.end(), buffers[i].last + 1) -
                                   points.begin());
    for (int s = span_begin[i]; s < span_end[i]; ++s) {
      all_load[s] += size[i];
      if (fixed[i] == kUnfixed) {
        online_load[s] += size[i];
      } else {
        fixed_max[s] = std::max(fixed_max[s], size[i]);
      }
    }
    if (fixed[i] != kUnfixed) lb = std::max(lb, fixed[i] + size[i]);
  }
  for (int s = 0; s < num_sections; ++s) lb = std::max(lb, online_load[s] + fixed_max[s]);
  busiest.assign(n, 0);
  for (int i = 0; i < n; ++i) {
    for (int s = span_begin[i]; s < span_end[i]; ++s) busiest[i] = std::max(busiest[i], all_load[s]);
  }
  // Neighbours: sweep by first step; active set kept small by dropping finished buffers.
  std::vector<int> by_first(n);
  for (int i = 0; i < n; ++i) by_first[i] = i;
  std::sort(by_first.begin(), by_first.end(), [&](int a, int b) {
    return buffers[a].first != buffers[b].first ? buffers[a].first < buffers[b].first : a < b;
  });
  std::vector<std::vector<int>> lists(n);
  std::vector<int> active;
  for (int i : by_first) {
    size_t keep = 0;
    for (int j : active) {
      if (buffers[j].last >= buffers[i].first) active[keep++] = j;
    }
    active.resize(keep);
    for (int j : active) {
      lists[i].push_back(j);
      lists[j].push_back(i);
    }
    active.push_back(i);
  }
  adj_start.assign(n + 1, 0);
  for (int i = 0; i < n; ++i) adj_start[i + 1] = adj_start[i] + static_cast<int>(lists[i].size());
  adj.reserve(adj_start[n]);
  for (int i = 0; i < n; ++i) adj.insert(adj.end(), lists[i].begin(), lists[i].end());

  sec_start.assign(num_sections + 1, 0);
  for (int i = 0; i < n; ++i) {
    for (int s = span_begin[i]; s < span_end[i]; ++s) ++sec_start[s + 1];
  }
  for (int s = 0; s < num_sections; ++s) sec_start[s + 1] += sec_start[s];
  sec_members.resize(sec_start[num_sections]);
  {
    std::vector<int> fill(sec_start.begin(), sec_start.end() - 1);
    for (int i = 0; i < n; ++i) {
      for (int s = span_begin[i]; s < span_end[i]; ++s) sec_members[fill[s]++] = i;
    }
  }
  cuts.assign(num_sections + 1, 0);
  for (int i = 0; i < n; ++i) {
    for (int b = span_begin[i] + 1; b < span_end[i]; ++b) ++cuts[b];
  }
  witness.assign(num_sections, -1);
  busiest_now.assign(n, 0);
  minoff.assign(n, 0);
  off.assign(n, 0);
  placed.assign(n, 0);
  floor_.assign(num_sections, 0);
  total = online_load;
  g = 0;
  tile_check = true;
  for (int i = 0; i < n; ++i) {
    g = std::gcd(g, size[i]);
    tile_check = tile_check && fixed[i] == kUnfixed;
  }
  for (int i = 0; i < n; ++i) tile_check = tile_check && g % align[i] == 0;
  start_at.assign(num_sections + 1, 0);
  for (int i = 0; i < n; ++i) ++start_at[span_begin[i] + 1];
  for (int s = 0; s < num_sections; ++s) start_at[s + 1] += start_at[s];
  starts.resize(n);
  std::vector<int> fill(start_at.begin(), start_at.end() - 1);
  for (int i = 0; i < n; ++i) starts[fill[span_begin[i]]++] = i;
  reach.assign(num_sections + 1, 0);
}

const std::vector<int>& GravitySearch::Impl::RankFor(const std::string& order) {
  auto it = ranks.find(order);
  if (it != ranks.end()) return it->second;
  std::vector<int> degree(n);
  for (int i = 0; i < n; ++i) degree[i] = adj_start[i + 1] - adj_start[i];
  auto key = [&](int i, char c) -> __int128 {
    switch (c) {
      case 'A': return static_cast<__int128>(size[i]) * width[i];
      case 'C': return span_end[i] - span_begin[i];
      case 'O': return degree[i];
      case 'T': return busiest[i];
      case 'W': return width[i];
      case 'Z': return size[i];
      default: return 0;
    }
  };
  std::vector<int> idx(n);
  for (int i = 0; i < n; ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) {
    for (char c : order) {
      const __int128 ka = key(a, c), kb = key(b, c);
      if (ka != kb) return ka > kb;
    }
    return false;
  });
  std::vector<int> r(n);
  for (int k = 0; k < n; ++k) r[idx[k]] = k;
  return ranks.emplace(order, std::move(r)).first->second;
}

// Puts x at p and updates neighbours, sections and cuts; false when a section bound is violated
// (the caller still undoes). Counts neighbours that are still unplaced.
bool GravitySearch::Impl::Place(int x, Offset p, int sec_lo, int sec_hi, int* unplaced_neighbours) {
  placed[x] = 1;
  off[x] = p;
  const Offset top = p + size[x];
  const bool x_online = fixed[x] == kUnfixed;
  int count = 0;
  for (int k = adj_start[x]; k < adj_start[x + 1]; ++k) {
    const int y = adj[k];
    if (placed[y]) continue;
    ++count;
    if (!x_online && fixed[y] != kUnfixed) continue;  // fixed buffers may overlap each other
    const Offset need = align[y] == 1 ? top : AlignUp(top, align[y]);
    if (need > minoff[y]) {
      minoff_log.emplace_back(y, minoff[y]);
      minoff[y] = need;
    }
  }
  *unplaced_neighbours = count;
  cut_opened = false;
  for (int b = span_begin[x] + 1; b < span_end[x]; ++b) {
    if (--cuts[b] == 0) cut_opened = true;
  }
  for (int s = span_begin[x]; s < span_end[x]; ++s) {
    if (top > floor_[s]) {
      floor_log.emplace_back(s, floor_[s]);
      floor_[s] = top;
    }
    if (x_online) total[s] -= size[x];
  }
  // Every unplaced online buffer of a section sits above its floor and above p (canonical order),
  // and they pairwise overlap in time: they stack. Only the current component's sections: the
  // canonical order says nothing about other components. The floor is also raised to the lowest
  // minimum offset of the section's unplaced buffers; a still-valid witness (an unplaced member at
  // or below the floor) proves it cannot rise and spares the rescan. Witnesses need no undo: they
  // are re-checked on every use.
  for (int s = sec_lo; s < sec_hi; ++s) {
    if (total[s] == 0) continue;
    const int w = witness[s];
    if (w < 0 || placed[w] || minoff[w] > floor_[s]) {
      Offset lowest = kInf;
      for (int k = sec_start[s]; k < sec_start[s + 1]; ++k) {
        const int y = sec_members[k];
        if (placed[y] || fixed[y] != kUnfixed || minoff[y] >= lowest) continue;
        lowest = minoff[y];
        witness[s] = y;
        if (lowest <= floor_[s]) break;
      }
      if (lowest > floor_[s]) {
        floor_log.emplace_back(s, floor_[s]);
        floor_[s] = lowest;
      }
    }
    if (std::max(floor_[s], p) + total[s] > capacity) return false;
  }
  return !tile_check || ValleysTileable(sec_lo, sec_hi, p, rank[x]);
}

// Every unplaced buffer of section s lies above h(s) = max(floor, p) (p: the offset just used,
// r: its rank). A valley, a run of equal h with higher or finished neighbours, must get its
// bottom row covered: by buffers inside it whose gravity offset is exactly h (and of higher rank
// when h = p, the canonical order), or by wasted cells (at least g each) where the section's
// slack allows. A sweep from the valley's left end over such spans must reach its right end.
bool GravitySearch::Impl::ValleysTileable(int sec_lo, int sec_hi, Offset p, int r) {
  auto h = [&](int s) { return std::max(floor_[s], p); };
  for (int a = sec_lo; a < sec_hi;) {
    if (total[a] == 0) {
      ++a;
      continue;
    }
    const Offset level = h(a);
    int b = a;
    while (b + 1 < sec_hi && total[b + 1] > 0 && h(b + 1) == level) ++b;
    const bool valley = !(a > sec_lo && total[a - 1] > 0 && h(a - 1) < level) &&
                        !(b + 1 < sec_hi && total[b + 1] > 0 && h(b + 1) < level);
    if (valley && !RowTileable(a, b, level, p, r)) return false;
    a = b + 1;
  }
  return true;
}

// Can the row of sections [a, b] at height `level` be covered exactly by unplaced buffers with
// spans inside [a, b] whose gravity offset is exactly `level` (and rank above r when level == p),
// or by wasted cells where the slack allows?
bool GravitySearch::Impl::RowTileable(int a, int b, Offset level, Offset p, int r) {
  std::fill(reach.begin() + a, reach.begin() + b + 2, 0);
  reach[a] = 1;
  for (int t = a; t <= b && !reach[b + 1]; ++t) {
    if (!reach[t]) continue;
    if (capacity - std::max(floor_[t], p) - total[t] >= g) reach[t + 1] = 1;
    for (int k = start_at[t]; k < start_at[t + 1]; ++k) {
      const int y = starts[k];
      if (placed[y] || span_end[y] > b + 1) continue;
      if (minoff[y] != level || (level == p && rank[y] < r)) continue;
      reach[span_end[y]] = 1;
    }
  }
  return reach[b + 1] != 0;
}

void GravitySearch::Impl::Unplace(int x, size_t minoff_mark, size_t floor_mark) {
  placed[x] = 0;
  for (int b = span_begin[x] + 1; b < span_end[x]; ++b) ++cuts[b];
  if (fixed[x] == kUnfixed) {
    for (int s = span_begin[x]; s < span_end[x]; ++s) total[s] += size[x];
  }
  while (minoff_log.size() > minoff_mark) {
    minoff[minoff_log.back().first] = minoff_log.back().second;
    minoff_log.pop_back();
  }
  while (floor_log.size() > floor_mark) {
    floor_[floor_log.back().first] = floor_log.back().second;
    floor_log.pop_back();
  }
}

// Places the unplaced buffers among members[first_member, first_member + count) (one component:
// none of them overlaps a buffer outside it in time). True when done: their offsets are written
// to *out while the path unwinds. False when none fits or the run stopped (stop says which).
bool GravitySearch::Impl::Dfs(size_t first_member, int count, int remaining, int sec_lo, int sec_hi) {
  if (remaining == 0) return true;
  ++run_nodes;
  if (OutOfTime()) return false;
  if ((budget > 0 && run_nodes > budget) || depth >= GravitySearch::kMaxDepth) {
    stop = Outcome::kBudget;
    return false;
  }
  const size_t member_end = first_member + count;
  // Dominance threshold: the lowest top any unplaced online buffer can still reach.
  Offset lowest_top = kInf;
  for (size_t k = first_member; k < member_end; ++k) {
    const int i = members[k];
    if (!placed[i] && fixed[i] == kUnfixed) lowest_top = std::min(lowest_top, minoff[i] + size[i]);
  }
  const size_t begin = stack.size();
  bool blocked = false;  // some unplaced buffer cannot go now (it ends strictly above cur_offset)
  if (!Collect(first_member, member_end, lowest_top, nullptr, &blocked)) {
    stack.resize(begin);
    return false;
  }
  const Offset saved_offset = cur_offset;
  const int saved_rank = cur_rank;
  // The batch on the stack is sorted: take its candidates in turn, and when a full batch is used
  // up, collect the next one.
  size_t next = begin;
  for (bool first = true; next < stack.size(); first = false) {
    const Candidate c = stack[next++];
    const size_t minoff_mark = minoff_log.size(), floor_mark = floor_log.size();
    int unplaced_neighbours = 0;
    const bool ok = Place(c.index, c.offset, sec_lo, sec_hi, &unplaced_neighbours);
    cur_offset = c.offset;
    cur_rank = c.rank;
    bool found = false;
    if (ok) {
      ++depth;
      found = (cut_opened && remaining > 2) ? SolveSplit(first_member, count)
                                            : Dfs(first_member, count, remaining - 1, sec_lo, sec_hi);
      --depth;
    }
    Unplace(c.index, minoff_mark, floor_mark);
    cur_offset = saved_offset;
    cur_rank = saved_rank;
    if (!found && OutOfTime()) break;
    if (found) {
      (*out)[c.index] = c.offset;
      stack.resize(begin);
      return true;
    }
    if (stop != Outcome::kNotFound) break;
    // Hatless: nothing can ever rest on c and every other buffer ends at or after c in canonical
    // order, so any solution could move c here; siblings would only repeat the failure.
    if (unplaced_neighbours == 0 && first && (!blocked || c.offset == saved_offset)) break;
    if (next == stack.size() && next - begin == kBatch) {
      stack.resize(begin);
      next = begin;
      bool unused = false;  // the node's state is as it was: the same members are blocked
      if (!Collect(first_member, member_end, lowest_top, &c, &unused)) break;
    }
  }
  stack.resize(begin);
  return false;
}

// Pushes the node's next batch of candidates onto the stack: the kBatch first, in (offset, rank)
// order, of those after `after` (all when null). A candidate is an unplaced member at its gravity
// offset (a fixed one at its slot), not blocked by the canonical order (*blocked set when some is),
// and not dominated (below lowest_top). False when the node fails outright: a fixed slot is taken
// or passed, or a candidate does not fit under the capacity. Batches keep the stack at kBatch
// entries per level: all candidates per level took O(n^2) memory on a chain of n buffers.
bool GravitySearch::Impl::Collect(size_t first_member, size_t member_end, Offset lowest_top, const Candidate* after,
                                  bool* blocked) {
  const size_t begin = stack.size();
  auto before = [](const Candidate& a, const Candidate& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.rank < b.rank;
  };
  for (size_t k = first_member; k < member_end; ++k) {
    const int i = members[k];
    if (placed[i]) continue;
    Offset p = minoff[i];
    if (fixed[i] != kUnfixed) {
      if (minoff[i] > fixed[i] || fixed[i] < cur_offset || (fixed[i] == cur_offset && rank[i] < cur_rank)) {
        return false;  // the fixed slot is taken or already passed
      }
      p = fixed[i];
    }
    if (p < cur_offset || (p == cur_offset && rank[i] < cur_rank)) {
      *blocked = true;
      continue;
    }
    if (p >= lowest_top) continue;  // dominated: another buffer fits wholly below it
    if (p + size[i] > capacity) return false;
    const Candidate c{p, rank[i], i};
    if (after != nullptr && !before(*after, c)) continue;
    stack.push_back(c);
  }
  const auto first = stack.begin() + static_cast<std::ptrdiff_t>(begin);
  if (stack.size() - begin > kBatch) {
    std::nth_element(first, first + kBatch, stack.end(), before);
    stack.resize(begin + kBatch);
  }
  std::sort(first, stack.end(), before);
  return true;
}

// Sorts members[from, to) by the run's order with T = the busiest remaining load now, and gives
// them ranks 0.. (saving the old ones on rank_save).
void GravitySearch::Impl::ReRank(size_t from, size_t to) {
  for (size_t k = from; k < to; ++k) rank_save.emplace_back(members[k], rank[members[k]]);
  for (size_t k = from; k < to; ++k) {
    const int i = members[k];
    Bytes t = 0;
    for (int s = span_begin[i]; s < span_end[i]; ++s) t = std::max(t, total[s]);
    busiest_now[i] = t;
  }
  auto key = [&](int i, char c) -> __int128 {
    switch (c) {
      case 'A': return static_cast<__int128>(size[i]) * width[i];
      case 'C': return span_end[i] - span_begin[i];
      case 'T': return busiest_now[i];
      case 'W': return width[i];
      case 'Z': return size[i];
      default: return 0;
    }
  };
  std::sort(members.begin() + from, members.begin() + to, [&](int a, int b) {
    for (char c : order_) {
      const __int128 ka = key(a, c), kb = key(b, c);
      if (ka != kb) return ka > kb;
    }
    return a < b;
  });
  for (size_t k = from; k < to; ++k) rank[members[k]] = static_cast<int>(k - from);
}

// After a placement emptied a section boundary: the unplaced members fall apart into groups that
// share no time; each is solved on its own (one failing fails the node, no cross-product).
bool GravitySearch::Impl::SolveSplit(size_t first_member, int count) {
  // The range is reordered in place: unplaced members first, sorted by span start (callers only
  // need the range to hold the same members). A copy per split cost O(n^2) memory on a chain,
  // where every placement splits off one end: 535 MB at 20,000 buffers.
  const size_t base = first_member;
  const size_t range_end = first_member + count;
  split_scratch.clear();
  size_t unplaced_end = base;
  for (size_t k = base; k < range_end; ++k) {
    if (placed[members[k]]) {
      split_scratch.push_back(members[k]);
    } else {
      members[unplaced_end++] = members[k];
    }
  }
  std::copy(split_scratch.begin(), split_scratch.end(), members.begin() + static_cast<std::ptrdiff_t>(unplaced_end));
  // A total order, so the groups and their order do not depend on the range's order before.
  auto by_start = [&](int a, int b) { return span_begin[a] != span_begin[b] ? span_begin[a] < span_begin[b] : a < b; };
  const auto first = members.begin() + static_cast<std::ptrdiff_t>(base);
  const auto last = members.begin() + static_cast<std::ptrdiff_t>(unplaced_end);
  if (!std::is_sorted(first, last, by_start)) std::sort(first, last, by_start);
  // Group boundaries in [base, end): a new group starts where no earlier member reaches.
  const size_t total_count = unplaced_end - base;
  bool found = true;
  size_t g = base;
  while (g < base + total_count) {
    const int lo = span_begin[members[g]];
    int reach = span_end[members[g]];
    size_t e = g + 1;
    while (e < base + total_count && span_begin[members[e]] < reach) {
      reach = std::max(reach, span_end[members[e]]);
      ++e;
    }
    const int group_count = static_cast<int>(e - g);
    // A group is a problem of its own above the placed buffers: its canonical order starts afresh,
    // with ranks from the remaining loads.
    const size_t save_mark = rank_save.size();
    if (rerank_groups) ReRank(g, e);
    const Offset saved_offset = cur_offset;
    const int saved_rank = cur_rank;
    cur_offset = 0;
    cur_rank = -1;
    const bool ok = Dfs(g, group_count, group_count, lo, reach);
    cur_offset = saved_offset;
    cur_rank = saved_rank;
    for (size_t k = save_mark; k < rank_save.size(); ++k) rank[rank_save[k].first] = rank_save[k].second;
    rank_save.resize(save_mark);
    if (!ok) {
      found = false;
      break;
    }
    g = e;
  }
  return found;
}

Outcome GravitySearch::Impl::Run(Bytes cap, const std::string& order, int64_t node_budget, const Limits& lim,
                                 std::vector<Offset>* offsets) {
  capacity = cap;
  rank = RankFor(order);
  order_ = order;
  budget = node_budget;
  limits = lim;
  clock.Reset(lim);
  out = offsets;
  stop = Outcome::kNotFound;
  run_nodes = 0;
  cur_offset = 0;
  cur_rank = -1;
  if (lb > cap) return Outcome::kNotFound;
  for (int i = 0; i < n; ++i) {
    if (size[i] > cap || (fixed[i] != kUnfixed && fixed[i] + size[i] > cap)) return Outcome::kNotFound;
  }
  offsets->assign(n, 0);
  stack.clear();
  members.resize(n);
  for (int i = 0; i < n; ++i) members[i] = i;
  depth = 0;
  const bool found = Dfs(0, n, n, 0, num_sections);
  total_nodes += run_nodes;
  if (found) return Outcome::kFound;
  return stop;
}

GravitySearch::GravitySearch(const std::vector<Buffer>& buffers) : impl_(std::make_unique<Impl>(buffers)) {}
GravitySearch::~GravitySearch() = default;

Bytes GravitySearch::lower_bound() const { return impl_->lb; }
int64_t GravitySearch::nodes() const { return impl_->total_nodes; }

Outcome GravitySearch::Run(Bytes capacity, const std::string& order, bool rerank, int64_t node_budget,
                           const Limits& limits, std::vector<Offset>* offsets) {
  impl_->rerank_groups = rerank;
  return impl_->Run(capacity, order, node_budget, limits, offsets);
}

}  // namespace arenaplan::plan::optimal_internal
