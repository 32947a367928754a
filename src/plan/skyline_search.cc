// The skyline search (see skyline_search.h). Every state change goes to one undo log; the node
// loop allocates nothing once warm (candidates share one stack, conflict sets one pool).
#include "plan/skyline_search.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <tuple>

namespace arenaplan::plan::optimal_internal {
namespace {

struct Saved {
  int section;
  Bytes floor;
};

// Where to branch: a cell of a valley.
struct Choice {
  int section = -1;  // -1: nothing left to place
  int a = 0, b = 0;  // its valley [a, b]
  Bytes floor = 0;   // the valley's floor
};

// Decision levels on the current path, as a bitset. Levels at or above its width cannot be told
// apart: adding one makes the set "everything" (no jump past it).
class Conflict {
 public:
  void Resize(size_t bits) { words_.assign((bits + 63) / 64, 0); }
  void Clear() { std::fill(words_.begin(), words_.end(), 0); }
  bool Has(int level) const {
    const size_t w = static_cast<size_t>(level) / 64;
    return w >= words_.size() || ((words_[w] >> (level % 64)) & 1) != 0;
  }
  void Add(int level) {
    const size_t w = static_cast<size_t>(level) / 64;
    if (w >= words_.size()) {
      std::fill(words_.begin(), words_.end(), ~uint64_t{0});
      return;
    }
    words_[w] |= uint64_t{1} << (level % 64);
  }
  void Remove(int level) {
    const size_t w = static_cast<size_t>(level) / 64;
    if (w < words_.size()) words_[w] &= ~(uint64_t{1} << (level % 64));
  }
  void Merge(const Conflict& o) {
    for (size_t i = 0; i < words_.size(); ++i) words_[i] |= o.words_[i];
  }

 private:
  std::vector<uint64_t> words_;
};

constexpr int kMaxConflictLevels = 4096;  // two pools of 4096 sets of 4096 bits: 4 MiB at most
// The search recurses once per decision, and a loose problem wastes a cell per decision: a run
// that goes deeper stops as if its budget were spent (no answer), so that the stack stays bounded
// (about 320 bytes per level in a Release build; 26,000 levels overflowed 8 MiB on a peak-anchor
// window of IOPDDL S with 15 % free).
constexpr int kMaxLevels = 4096;

}  // namespace

struct SkylineSearch::Impl {
  // ---- static data ----
  int n = 0, num_sections = 0;
  Bytes g = 1;  // every size is a multiple of g
  std::vector<Bytes> size;
  std::vector<Step> width;                       // lifetime in steps
  std::vector<int> degree;                       // how many buffers overlap it in time
  std::vector<int> sb, se;                       // section span [sb, se)
  std::vector<int> start_at, starts;             // CSR: buffers whose span begins at each section
  std::vector<int> cls, cls_members, cls_start;  // identical buffers (same span and size)
  std::vector<Bytes> load;                       // per section: total size live there

  // ---- search state ----
  Bytes capacity = 0;
  std::vector<Bytes> floor_;             // per section: everything below is decided
  std::vector<Bytes> total;              // per section: unplaced load
  std::vector<Bytes> ending, starting;   // per boundary t: unplaced sizes with span ending / starting at t
  std::vector<int> level_of;             // per buffer: decision level it was placed at, -1 unplaced
  std::vector<int> path;                 // buffers placed on the current path
  std::vector<std::vector<int>> wasted;  // per section: decision levels of its wasted cells
  std::vector<int> cls_next;             // per class: index (into cls_members) of its next member
  std::vector<int> cuts;                 // per boundary b: unplaced buffers spanning sections b-1 and b
  std::vector<Saved> log;
  std::vector<int> stack;            // candidates of all open nodes
  std::vector<uint8_t> rf, rb;       // row sweeps: reachable from the left / to the right end
  std::vector<int> rank;             // per buffer: position in this run's order (0 = first)
  std::vector<Conflict> acc, child;  // per decision level: the node's and its child's conflicts
  SkylineCell cell_rule = SkylineCell::kLowestValley;
  std::vector<Choice> valleys;  // every valley of the last Analyse (kept only under the kFewest rules)
  std::vector<int> cover;       // per section: alternatives covering its cell (as differences)
  int level = 0;                // decisions on the current path
  int conflict_levels = 0;      // levels the pools tell apart (2n + 64, at most 4096)
  bool cut_opened = false;
  int64_t run_nodes = 0, budget = 0, total_nodes = 0;
  StopCheck clock;
  Outcome stop = Outcome::kNotFound;
  std::vector<Offset>* out = nullptr;

