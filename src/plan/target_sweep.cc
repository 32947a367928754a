#include "plan/target_sweep.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "plan/optimal_search.h"
#include "plan/placement.h"
#include "plan/search_model.h"

namespace arenaplan::plan {
namespace {

using Clock = std::chrono::steady_clock;

// A window's exact search stores its time-overlapping pairs and section entries: windows above
// this many ints are left to the sweep (as in peak anchoring).
constexpr uint64_t kMaxWindowInts = uint64_t{1} << 25;
// How far a window reaches beyond its hot steps, in median lifetimes: enough for the buffers
// alive at the hot steps to be packed together with those they meet just before and after.
constexpr double kReachLifetimes = 1.5;
// One window's search may use this share of the time left (windows with 2 % of slack settle in
// milliseconds; one that does not is left to the sweep rather than eat the time of the others).
constexpr double kWindowTimeShare = 0.25;
// How far back the sweep lifts recent buffers when one does not fit, in median lifetimes.
constexpr double kLiftLifetimes[] = {0.125, 0.25, 0.5, 1, 2};
// TargetSweeps' schedule: the first target's excess over the bound, and the hot shares per target.
// Measured on random 100k-buffer problems: 2 % is met by most, and a failing hot share is usually
// rescued by a lower one (more of the timeline packed exactly).
constexpr double kFirstExcess = 0.02;
constexpr double kHotShares[] = {0.93, 0.88, 0.83};
// A sweep's setup (sorting the steps, bucketing every buffer) takes about 0.6 us per buffer and
// cannot stop midway: with less time left than this per buffer, no sweep starts (it would overrun
// the deadline, by about half a second at 1M buffers).
constexpr auto kSetupPerBuffer = std::chrono::nanoseconds(1000);
// Loops over every buffer read the clock this often (a read costs about as much as a short step).
constexpr uint32_t kClockEvery = 64;

class Sweep {
 public:
  Sweep(const Problem& problem, const TargetSweepOptions& options, TargetSweepStats* stats)
      : b_(problem.buffers), opt_(options), st_(*stats), n_(b_.size()) {}

  Plan Run() {
    const optimal_internal::Sections sec = optimal_internal::BuildSections(b_);
    points_ = sec.points;
    sb_ = sec.span_begin;
    se_ = sec.span_end;
    sections_ = sec.num_sections;
    unit_ = MedianLifetime(b_);
    // Buckets of about one median lifetime, counted in sections.
    width_ = static_cast<int>(std::clamp<int64_t>(
        sections_ / std::max<int64_t>(1, (points_.empty() ? 1 : StepsBetween(points_.front(), points_.back())) / unit_),
        1, std::max(1, sections_)));
    const int nb = sections_ / width_ + 1;
    placed_index_.assign(nb, {});
    all_index_.assign(nb, {});
    off_.assign(n_, kUnfixed);
    indexed_.assign(n_, 0);
    anchored_.assign(n_, 0);
    stamp_.assign(n_, 0);
    if (Stopped()) return {};  // each setup phase is O(n log n): seconds at 1M buffers
    for (uint32_t i = 0; i < n_; ++i) {
      // A buffer is listed in every bucket its lifetime touches: on traces with long-lived buffers
      // and short median lifetimes (IOPDDL S: 16k buckets) this loop alone takes half a second.
      if (i % kClockEvery == 0 && Stopped()) return {};
      AddTo(&all_index_, i);
      if (!b_[i].fixed()) continue;
      if (b_[i].fixed_offset + b_[i].size > opt_.target) return {};  // no plan within the target
      Put(i, b_[i].fixed_offset);
      anchored_[i] = 1;
    }
    if (Stopped()) return {};
    PackHotWindows();
    if (Stopped()) return {};
    std::vector<uint32_t> order;
    for (uint32_t i = 0; i < n_; ++i) {
      if (off_[i] == kUnfixed) order.push_back(i);
    }
    std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
      if (b_[x].first != b_[y].first) return b_[x].first < b_[y].first;
      return b_[x].size != b_[y].size ? b_[x].size > b_[y].size : x < y;
    });
    for (size_t k = 0; k < order.size(); ++k) {
      if (Stopped()) return {};  // a clock read (~25 ns) is small beside a fit
      const uint32_t x = order[k];
      const Offset at = Fit(x);
      if (at != kUnfixed) {
        Put(x, at);
      } else if (!Repack(x)) {
        return {};
      }
    }
    Plan plan;
    plan.offsets = off_;
    for (size_t i = 0; i < n_; ++i) plan.height = std::max(plan.height, off_[i] + b_[i].size);
    return plan;
  }

 private:
  static Step SaturatingAdd(Step t, Step d) {
    if (d > 0 && t > std::numeric_limits<Step>::max() - d) return std::numeric_limits<Step>::max();
    if (d < 0 && t < std::numeric_limits<Step>::min() - d) return std::numeric_limits<Step>::min();
    return t + d;
  }
  // The section holding step t (clamped to the problem's sections).
  int SectionOf(Step t) const {
    const auto it = std::upper_bound(points_.begin(), points_.end(), t);
    return std::clamp(static_cast<int>(it - points_.begin()) - 1, 0, std::max(0, sections_ - 1));
  }
  bool Stopped() const {
    return Clock::now() >= opt_.deadline || (opt_.cancel != nullptr && opt_.cancel->load(std::memory_order_relaxed));
  }

