// PlanOptimal: validation, time partitions, greedy seed, and the outer loop (decision at the
// capacity, or minimisation by probing reachable heights). The search itself: optimal_search.cc.
#include "plan/optimal.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
#include <string>

#include "plan/best_fit.h"
#include "plan/lower_bound.h"
#include "plan/minimise.h"
#include "plan/optimal_search.h"
#include "plan/skyline_search.h"
#include "plan/window_bound.h"

namespace arenaplan::plan {
namespace {

using optimal_internal::DecisionSearch;
using optimal_internal::kBoundProbeShare;
using optimal_internal::Limits;
using optimal_internal::MinimiseHeight;
using optimal_internal::Outcome;
using optimal_internal::RefuteByWindows;
using optimal_internal::SearchFootprint;
using optimal_internal::SkylineSearch;
using Clock = std::chrono::steady_clock;

constexpr double kDefaultTimeLimitSeconds = 10.0;
// How the time limit is shared (fractions of the time remaining when each step starts):
constexpr double kSeedShare = 0.5;        // the best-fit portfolio that seeds the search
constexpr double kMinSeedSeconds = 1e-3;  // ... but always time for one variant at least
// Decision mode under a capacity above the bound: a plan at the bound is often found much faster
// than one at the capacity (a perfect packing, where wasted cells refute at once), and sometimes
// not at all. The bound is tried first: briefly (this share of the time left, capped), or with
// kBoundProbeShare as when minimising where the bound is tight (DecisionSearch::Tight: a plan
// there is a near-perfect packing, found fast or never, and the search at a looser capacity
// wastes cells and drowns; the perfect packings under 2 % headroom of packing_bench).
constexpr double kQuickProbeShare = 0.1;
constexpr double kQuickProbeMaxSeconds = 0.25;
constexpr size_t kOwnSeedMaxBuffers = 4000;  // our quadratic first-fit seed only below this
constexpr Bytes kMaxTotal = kMaxTotalBytes;  // keeps every sum below int64 overflow
// The exact search keeps every time-overlapping pair and every (section, live buffer) entry. It
// is built only while they stay within memory proportional to the problem: this many ints per
// buffer, plus a fixed allowance that every small problem fits (A-K, every model).
constexpr uint64_t kSearchIntsPerBuffer = 64;
constexpr uint64_t kSearchIntsAllowance = uint64_t{1} << 22;
// Closed-window refutations (window_bound.h) get this share of the time: enough for hundreds of
// small windows, and a refutation settles a decision outright.
constexpr double kWindowShare = 0.1;

// The shared checks (ValidateProblem) plus what the section sweep needs: last + 1 representable.
Status Validate(const Problem& problem) {
  ARENAPLAN_RETURN_IF_ERROR(ValidateProblem(problem));
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    if (problem.buffers[i].last == std::numeric_limits<Step>::max()) {
      return InvalidArgument(DescribeBuffer(problem, i) + ": last step out of range");
    }
  }
  return Status::Ok();
}

// Buffers grouped into time partitions (nothing alive across a cut), each a list of indices.
std::vector<std::vector<size_t>> TimePartitions(const std::vector<Buffer>& buffers) {
  std::vector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return buffers[a].first != buffers[b].first ? buffers[a].first < buffers[b].first : a < b;
  });
  std::vector<std::vector<size_t>> parts;
  Step reach = 0;
  for (size_t i : order) {
    if (parts.empty() || buffers[i].first > reach) {
      parts.emplace_back();
      reach = buffers[i].last;
    }
    parts.back().push_back(i);
    reach = std::max(reach, buffers[i].last);
  }
  for (auto& p : parts) std::sort(p.begin(), p.end());
  return parts;
}

bool SearchFitsMemoryBudget(const std::vector<Buffer>& b) {
  return SearchFootprint(b) <= kSearchIntsPerBuffer * b.size() + kSearchIntsAllowance;
}

