#include "plan/peak_anchor.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "plan/optimal_search.h"
#include "plan/placement.h"
#include "plan/search_model.h"

namespace arenaplan::plan {
namespace {

// A window's exact search stores its time-overlapping pairs and section entries: at most this
// many ints (128 MiB of them). The 3,812-buffer window that settles IOPDDL S needs 16.6 M, and
// the whole process then peaks at about 400 MB (the search keeps further copies per stage).
constexpr uint64_t kMaxWindowInts = uint64_t{1} << 25;
// One window's exact search may use this share of the time left; the rest is for the fill and
// for the caller. A window that times out ends the anchoring: a larger one would take longer.
// The first window gets less: on the traces anchoring settles it packs in milliseconds (their
// larger windows need the time: IOPDDL S's third, 1.3 s), while on evenly loaded problems it does
// not pack at all, and the time is the next stages' (best's target sweeps).
constexpr double kWindowSearchShare = 0.75;
constexpr double kFirstWindowSearchShare = 0.3;
// Steps beyond this span are not windowed (keeps centre +- reach inside int64).
constexpr Step kMaxHorizon = Step{1} << 61;

using Clock = std::chrono::steady_clock;

// The fill around the window: TFLM's order and walk (size descending, later buffers first among
// equals; first fit), which meets the bound around both traces' windows where the other best-fit
// orders miss it. Stoppable (no plan when stopped), so the caller's time limit holds.
Plan Fill(const Problem& anchored, const StopFn& stop) {
  const auto& b = anchored.buffers;
  std::vector<uint32_t> order = OnlineBuffers(anchored);
  std::sort(order.begin(), order.end(),
            [&](uint32_t x, uint32_t y) { return b[x].size != b[y].size ? b[x].size > b[y].size : x > y; });
  TimeIndex index(anchored);
  return PlaceInOrder(anchored, order, GapRule::kFirstFit, &index, stop);
}

// The step with the most bytes alive (the first such), by a sweep over lifetime ends. O(n log n).
Step BusiestStep(const std::vector<Buffer>& b) {
  std::vector<std::pair<Step, Bytes>> events;
  events.reserve(2 * b.size());
  for (const Buffer& x : b) {
    events.emplace_back(x.first, x.size);
    events.emplace_back(x.last + 1, -x.size);
  }
  std::sort(events.begin(), events.end());
  Bytes live = 0, most = -1;
  Step at = b.empty() ? 0 : b[0].first;
  for (size_t k = 0; k < events.size();) {
    const Step step = events[k].first;
    for (; k < events.size() && events[k].first == step; ++k) live += events[k].second;
    if (live > most) most = live, at = step;
  }
  return at;
}

// Buffers alive somewhere in [lo, hi], from the sorted first and last steps. O(log n).
size_t AliveIn(const std::vector<Step>& firsts, const std::vector<Step>& lasts, Step lo, Step hi) {
  const size_t ended = static_cast<size_t>(std::lower_bound(lasts.begin(), lasts.end(), lo) - lasts.begin());
  const size_t later = static_cast<size_t>(firsts.end() - std::upper_bound(firsts.begin(), firsts.end(), hi));
  return firsts.size() - ended - later;
}

}  // namespace

Plan AnchorPeak(const Problem& problem, Plan plan, const AnchorOptions& options, AnchorStats* stats) {
  AnchorStats local;
  AnchorStats& st = stats != nullptr ? *stats : local;
  const auto& b = problem.buffers;
  const size_t n = b.size();
  if (n == 0 || plan.height <= options.target) return plan;
  std::vector<Step> firsts, lasts;
  firsts.reserve(n);
  lasts.reserve(n);
  for (const Buffer& x : b) firsts.push_back(x.first), lasts.push_back(x.last);
  std::sort(firsts.begin(), firsts.end());
  std::sort(lasts.begin(), lasts.end());
  // Sections need last + 1; huge spans are left alone (see kMaxHorizon).
  if (lasts.back() == std::numeric_limits<Step>::max() || firsts.front() < -kMaxHorizon || lasts.back() > kMaxHorizon) {
    return plan;
  }
  const Step centre = BusiestStep(b);
  const Step reach_max = std::max(centre - firsts.front(), lasts.back() - centre);
  const StopFn stop = [&] {
    return Clock::now() >= options.deadline || (options.cancel != nullptr && options.cancel->load());
  };
  Step last_h = -1;
  int searched = 0;  // windows searched by this call
  for (size_t want = std::max<size_t>(options.min_window, 1); want < n && !stop();
       want += std::max<size_t>(1, want / 4)) {
    // The narrowest window [centre - h, centre + h] holding at least `want` buffers.
    Step lo_h = 0, hi_h = reach_max;
    while (lo_h < hi_h) {
      const Step mid = lo_h + (hi_h - lo_h) / 2;
      if (AliveIn(firsts, lasts, centre - mid, centre + mid) >= want) {
        hi_h = mid;
      } else {
        lo_h = mid + 1;
      }
    }
    if (lo_h == last_h) continue;  // the same window as the last one
    last_h = lo_h;
    const Step lo = centre - lo_h, hi = centre + lo_h;
    std::vector<Buffer> window;
    std::vector<size_t> members;
    for (size_t i = 0; i < n; ++i) {
      if (b[i].last < lo || b[i].first > hi) continue;
      Buffer cut = b[i];
      cut.first = std::max(cut.first, lo);
      cut.last = std::min(cut.last, hi);
      window.push_back(cut);
      members.push_back(i);
    }
    if (members.size() >= n) break;  // the whole problem: the exact planner's, not a window's
    // Fixed buffers outside the window that share a step with a member's full lifetime: in its
    // way for the whole window (stricter than needed, never wrong; but then a failure proves
    // nothing).
    bool stricter = false;
    Step reach_lo = lo, reach_hi = hi;
    for (size_t i : members) reach_lo = std::min(reach_lo, b[i].first), reach_hi = std::max(reach_hi, b[i].last);
    for (size_t i = 0; i < n; ++i) {
      if (!b[i].fixed() || b[i].last < reach_lo || b[i].first > reach_hi || !(b[i].last < lo || b[i].first > hi)) {
        continue;
      }
      Buffer wall = b[i];
      wall.first = lo;
      wall.last = hi;
      window.push_back(wall);
      stricter = true;
    }
    const uint64_t footprint = optimal_internal::SearchFootprint(window);
    // Larger windows only grow.
    if (footprint > kMaxWindowInts || !optimal_internal::BuildEndsBefore(footprint, options.deadline)) break;
    ++st.windows;
    ++searched;
    optimal_internal::DecisionSearch search(window);
    std::vector<Offset> offsets;
    const auto until = optimal_internal::ShareOfTimeLeft(options.deadline,
                                                         searched == 1 ? kFirstWindowSearchShare : kWindowSearchShare);
    const optimal_internal::Outcome r = search.Decide(options.target, optimal_internal::Limits{until, options.cancel},
                                                      &offsets);
    if (r == optimal_internal::Outcome::kNotFound) {
      st.refuted = !stricter;  // every larger window holds this one: none fits either
      break;
    }
    if (r != optimal_internal::Outcome::kFound) break;  // out of time: a larger window takes longer
    Problem anchored = problem;
    anchored.capacity = 0;
    for (size_t k = 0; k < members.size(); ++k) anchored.buffers[members[k]].fixed_offset = offsets[k];
    Plan filled = Fill(anchored, stop);
    if (!filled.offsets.empty() && filled.height < plan.height) {
      plan = std::move(filled);
      st.anchored = members.size();
      if (plan.height <= options.target) break;
    }
  }
  return plan;
}

}  // namespace arenaplan::plan