  void AddTo(std::vector<std::vector<uint32_t>>* index, uint32_t i) const {
    for (int k = sb_[i] / width_; k <= (se_[i] - 1) / width_; ++k) (*index)[k].push_back(i);
  }
  void Put(uint32_t i, Offset at) {
    off_[i] = at;
    if (!indexed_[i]) AddTo(&placed_index_, i), indexed_[i] = 1;
  }
  // Calls f(y) once for every buffer of `index` meeting sections [lo, hi).
  template <typename F>
  void ForEachMeeting(const std::vector<std::vector<uint32_t>>& index, int lo, int hi, F f) {
    if (++cur_ == 0) std::fill(stamp_.begin(), stamp_.end(), 0), cur_ = 1;  // after 2^32 calls
    for (int k = lo / width_; k <= (hi - 1) / width_; ++k) {
      for (uint32_t y : index[k]) {
        if (stamp_[y] == cur_ || se_[y] <= lo || sb_[y] >= hi) continue;
        stamp_[y] = cur_;
        f(y);
      }
    }
  }

  // Best fit within the target among the placed buffers x meets; kUnfixed when no gap is wide
  // enough. Every placed buffer ends at or below the target, so every gap between them does too:
  // only the position above them all can miss it.
  Offset Fit(uint32_t x) {
    spans_.clear();
    ForEachMeeting(placed_index_, sb_[x], se_[x], [&](uint32_t y) {
      if (off_[y] != kUnfixed && y != x) spans_.push_back({off_[y], off_[y] + b_[y].size});
    });
    std::sort(spans_.begin(), spans_.end(), [](const Span& a, const Span& c) { return a.offset < c.offset; });
    const Offset at = BestFitOffset(spans_, b_[x].size, b_[x].alignment);
    return at + b_[x].size <= opt_.target ? at : kUnfixed;
  }

  // x fits nowhere: lift the buffers the sweep placed that started in the last R steps and put
  // them back with x under a few orders, for growing R. Restores them when nothing fits.
  bool Repack(uint32_t x) {
    for (double lifetimes : kLiftLifetimes) {
      const Step reach = std::max<Step>(1, static_cast<Step>(lifetimes * static_cast<double>(unit_)));
      const Step lo = SaturatingAdd(b_[x].first, -reach);
      std::vector<uint32_t> lifted;
      ForEachMeeting(placed_index_, SectionOf(lo), sb_[x] + 1, [&](uint32_t y) {
        if (off_[y] != kUnfixed && !anchored_[y] && b_[y].first >= lo) lifted.push_back(y);
      });
      const std::vector<uint32_t> before = lifted;
      std::vector<Offset> saved;
      for (uint32_t y : before) saved.push_back(off_[y]), off_[y] = kUnfixed;
      lifted.push_back(x);
      for (int rule = 0; rule < 3; ++rule) {
        std::sort(lifted.begin(), lifted.end(), [&](uint32_t p, uint32_t q) {
          const Buffer &a = b_[p], &c = b_[q];
          if (rule == 0 && a.size != c.size) return a.size > c.size;
          if (rule == 1 && a.first != c.first) return a.first < c.first;
          if (rule == 2) {
            const __int128 ap = static_cast<__int128>(a.size) * LifetimeSteps(a);
            const __int128 cp = static_cast<__int128>(c.size) * LifetimeSteps(c);
            if (ap != cp) return ap > cp;
          }
          return p < q;
        });
        size_t done = 0;
        for (; done < lifted.size() && !Stopped(); ++done) {
          const Offset at = Fit(lifted[done]);
          if (at == kUnfixed) break;
          Put(lifted[done], at);
        }
        if (done == lifted.size()) {
          ++st_.repacks;
          return true;
        }
        for (uint32_t y : lifted) off_[y] = kUnfixed;
      }
      for (size_t k = 0; k < before.size(); ++k) off_[before[k]] = saved[k];
      if (Stopped()) return false;
    }
    return false;
  }