// First fit in the given order: each buffer at the lowest aligned offset free of every placed
// time-overlapping buffer (fixed ones first, at their offsets). O(n^2 log n).
std::vector<Offset> FirstFit(const std::vector<Buffer>& b, const std::vector<int>& order) {
  const size_t n = b.size();
  std::vector<Offset> off(n, 0);
  std::vector<int> placed;
  placed.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (b[i].fixed()) {
      off[i] = b[i].fixed_offset;
      placed.push_back(static_cast<int>(i));
    }
  }
  std::vector<std::pair<Offset, Offset>> busy;
  for (int i : order) {
    if (b[i].fixed()) continue;
    busy.clear();
    for (int j : placed) {
      if (LifetimesOverlap(b[i], b[j])) busy.emplace_back(off[j], off[j] + b[j].size);
    }
    std::sort(busy.begin(), busy.end());
    Offset at = 0;
    for (const auto& [lo, hi] : busy) {
      if (lo >= at + b[i].size) break;
      if (hi > at) at = (hi + b[i].alignment - 1) / b[i].alignment * b[i].alignment;
    }
    off[i] = at;
    placed.push_back(i);
  }
  return off;
}

Bytes HeightOf(const std::vector<Buffer>& b, const std::vector<Offset>& off) {
  Bytes h = 0;
  for (size_t i = 0; i < b.size(); ++i) h = std::max(h, off[i] + b[i].size);
  return h;
}

// Best of a few first-fit orders (size, area, lifetime, start).
std::vector<Offset> GreedySeed(const std::vector<Buffer>& b, const std::function<bool()>& expired) {
  const int n = static_cast<int>(b.size());
  auto width = [&](int i) { return b[i].last - b[i].first; };
  using Less = std::function<bool(int, int)>;
  const Less orders[] = {
      [&](int x, int y) { return b[x].size != b[y].size ? b[x].size > b[y].size : width(x) > width(y); },
      [&](int x, int y) {
        const __int128 ax = static_cast<__int128>(b[x].size) * (width(x) + 1);
        const __int128 ay = static_cast<__int128>(b[y].size) * (width(y) + 1);
        return ax != ay ? ax > ay : b[x].size > b[y].size;
      },
      [&](int x, int y) { return width(x) != width(y) ? width(x) > width(y) : b[x].size > b[y].size; },
      [&](int x, int y) { return b[x].first != b[y].first ? b[x].first < b[y].first : b[x].size > b[y].size; },
  };
  std::vector<Offset> best;
  Bytes best_h = 0;
  std::vector<int> idx(n);
  for (const Less& less : orders) {
    if (!best.empty() && expired()) break;  // the first order always completes
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), less);
    std::vector<Offset> off = FirstFit(b, idx);
    const Bytes h = HeightOf(b, off);
    if (best.empty() || h < best_h) {
      best = std::move(off);
      best_h = h;
    }
  }
  return best;
}

Bytes Gcd(Bytes a, Bytes b) { return std::gcd(a, b); }

struct Piece {
  std::vector<size_t> index;  // global buffer indices
  std::vector<Buffer> buffers;
  // null when the exact search was not built (too dense for linear memory, no time left, or the
  // seed already at the bound): the piece keeps its seed and its section bound.
  std::unique_ptr<DecisionSearch> search;
  bool too_dense = false;  // the search was not built for memory, not for time
  Bytes lb = 0;
  Bytes proven_lb = 0;       // this piece's optimum is >= this
  std::vector<Offset> best;  // best placement found (empty: none within limits)
  Bytes best_h = 0;
  Bytes g = 1;  // every reachable height is a multiple of g
};

// The run's limits (the wall clock, or the work clock under PlannerOptions::work_time) and what
// the outer loop derives from them.
struct Clocked : Limits {
  double remaining() const { return std::chrono::duration<double>(deadline - now()).count(); }
  Clock::time_point After(double seconds) const {
    return now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  }
  Limits Until(Clock::time_point until) const {
    Limits l = *this;
    l.deadline = std::min(until, deadline);
    return l;
  }
};

Outcome Probe(Piece& piece, Bytes height, Clock::time_point probe_deadline, const Clocked& clock) {
  if (piece.search == nullptr) return Outcome::kBudget;
  std::vector<Offset> off;
  const Outcome r = piece.search->Decide(height, clock.Until(probe_deadline), &off);
  if (r == Outcome::kFound) {
    const Bytes h = HeightOf(piece.buffers, off);
    if (piece.best.empty() || h < piece.best_h) {
      piece.best = std::move(off);
      piece.best_h = h;
    }
  } else if (r == Outcome::kNotFound) {
    // Refuted at height: the optimum is a larger multiple of g.
    piece.proven_lb = std::max(piece.proven_lb, (height + piece.g) / piece.g * piece.g);
  }
  if (clock.heartbeat != nullptr) (*clock.heartbeat)(0);
  return r;
}