  explicit Impl(const std::vector<Buffer>& buffers);
  Bytes Slack(int s) const { return capacity - floor_[s] - total[s]; }
  bool Open(int s) const { return total[s] > 0; }
  bool placed(int x) const { return level_of[x] >= 0; }
  bool Tick();
  void Place(int x, int lo, int hi);
  void Unplace(int x, size_t mark);
  void Waste(int s);
  void Undo(size_t mark);
  void Explain(int lo, int hi, Conflict* c) const;
  bool StepOk(int t, int lo, int hi) const;
  bool Analyse(int lo, int hi, Choice* choice, int* fail_lo, int* fail_hi);
  bool RowCoverable(int l, int a, int b, int r);
  int BestPiece(const Choice& c);
  bool Candidates(const Choice& c, int* cell);
  bool OnCovering(int x, int b) const;
  bool WasteOnCovering(int t) const;
  int FewestAlternatives(const Choice& valley, int* count);
  int ChooseCell(Choice* c);
  void RankBuffers(const SkylineOrder& o);
  bool Branch(int lo, int hi, const Choice& c, int cell, size_t begin, bool waste, Conflict* conflict);
  bool Dfs(int lo, int hi, Conflict* conflict);
  bool SolveSplit(int lo, int hi, Conflict* conflict);
  Outcome Run(Bytes cap, const SkylineOrder& ord, int64_t node_budget, const Limits& limits,
              std::vector<Offset>* offsets);
};

SkylineSearch::Impl::Impl(const std::vector<Buffer>& buffers) {
  n = static_cast<int>(buffers.size());
  const Sections sec = BuildSections(buffers);
  num_sections = sec.num_sections;
  sb = sec.span_begin;
  se = sec.span_end;
  load = sec.online_load;
  size.resize(n);
  width.resize(n);
  g = 0;
  for (int i = 0; i < n; ++i) {
    size[i] = buffers[i].size;
    width[i] = buffers[i].last - buffers[i].first + 1;
    g = std::gcd(g, size[i]);
  }
  if (g == 0) g = 1;
  start_at.assign(num_sections + 1, 0);
  for (int i = 0; i < n; ++i) ++start_at[sb[i] + 1];
  for (int s = 0; s < num_sections; ++s) start_at[s + 1] += start_at[s];
  starts.resize(n);
  std::vector<int> fill(start_at.begin(), start_at.end() - 1);
  for (int i = 0; i < n; ++i) starts[fill[sb[i]]++] = i;
  // Identical buffers: classes of equal (span, size).
  cls_members.resize(n);
  std::iota(cls_members.begin(), cls_members.end(), 0);
  auto key = [&](int i) { return std::make_tuple(sb[i], se[i], size[i], i); };
  std::sort(cls_members.begin(), cls_members.end(), [&](int a, int b) { return key(a) < key(b); });
  cls.assign(n, 0);
  for (int k = 0; k < n; ++k) {
    const int x = cls_members[k], p = k > 0 ? cls_members[k - 1] : -1;
    if (p < 0 || sb[p] != sb[x] || se[p] != se[x] || size[p] != size[x]) cls_start.push_back(k);
    cls[x] = static_cast<int>(cls_start.size()) - 1;
  }
  cls_start.push_back(n);
  // Time-overlap degree: all buffers minus those ending before or starting after.
  std::vector<Step> firsts(n), lasts(n);
  for (int i = 0; i < n; ++i) firsts[i] = buffers[i].first, lasts[i] = buffers[i].last;
  std::sort(firsts.begin(), firsts.end());
  std::sort(lasts.begin(), lasts.end());
  degree.resize(n);
  for (int i = 0; i < n; ++i) {
    const auto before = std::lower_bound(lasts.begin(), lasts.end(), buffers[i].first) - lasts.begin();
    const auto after = firsts.end() - std::upper_bound(firsts.begin(), firsts.end(), buffers[i].last);
    degree[i] = static_cast<int>(n - before - after - 1);
  }
  level_of.assign(n, -1);
  wasted.resize(num_sections);
  cuts.assign(num_sections + 1, 0);
  for (int i = 0; i < n; ++i) {
    for (int b = sb[i] + 1; b < se[i]; ++b) ++cuts[b];
  }
  rf.assign(num_sections + 2, 0);
  rb.assign(num_sections + 2, 0);
  rank.assign(n, 0);
  conflict_levels = std::min(kMaxConflictLevels, 2 * n + 64);
}

bool SkylineSearch::Impl::Tick() {
  ++run_nodes;
  const Outcome c = clock.Poll(run_nodes);
  if (c != Outcome::kFound) {
    stop = c;
    return false;
  }
  if (budget > 0 && run_nodes > budget) {
    stop = Outcome::kBudget;
    return false;
  }
  return true;
}

// x goes onto the floor of its span (level there: it lies inside a valley), at the current level.
void SkylineSearch::Impl::Place(int x, int lo, int hi) {
  const Bytes top = floor_[sb[x]] + size[x];
  level_of[x] = level;
  path.push_back(x);
  for (int s = sb[x]; s < se[x]; ++s) {
    log.push_back({s, floor_[s]});
    floor_[s] = top;
    total[s] -= size[x];
  }
  ending[se[x]] -= size[x];
  starting[sb[x]] -= size[x];
  ++cls_next[cls[x]];
  cut_opened = false;
  for (int b = sb[x] + 1; b < se[x]; ++b) {
    if (--cuts[b] == 0 && lo < b && b < hi) cut_opened = true;
  }
}

void SkylineSearch::Impl::Unplace(int x, size_t mark) {
  level_of[x] = -1;
  path.pop_back();
  for (int s = sb[x]; s < se[x]; ++s) total[s] += size[x];
  ending[se[x]] += size[x];
  starting[sb[x]] += size[x];
  --cls_next[cls[x]];
  for (int b = sb[x] + 1; b < se[x]; ++b) ++cuts[b];
  Undo(mark);
}

void SkylineSearch::Impl::Waste(int s) {
  log.push_back({s, floor_[s]});
  floor_[s] += g;
  wasted[s].push_back(level);
}

void SkylineSearch::Impl::Undo(size_t mark) {
  while (log.size() > mark) {
    floor_[log.back().section] = log.back().floor;
    log.pop_back();
  }
}

// Every decision touching sections [lo, hi] (placed buffers alive there, wasted cells there): any
// path agreeing on them has the same floors there and the same unplaced buffers alive there.
void SkylineSearch::Impl::Explain(int lo, int hi, Conflict* c) const {
  lo = std::max(lo, 0);
  hi = std::min(hi, num_sections - 1);
  for (int x : path) {
    if (sb[x] <= hi && se[x] > lo) c->Add(level_of[x]);
  }
  for (int s = lo; s <= hi; ++s) {
    for (int l : wasted[s]) c->Add(l);
  }
}

// A step of the skyline at boundary t of [lo, hi]: the lower side's cells up to the higher side's
// floor can only be covered by unplaced buffers ending (or starting) exactly at t, or wasted. A
// finished neighbour (or one outside the component) is a wall: the open side needs at least one.
bool SkylineSearch::Impl::StepOk(int t, int lo, int hi) const {
  const bool left = t - 1 >= lo && Open(t - 1), right = t < hi && Open(t);
  if (left && right) {
    const Bytes fl = floor_[t - 1], fr = floor_[t];
    if (fl < fr) return ending[t] + Slack(t - 1) >= fr - fl;
    if (fr < fl) return starting[t] + Slack(t) >= fl - fr;
    return true;
  }
  if (left) return ending[t] > 0 || Slack(t - 1) >= g;
  if (right) return starting[t] > 0 || Slack(t) >= g;
  return true;
}

// Scans every run of equal floors in [lo, hi). The row on a run must be covered by unplaced
// buffers (or wasted cells where the slack allows); they may reach into neighbouring sections
// that are not higher (those can still rise to the run), and a higher, finished or outside section
// is a wall. Checked for every run with a wall on at least one side (a run with none could be
// covered from anywhere). False when some row cannot be covered ([*fail_lo, *fail_hi]: the
// sections it looked at); otherwise *choice is the lowest valley (walls on both sides).
bool SkylineSearch::Impl::Analyse(int lo, int hi, Choice* choice, int* fail_lo, int* fail_hi) {
  *choice = Choice{};
  valleys.clear();
  for (int a = lo; a < hi;) {
    if (!Open(a)) {
      ++a;
      continue;
    }
    const Bytes h = floor_[a];
    int b = a;
    while (b + 1 < hi && Open(b + 1) && floor_[b + 1] == h) ++b;
    int l = a, r = b;
    while (l - 1 >= lo && Open(l - 1) && floor_[l - 1] <= h) --l;
    while (r + 1 < hi && Open(r + 1) && floor_[r + 1] <= h) ++r;
    if ((l == a || r == b) && !RowCoverable(l, a, b, r)) {
      *fail_lo = l;
      *fail_hi = r;
      return false;
    }
    if (l == a && r == b) {
      if (cell_rule != SkylineCell::kLowestValley) valleys.push_back(Choice{a, a, b, h});
      if (choice->section < 0 || h < choice->floor) *choice = Choice{a, a, b, h};
    }
    a = b + 1;
  }
  return true;
}

// Can the row of cells [a, b] be covered by unplaced buffers whose spans lie in [l, r], or by
// wasted cells of [a, b] where the slack allows? rf: positions reached, all of [l, a] to begin
// with; success when one in [b + 1, r + 1] is.
bool SkylineSearch::Impl::RowCoverable(int l, int a, int b, int r) {
  std::fill(rf.begin() + l, rf.begin() + r + 2, 0);
  std::fill(rf.begin() + l, rf.begin() + a + 1, 1);
  for (int t = l; t <= b; ++t) {
    if (!rf[t]) continue;
    if (t >= a && Slack(t) >= g) rf[t + 1] = 1;
    for (int k = start_at[t]; k < start_at[t + 1]; ++k) {
      const int x = starts[k];
      if (!placed(x) && se[x] <= r + 1) rf[se[x]] = 1;
    }
  }
  for (int q = b + 1; q <= r + 1; ++q) {
    if (rf[q]) return true;
  }
  return false;
}

// For valley c: rf (RowCoverable) and rb (positions from which b + 1 is reachable), then the
// best-ranked buffer on some covering of its row (-1: wasted cells only).
int SkylineSearch::Impl::BestPiece(const Choice& c) {
  RowCoverable(c.a, c.a, c.b, c.b);
  std::fill(rb.begin() + c.a, rb.begin() + c.b + 2, 0);
  rb[c.b + 1] = 1;
  int best = -1;
  for (int t = c.b; t >= c.a; --t) {
    if (!rf[t]) continue;
    if (Slack(t) >= g && rb[t + 1]) rb[t] = 1;
    for (int k = start_at[t]; k < start_at[t + 1]; ++k) {
      const int x = starts[k];
      if (placed(x) || se[x] > c.b + 1 || !rb[se[x]]) continue;
      rb[t] = 1;
      if (best < 0 || rank[x] < rank[best]) best = x;
    }
  }
  return best;
}

// After BestPiece on a valley ending at section b: whether unplaced buffer x, starting at a
// reachable section, lies on some covering of its row and is the next of its identical class.
bool SkylineSearch::Impl::OnCovering(int x, int b) const {
  return !placed(x) && se[x] <= b + 1 && rb[se[x]] && cls_members[cls_next[cls[x]]] == x;
}

// After BestPiece: whether wasting cell t lies on some covering of the valley's row.
bool SkylineSearch::Impl::WasteOnCovering(int t) const { return rf[t] && rb[t + 1] && Slack(t) >= g; }

// The cell of `valley` that the fewest alternatives cover (buffers on some covering of its row, next
// of their identical class, and wasting it), and that number: one is a forced move.
int SkylineSearch::Impl::FewestAlternatives(const Choice& valley, int* count) {
  BestPiece(valley);
  const int a = valley.a, b = valley.b;
  std::fill(cover.begin() + a, cover.begin() + b + 2, 0);
  for (int t = a; t <= b; ++t) {
    if (!rf[t]) continue;
    if (WasteOnCovering(t)) ++cover[t], --cover[t + 1];
    for (int k = start_at[t]; k < start_at[t + 1]; ++k) {
      const int x = starts[k];
      if (OnCovering(x, b)) ++cover[t], --cover[se[x]];
    }
  }
  int cell = a, covering = 0;
  *count = -1;
  for (int t = a; t <= b; ++t) {
    covering += cover[t];
    if (*count < 0 || covering < *count) *count = covering, cell = t;
  }
  return cell;
}

// The branching cell under the run's rule (-1: the lowest valley's usual cell); *c becomes its valley.
int SkylineSearch::Impl::ChooseCell(Choice* c) {
  if (cell_rule == SkylineCell::kLowestValley) return -1;
  if (cell_rule == SkylineCell::kFewestElseLowest && valleys.size() < 2) return -1;
  // Lowest first (*c leads: Analyse keeps the first of equal floors), so that the first valley with
  // the fewest wins ties, and a forced move (one alternative; a coverable row has at least one)
  // ends the scan.
  std::stable_sort(valleys.begin(), valleys.end(), [](const Choice& x, const Choice& y) { return x.floor < y.floor; });
  int fewest = -1, cell = -1;
  Choice pick = *c;
  for (const Choice& v : valleys) {
    int k = 0;
    const int at = FewestAlternatives(v, &k);
    if (fewest < 0 || k < fewest) fewest = k, pick = v, cell = at;
    if (fewest <= 1) break;
  }
  if (cell_rule == SkylineCell::kFewestElseLowest && pick.a == c->a) return -1;
  *c = pick;
  return cell;
}

// Branching cell: *chosen, or where it is -1, the first cell of the valley's best-ranked piece.
// Pushes, in rank order, the buffers that may cover it: unplaced, span inside the valley and
// containing the cell, on some covering of the row, next of their identical class. Returns whether
// wasting the cell lies on some covering.
bool SkylineSearch::Impl::Candidates(const Choice& valley, int* chosen) {
  const int best = BestPiece(valley);
  if (*chosen < 0) *chosen = best >= 0 ? sb[best] : valley.a;
  const int cell = *chosen;
  const size_t begin = stack.size();
  for (int t = valley.a; t <= cell; ++t) {
    if (!rf[t]) continue;
    for (int k = start_at[t]; k < start_at[t + 1]; ++k) {
      const int x = starts[k];
      if (se[x] > cell && OnCovering(x, valley.b)) stack.push_back(x);
    }
  }
  std::sort(stack.begin() + begin, stack.end(), [&](int a, int b) { return rank[a] < rank[b]; });
  return WasteOnCovering(cell);
}

// The run's static order: descending by the keys of o.keys in turn (W lifetime in steps, A area,
// Z size, O time-overlapping buffers, C sections spanned), ties by index; with a seed, each buffer
// then moves by a random amount up to 5 % of n (a nearby order, for restarts).
void SkylineSearch::Impl::RankBuffers(const SkylineOrder& o) {
  std::vector<int> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  auto key = [&](int x, char c) -> __int128 {
    switch (c) {
      case 'W': return width[x];
      case 'A': return static_cast<__int128>(size[x]) * width[x];
      case 'Z': return size[x];
      case 'O': return degree[x];
      case 'C': return se[x] - sb[x];
      default: return 0;
    }
  };
  std::sort(idx.begin(), idx.end(), [&](int a, int b) {
    for (char c : o.keys) {
      const __int128 ka = key(a, c), kb = key(b, c);
      if (ka != kb) return ka > kb;
    }
    return a < b;
  });
  if (o.seed != 0) {
    std::mt19937 rng(o.seed);
    std::vector<double> pos(n);
    const double spread = 0.05 * n;
    for (int k = 0; k < n; ++k) pos[idx[k]] = k + std::uniform_real_distribution<double>(0, spread)(rng);
    std::sort(idx.begin(), idx.end(), [&](int a, int b) { return pos[a] < pos[b]; });
  }
  for (int k = 0; k < n; ++k) rank[idx[k]] = k;
}

// Tries the candidates stack[begin..] at the chosen cell, then (if `waste`) wasting it, all as
// decision level d = level. Conflict-directed backjumping: a child that fails for reasons not
// involving level d makes every alternative here fail the same way, so the node returns at once
// with the child's conflict; otherwise the node's conflict is the union of its children's (minus
// d) and the reasons its valley offers only these alternatives.
bool SkylineSearch::Impl::Branch(int lo, int hi, const Choice& c, int cell, size_t begin, bool waste,
                                 Conflict* conflict) {
  const int d = level;
  Conflict deep_mine, deep_sub;  // deeper than the pools (long runs of wasted cells)
  if (d >= conflict_levels) deep_mine.Resize(conflict_levels), deep_sub.Resize(conflict_levels);
  Conflict& mine = d < conflict_levels ? acc[d] : deep_mine;
  Conflict& sub = d < conflict_levels ? child[d] : deep_sub;
  mine.Clear();
  const size_t end = stack.size();
  for (size_t k = begin; k < end + (waste ? 1 : 0); ++k) {
    const size_t mark = log.size();
    int x = -1, t0 = cell, t1 = cell + 1;  // the boundaries whose steps may have changed
    if (k < end) {
      x = stack[k];
      Place(x, lo, hi);
      t0 = sb[x], t1 = se[x];
    } else {
      Waste(cell);
    }
    const Bytes at = x >= 0 ? floor_[sb[x]] - size[x] : 0;
    bool steps = true;
    for (int t = t0; t <= t1 && steps; ++t) steps = StepOk(t, lo, hi);
    ++level;
    bool found = false;
    if (steps) {
      found = x >= 0 && cut_opened ? SolveSplit(lo, hi, &sub) : Dfs(lo, hi, &sub);
    } else {
      sub.Clear();
      Explain(t0 - 1, t1, &sub);
    }
    --level;
    if (x >= 0) {
      Unplace(x, mark);
    } else {
      wasted[cell].pop_back();
      Undo(mark);
    }
    if (found) {
      if (x >= 0) (*out)[x] = at;
      return true;
    }
    if (stop != Outcome::kNotFound) return false;
    if (!sub.Has(d)) {
      *conflict = sub;
      return false;
    }
    sub.Remove(d);
    mine.Merge(sub);
  }
  Explain(c.a - 1, c.b + 1, &mine);
  *conflict = mine;
  return false;
}

// Fills sections [lo, hi) (one component: no unplaced buffer crosses lo or hi).
bool SkylineSearch::Impl::Dfs(int lo, int hi, Conflict* conflict) {
  if (!Tick()) return false;
  if (level >= kMaxLevels) {
    stop = Outcome::kBudget;
    return false;
  }
  Choice c;
  int fail_lo = 0, fail_hi = 0;
  if (!Analyse(lo, hi, &c, &fail_lo, &fail_hi)) {
    conflict->Clear();
    Explain(fail_lo - 1, fail_hi + 1, conflict);
    return false;
  }
  if (c.section < 0) return true;  // no open section left (a lowest open run is always a valley)
  const size_t begin = stack.size();
  int cell = ChooseCell(&c);
  const bool waste = Candidates(c, &cell);
  const bool found = Branch(lo, hi, c, cell, begin, waste, conflict);
  stack.resize(begin);
  return found;
}

// The components of [lo, hi) (split where no unplaced buffer crosses a boundary), one after the
// other: each has its own valleys, and one failing fails them all.
bool SkylineSearch::Impl::SolveSplit(int lo, int hi, Conflict* conflict) {
  int a = lo;
  for (int b = lo + 1; b <= hi; ++b) {
    if (b < hi && cuts[b] > 0) continue;
    bool open = false;
    for (int s = a; s < b && !open; ++s) open = Open(s);
    if (open && !Dfs(a, b, conflict)) return false;
    a = b;
  }
  return true;
}

Outcome SkylineSearch::Impl::Run(Bytes cap, const SkylineOrder& ord, int64_t node_budget, const Limits& limits,
                                 std::vector<Offset>* offsets) {
  capacity = cap / g * g;  // every height the search builds is a multiple of g
  budget = node_budget;
  clock.Reset(limits);
  stop = Outcome::kNotFound;
  run_nodes = 0;
  out = offsets;
  RankBuffers(ord);
  cell_rule = ord.cell;
  cover.assign(num_sections + 2, 0);
  for (size_t c = 0; c + 1 < cls_start.size(); ++c) {  // identical buffers follow the run's order
    std::sort(cls_members.begin() + cls_start[c], cls_members.begin() + cls_start[c + 1],
              [&](int a, int b) { return rank[a] < rank[b]; });
  }
  for (int s = 0; s < num_sections; ++s) {
    if (load[s] > capacity) return Outcome::kNotFound;
  }
  if (acc.empty()) {
    acc.resize(conflict_levels);
    child.resize(conflict_levels);
    for (int l = 0; l < conflict_levels; ++l) acc[l].Resize(conflict_levels), child[l].Resize(conflict_levels);
  }
  floor_.assign(num_sections, 0);
  total = load;
  ending.assign(num_sections + 1, 0);
  starting.assign(num_sections + 1, 0);
  for (int i = 0; i < n; ++i) ending[se[i]] += size[i], starting[sb[i]] += size[i];
  cls_next.assign(cls_start.begin(), cls_start.end() - 1);
  offsets->assign(n, 0);
  stack.clear();
  path.clear();
  level = 0;
  Conflict root;
  root.Resize(conflict_levels);
  bool found = true;
  for (int t = 0; t <= num_sections && found; ++t) found = StepOk(t, 0, num_sections);
  found = found && SolveSplit(0, num_sections, &root);
  total_nodes += run_nodes;
  if (found) return Outcome::kFound;
  return stop;
}

bool SkylineSearch::Applicable(const std::vector<Buffer>& buffers) {
  Bytes g = 0;
  for (const Buffer& b : buffers) {
    if (b.fixed()) return false;
    g = std::gcd(g, b.size);
  }
  for (const Buffer& b : buffers) {
    if (g % b.alignment != 0) return false;
  }
  return !buffers.empty();
}

SkylineSearch::SkylineSearch(const std::vector<Buffer>& buffers) : impl_(std::make_unique<Impl>(buffers)) {}

SkylineSearch::~SkylineSearch() = default;

Outcome SkylineSearch::Run(Bytes capacity, const SkylineOrder& order, int64_t node_budget, const Limits& limits,
                           std::vector<Offset>* offsets) {
  return impl_->Run(capacity, order, node_budget, limits, offsets);
}

int64_t SkylineSearch::nodes() const { return impl_->total_nodes; }

}  // namespace arenaplan::plan::optimal_internal