  // The hot windows, busiest first, each packed exactly within the target around what is placed.
  void PackHotWindows() {
    std::vector<Bytes> live(static_cast<size_t>(sections_) + 1, 0);
    for (size_t i = 0; i < n_; ++i) live[sb_[i]] += b_[i].size, live[se_[i]] -= b_[i].size;
    for (int s = 1; s <= sections_; ++s) live[s] += live[s - 1];
    const double hot = opt_.hot_share * static_cast<double>(opt_.target);
    const Step reach = static_cast<Step>(kReachLifetimes * static_cast<double>(unit_));
    struct Window {
      Step lo, hi;
      Bytes peak;
    };
    std::vector<Window> windows;
    for (int s = 0; s < sections_; ++s) {
      if (static_cast<double>(live[s]) < hot) continue;
      const Step first = points_[s], last = points_[s + 1] - 1;
      if (!windows.empty() && (first <= windows.back().hi || StepsBetween(windows.back().hi, first) <= reach)) {
        windows.back().hi = SaturatingAdd(last, reach);
        windows.back().peak = std::max(windows.back().peak, live[s]);
      } else {
        windows.push_back({SaturatingAdd(first, -reach), SaturatingAdd(last, reach), live[s]});
      }
    }
    std::stable_sort(windows.begin(), windows.end(), [](const Window& a, const Window& c) { return a.peak > c.peak; });
    st_.windows += static_cast<int>(windows.size());
    for (const Window& w : windows) {
      if (Stopped()) return;
      std::vector<uint32_t> members;
      std::vector<Buffer> sub;
      int lo = sections_, hi = 0;
      ForEachMeeting(all_index_, SectionOf(w.lo), SectionOf(w.hi) + 1, [&](uint32_t y) {
        if (off_[y] != kUnfixed || b_[y].last < w.lo || b_[y].first > w.hi) return;
        members.push_back(y);
        sub.push_back(b_[y]);
        lo = std::min(lo, sb_[y]);
        hi = std::max(hi, se_[y]);
      });
      if (members.empty()) continue;
      ForEachMeeting(placed_index_, lo, hi, [&](uint32_t y) {
        if (off_[y] == kUnfixed) return;
        Buffer wall = b_[y];
        wall.fixed_offset = off_[y];
        sub.push_back(wall);
      });
      const uint64_t footprint = optimal_internal::SearchFootprint(sub);
      if (footprint > kMaxWindowInts || !optimal_internal::BuildEndsBefore(footprint, opt_.deadline)) continue;
      optimal_internal::DecisionSearch search(sub);
      std::vector<Offset> offsets;
      const auto until = optimal_internal::ShareOfTimeLeft(opt_.deadline, kWindowTimeShare);
      if (search.Decide(opt_.target, optimal_internal::Limits{until, opt_.cancel}, &offsets) !=
          optimal_internal::Outcome::kFound) {
        continue;
      }
      for (size_t k = 0; k < members.size(); ++k) {
        Put(members[k], offsets[k]);
        anchored_[members[k]] = 1;
      }
      ++st_.windows_packed;
    }
  }

  const std::vector<Buffer>& b_;
  const TargetSweepOptions& opt_;
  TargetSweepStats& st_;
  const size_t n_;
  std::vector<Step> points_;
  std::vector<int> sb_, se_;
  int sections_ = 0, width_ = 1;
  Step unit_ = 1;
  std::vector<std::vector<uint32_t>> placed_index_, all_index_;  // buffer ids per time bucket
  std::vector<Offset> off_;
  std::vector<uint8_t> indexed_, anchored_;
  std::vector<uint32_t> stamp_;
  uint32_t cur_ = 0;
  std::vector<Span> spans_;
};

}  // namespace

Plan SweepWithinTarget(const Problem& problem, const TargetSweepOptions& options, TargetSweepStats* stats) {
  TargetSweepStats local;
  if (problem.buffers.empty() || options.target <= 0) return {};
  return Sweep(problem, options, stats != nullptr ? stats : &local).Run();
}

Plan TargetSweeps(const Problem& problem, Bytes bound, Bytes ceiling, std::chrono::steady_clock::time_point deadline,
                  const std::atomic<bool>* cancel, TargetSweepStats* stats) {
  TargetSweepStats local;
  TargetSweepStats& st = stats != nullptr ? *stats : local;
  Plan best;
  if (bound <= 0) return best;
  double excess = kFirstExcess;
  bool met = false;
  const auto setup = kSetupPerBuffer * static_cast<int64_t>(problem.buffers.size());
  while (Clock::now() + setup < deadline && !(cancel != nullptr && cancel->load(std::memory_order_relaxed))) {
    const Bytes target = bound + static_cast<Bytes>(static_cast<double>(bound) * excess);
    if (target >= (best.offsets.empty() ? ceiling : best.height)) {  // met already: aim lower
      met = true;
      excess /= 2;
      if (static_cast<double>(bound) * excess < 1) break;
      continue;
    }
    ++st.targets;
    bool ok = false;
    for (double share : kHotShares) {
      TargetSweepOptions o;
      o.target = target;
      o.hot_share = share;
      o.deadline = deadline;
      o.cancel = cancel;
      ++st.sweeps;
      Plan p = SweepWithinTarget(problem, o, &st);
      if (!p.offsets.empty()) {
        best = std::move(p);
        ok = true;
        break;
      }
      if (Clock::now() + setup >= deadline) break;
    }
    if (ok) {
      met = true;
      excess /= 2;
      if (static_cast<double>(bound) * excess < 1) break;  // at the bound
    } else {
      if (met) break;  // the last target met is as low as this schedule goes
      excess *= 2;
      if (excess > 1) break;
    }
  }
  return best;
}

}  // namespace arenaplan::plan