// Decision at the capacity for a piece without a plan: the bound first (see kQuickProbeShare),
// then the capacity with the time left. kFound also when the bound's probe found the plan.
Outcome DecideWithin(Piece& piece, Bytes capacity, const Clocked& clock) {
  if (piece.lb < capacity) {
    const bool tight = piece.search != nullptr && piece.search->Tight(piece.lb);
    const double remaining = clock.remaining();
    const double s = tight ? remaining * kBoundProbeShare
                           : std::min(kQuickProbeMaxSeconds, remaining * kQuickProbeShare);
    if (Probe(piece, piece.lb, clock.After(s), clock) == Outcome::kFound) return Outcome::kFound;
  }
  return Probe(piece, capacity, clock.deadline, clock);
}

// Closed windows (window_bound.h) raise a piece's proven bound where a small part of it cannot be
// packed: in decision mode (capacity > 0) at the capacity for pieces without a plan that fits;
// when minimising at the bound, then just above it, while a gap remains. Only pieces without
// fixed buffers whose alignments divide every size (squeezing out walls then keeps every offset
// aligned, and fixed ones would move). Uses kWindowShare of the time left.
void RaiseByWindows(std::vector<Piece>& pieces, Bytes g, Bytes capacity, const Clocked& clock) {
  const double remaining = clock.remaining();
  if (remaining <= 0 || clock.Cancelled()) return;
  const Limits limits = clock.Until(clock.After(remaining * kWindowShare));
  for (Piece& p : pieces) {
    if (p.search == nullptr) continue;
    if (!SkylineSearch::Applicable(p.buffers)) continue;
    if (capacity > 0) {
      if (p.best.empty() && RefuteByWindows(p.buffers, capacity, limits).refuted) {
        p.proven_lb = std::max(p.proven_lb, (capacity + g) / g * g);
      }
      continue;
    }
    while ((p.best.empty() || p.proven_lb < p.best_h) && RefuteByWindows(p.buffers, p.proven_lb, limits).refuted) {
      p.proven_lb = (p.proven_lb + g) / g * g;
    }
  }
}

// Reports the pieces' state to PlannerOptions::progress: the plan's height once every piece has
// one, the proven bound, and the nodes so far (plus those of the run under way, from heartbeats).
struct Reporter {
  const ProgressFn& progress;
  const std::vector<Piece>& pieces;
  Clock::time_point start;
  Bytes lb;
  void operator()(int64_t run_nodes = 0) const {
    if (!progress) return;
    PlanProgress p;
    p.stage = "optimal";
    p.lower_bound = lb;
    p.nodes = run_nodes;
    bool complete = true;
    for (const Piece& piece : pieces) {
      complete = complete && !piece.best.empty();
      p.height = std::max(p.height, piece.best_h);
      p.lower_bound = std::max(p.lower_bound, piece.proven_lb);
      if (piece.search != nullptr) p.nodes += piece.search->nodes();
    }
    if (!complete) p.height = 0;
    p.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    progress(p);
  }
};

// A piece the heuristics could not fit and the exact search was not built for. Memory is the
// reason whenever it was one (whatever the clock says by now): the answer does not depend on load.
Status SearchNotRun(Bytes capacity, const Piece& piece, const Clocked& clock) {
  const std::string what = "no plan within capacity " + std::to_string(capacity) + " from the heuristics";
  if (piece.too_dense) {
    return Status(ErrorCode::kUnsupported,
                  what + ", and too many overlapping buffers for the exact search in linear memory");
  }
  if (clock.Cancelled()) return Status(ErrorCode::kCancelled, what + ", and cancelled before the exact search");
  return Status(ErrorCode::kDeadlineExceeded, what + ", and no time left for the exact search");
}

}  // namespace

Result<PlanResult> PlanOptimal(const Problem& problem, const PlannerOptions& options) {
  const auto start = Clock::now();
  ARENAPLAN_RETURN_IF_ERROR(Validate(problem));
  const double limit_s = TimeLimitOr(options, kDefaultTimeLimitSeconds);
  optimal_internal::WorkClock work;
  Clocked clock;
  clock.cancel = options.cancel;
  if (options.work_time) clock.work = &work;
  clock.deadline = clock.After(limit_s);
  const std::vector<Buffer>& buffers = problem.buffers;
  const Bytes capacity = problem.capacity;
  PlanResult result;
  result.planner = "optimal";
  auto finish = [&](PlanStatus status) {
    result.status = status;
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
  };

  // Reachable heights are multiples of g: every gravity offset is a sum of sizes rounded up to
  // an alignment, or a fixed offset.
  Bytes g = 0;
  for (const Buffer& b : buffers) {
    g = Gcd(g, b.size);
    if (b.alignment > 1) g = Gcd(g, b.alignment);
    if (b.fixed() && b.fixed_offset > 0) g = Gcd(g, b.fixed_offset);
  }
  if (g == 0) g = 1;

  const int threads = SearchThreads(options);
  std::vector<Piece> pieces;
  for (auto& idx : TimePartitions(buffers)) {
    Piece p;
    p.index = std::move(idx);
    for (size_t i : p.index) p.buffers.push_back(buffers[i]);
    p.too_dense = !SearchFitsMemoryBudget(p.buffers);
    const bool has_fixed = std::any_of(p.buffers.begin(), p.buffers.end(), [](const Buffer& b) { return b.fixed(); });
    // With fixed buffers the search's bound (which counts them) is the piece's; without, it is
    // the live bytes, and the search is built only once the seed leaves a gap (below).
    if (has_fixed && !p.too_dense && clock.remaining() > 0 && !clock.Cancelled()) {
      p.search = std::make_unique<DecisionSearch>(p.buffers, threads);
      p.lb = p.search->lower_bound();
    } else {
      Problem piece_problem;
      piece_problem.buffers = p.buffers;
      p.lb = LiveBytesLowerBound(piece_problem);
    }
    p.proven_lb = p.lb;
    p.g = g;
    pieces.push_back(std::move(p));
  }
  Bytes lb = 0;
  for (const Piece& p : pieces) lb = std::max(lb, p.lb);
  result.lower_bound = lb;
  // Every piece's bound before any search: one over the capacity settles it.
  if (capacity > 0 && lb > capacity) {
    result.lower_bound = lb;
    return finish(PlanStatus::kInfeasible);
  }
  const Bytes limit = capacity > 0 ? capacity : kMaxTotal;
  // Seed: the best-fit portfolio over the whole problem (scales to 100k buffers), and on pieces
  // small enough for its O(n^2 log n) our own first-fit orders; the lower of the two per piece.
  // The portfolio costs tens of ms on a few hundred buffers: skipped under sub-second limits
  // when our own seed can run.
  std::vector<Offset> seed;
  const bool use_best_fit = buffers.size() > kOwnSeedMaxBuffers || limit_s >= 1.0;
  PlannerOptions seed_options;
  seed_options.cancel = options.cancel;
  // Under work time the portfolio runs whole: its work is not search nodes, and a wall-clock
  // share would make the seed, and so the search, depend on the machine.
  seed_options.time_limit_seconds = options.work_time ? 0 : std::max(kMinSeedSeconds, clock.remaining() * kSeedShare);
  if (auto bf = use_best_fit ? PlanBestFit(problem, seed_options) : Result<PlanResult>(Internal("skipped")); bf.ok()) {
    seed = std::move(bf->plan.offsets);
  }
  for (Piece& p : pieces) {
    if (!seed.empty()) {
      for (size_t i : p.index) p.best.push_back(seed[i]);
      p.best_h = HeightOf(p.buffers, p.best);
    }
    // Our own first-fit orders seed the exact search; a piece without one keeps the portfolio's.
    // Without any plan the first order runs whatever the clock says: there is always a plan.
    if (!p.too_dense && p.buffers.size() <= kOwnSeedMaxBuffers && (p.best.empty() || p.best_h > p.lb) &&
        (clock.remaining() > 0 || p.best.empty())) {
      std::vector<Offset> own = GreedySeed(p.buffers, [&clock] { return clock.remaining() <= 0; });
      const Bytes own_h = HeightOf(p.buffers, own);
      if (p.best.empty() || own_h < p.best_h) {
        p.best = std::move(own);
        p.best_h = own_h;
      }
    }
    if (p.best_h > limit) p.best.clear();
    // A piece its seed already packs at the bound needs no search: on problems of many pieces
    // (300k disjoint buffers) building and freeing one per piece took seconds.
    if (p.search == nullptr && !p.too_dense && (p.best.empty() || p.best_h > p.lb) && clock.remaining() > 0 &&
        !clock.Cancelled()) {
      p.search = std::make_unique<DecisionSearch>(p.buffers, threads);
    }
  }
  const Reporter report{options.progress, pieces, start, lb};
  const optimal_internal::Heartbeat beat = [&report](int64_t run_nodes) { report(run_nodes); };
  if (options.progress) clock.heartbeat = &beat;
  report();
  RaiseByWindows(pieces, g, options.minimize ? 0 : capacity, clock);
  // Largest bound first: its height becomes the floor the other pieces need not go below.
  std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.lb > b.lb; });

  if (!options.minimize) {
    for (const Piece& p : pieces) {
      if (p.proven_lb > capacity) {  // refuted by a window
        result.lower_bound = p.proven_lb;
        return finish(PlanStatus::kInfeasible);
      }
    }
    for (Piece& p : pieces) {
      if (!p.best.empty()) continue;
      const Outcome r = DecideWithin(p, capacity, clock);
      if (r == Outcome::kNotFound) {
        result.lower_bound = std::max(lb, p.proven_lb);  // > capacity: proven
        return finish(PlanStatus::kInfeasible);
      }
      if (r == Outcome::kBudget) return SearchNotRun(capacity, p, clock);
      if (r == Outcome::kTimeout) {
        return Status(ErrorCode::kDeadlineExceeded, "no plan within capacity " + std::to_string(capacity) +
                                                        " found in " + std::to_string(limit_s) +
                                                        " s, and none refuted");
      }
      if (r == Outcome::kCancelled) {
        return Status(ErrorCode::kCancelled,
                      "cancelled before a plan within capacity " + std::to_string(capacity) + " was found");
      }
    }
  } else {
    Bytes floor = lb;
    for (Piece& p : pieces) {
      if (p.search != nullptr) {
        MinimiseHeight(p, floor, g, limit, clock,
                       [&](Bytes height, Clock::time_point deadline) { return Probe(p, height, deadline, clock); });
      }
      if (!p.best.empty()) floor = std::max(floor, p.best_h);
      if (p.best.empty() && p.proven_lb > limit) {
        result.lower_bound = std::max(lb, p.proven_lb);  // > capacity: proven
        return finish(PlanStatus::kInfeasible);
      }
    }
    for (Piece& p : pieces) {
      if (!p.best.empty()) continue;
      if (p.search == nullptr) return SearchNotRun(capacity, p, clock);
      if (clock.Cancelled()) {
        return Status(ErrorCode::kCancelled,
                      "cancelled before a plan within capacity " + std::to_string(capacity) + " was found");
      }
      return Status(ErrorCode::kDeadlineExceeded, "no plan within capacity " + std::to_string(capacity) + " found in " +
                                                      std::to_string(limit_s) + " s, and none refuted");
    }
  }

  result.plan.offsets.assign(buffers.size(), 0);
  Bytes proven = lb;
  for (Piece& p : pieces) {
    for (size_t k = 0; k < p.index.size(); ++k) result.plan.offsets[p.index[k]] = p.best[k];
    proven = std::max(proven, p.proven_lb);
    if (p.search != nullptr) result.nodes += p.search->nodes();
  }
  result.plan.height = HeightOf(buffers, result.plan.offsets);
  // A NOT_FOUND proof at h says the optimum is > h, hence >= the next multiple of g.
  proven = (proven + g - 1) / g * g;
  result.lower_bound = std::min(proven, result.plan.height);
  return finish(proven >= result.plan.height ? PlanStatus::kOptimal : PlanStatus::kFeasible);
}

}  // namespace arenaplan::plan
