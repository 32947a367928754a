#include "plan/peak_repair.h"

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <random>

#include "plan/optimal_search.h"
#include "plan/placement.h"

namespace arenaplan::plan {
namespace {

// Neighbourhood limits: buffers freed per move, and how far the window may reach beyond the peak
// buffer's lifetime (in median lifetimes).
constexpr size_t kMinFreed = 24, kMaxFreed = 1500;
constexpr double kMinReach = 1, kMaxReach = 64;
constexpr double kGrow = 1.5;  // after a failed move
// The exact move (when greedy re-insertion fails) on neighbourhoods up to this size, each under
// this much time: enough for a few hundred buffers of a tight band.
constexpr size_t kMaxExactFreed = 200;
constexpr auto kExactMoveTime = std::chrono::milliseconds(50);
constexpr auto kReportEvery = std::chrono::duration<double>(kProgressInterval);

// One move's sub-problem: the freed buffers (online, first) and every other buffer sharing a step
// with them, fixed where the plan has it.
struct Neighbourhood {
  std::vector<size_t> freed;  // global indices
  Problem sub;                // freed first, then the obstacles
};

Neighbourhood Collect(const Problem& problem, const Plan& plan, size_t peak, Step reach, size_t max_freed,
                      std::mt19937_64& rng) {
  const auto& b = problem.buffers;
  const Step lo = b[peak].first - std::uniform_int_distribution<Step>(0, reach)(rng);
  const Step hi = b[peak].last + std::uniform_int_distribution<Step>(0, reach)(rng);
  std::vector<size_t> inside;
  for (size_t i = 0; i < b.size(); ++i) {
    if (!b[i].fixed() && b[i].last >= lo && b[i].first <= hi) inside.push_back(i);
  }
  auto top = [&](size_t i) { return plan.offsets[i] + b[i].size; };
  if (inside.size() > max_freed) {  // the highest ones (the peak buffer is among them)
    std::nth_element(inside.begin(), inside.begin() + max_freed, inside.end(),
                     [&](size_t x, size_t y) { return top(x) > top(y); });
    inside.resize(max_freed);
  }
  Neighbourhood nb;
  nb.freed = inside;
  Step first = b[peak].first, last = b[peak].last;
  std::vector<uint8_t> is_freed(b.size(), 0);
  for (size_t i : inside) {
    is_freed[i] = 1;
    first = std::min(first, b[i].first);
    last = std::max(last, b[i].last);
    nb.sub.buffers.push_back(b[i]);
  }
  for (size_t i = 0; i < b.size(); ++i) {
    if (is_freed[i] || b[i].last < first || b[i].first > last) continue;
    Buffer obstacle = b[i];
    obstacle.fixed_offset = plan.offsets[i];
    nb.sub.buffers.push_back(obstacle);
  }
  return nb;
}

// Re-inserts the freed buffers (sub-problem indices 0..k-1) under a few orders; returns the offsets
// of the one with the lowest highest top (ties: fewest at it), and that top and count.
std::vector<Offset> Reinsert(const Neighbourhood& nb, std::mt19937_64& rng, const StopFn& stop, Bytes* best_top,
                             size_t* best_count) {
  const size_t k = nb.freed.size();
  const auto& sb = nb.sub.buffers;
  TimeIndex index(nb.sub);
  std::vector<uint32_t> order(k);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return sb[x].size > sb[y].size; });
  std::vector<Offset> best;
  for (int attempt = 0; attempt < 4; ++attempt) {
    if (attempt >= 2) std::shuffle(order.begin(), order.end(), rng);
    const Plan p = PlaceInOrder(nb.sub, order, attempt == 1 ? GapRule::kBestFit : GapRule::kFirstFit, &index, stop);
    if (p.offsets.empty()) break;  // stopped
    Bytes top = 0;
    size_t count = 0;
    for (size_t i = 0; i < k; ++i) top = std::max(top, p.offsets[i] + sb[i].size);
    for (size_t i = 0; i < k; ++i) count += p.offsets[i] + sb[i].size == top;
    if (best.empty() || top < *best_top || (top == *best_top && count < *best_count)) {
      best.assign(p.offsets.begin(), p.offsets.begin() + static_cast<ptrdiff_t>(k));
      *best_top = top;
      *best_count = count;
    }
  }
  return best;
}

// The exact move: the freed buffers and only the obstacles reaching into their band [low, height)
// (low = the lowest freed offset), over a solid floor [0, low) across their span (any plan that
// keeps the freed buffers above `low` is a plan); then the decision search at height - 1 under
// the time given. Returns the freed buffers' offsets, or nothing.
std::vector<Offset> ExactReinsert(const Problem& problem, const Plan& plan, const Neighbourhood& nb,
                                  std::chrono::steady_clock::time_point deadline, const std::atomic<bool>* cancel) {
  const auto& b = problem.buffers;
  const size_t k = nb.freed.size();
  Offset low = plan.height;
  Step first = b[nb.freed[0]].first, last = b[nb.freed[0]].last;
  for (size_t i : nb.freed) {
    low = std::min(low, plan.offsets[i]);
    first = std::min(first, b[i].first);
    last = std::max(last, b[i].last);
  }
  std::vector<Buffer> sub(nb.sub.buffers.begin(), nb.sub.buffers.begin() + static_cast<ptrdiff_t>(k));
  for (size_t j = k; j < nb.sub.buffers.size(); ++j) {
    const Buffer& o = nb.sub.buffers[j];
    if (o.fixed_offset + o.size > low) sub.push_back(o);
  }
  if (low > 0) sub.push_back(Buffer{low, first, last, 0, 1});
  optimal_internal::DecisionSearch search(sub);
  std::vector<Offset> offsets;
  const optimal_internal::Outcome r = search.Decide(plan.height - 1, optimal_internal::Limits{deadline, cancel},
                                                    &offsets);
  if (r != optimal_internal::Outcome::kFound) return {};
  offsets.resize(k);
  return offsets;
}

}  // namespace

Plan RepairPeaks(const Problem& problem, Plan plan, const RepairOptions& options, RepairStats* stats) {
  const auto& b = problem.buffers;
  if (b.empty()) return plan;
  std::mt19937_64 rng(options.seed);
  const Step unit = MedianLifetime(b);
  double reach = kMinReach;
  size_t max_freed = kMinFreed;
  RepairStats local;
  RepairStats& st = stats != nullptr ? *stats : local;
  std::vector<size_t> peaks;
  auto last_report = std::chrono::steady_clock::now();
  const StopFn stop = [&] {
    return std::chrono::steady_clock::now() >= options.deadline ||
           (options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed));
  };
  // No move starts that would end past the deadline (judged by the longest one so far): a move
  // is not interruptible everywhere, and the caller's time limit must hold.
  std::chrono::steady_clock::duration longest{0};
  while (plan.height > options.target && std::chrono::steady_clock::now() + longest < options.deadline &&
         !(options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed))) {
    const auto move_start = std::chrono::steady_clock::now();
    peaks.clear();
    for (size_t i = 0; i < b.size(); ++i) {
      if (plan.offsets[i] + b[i].size == plan.height && !b[i].fixed()) peaks.push_back(i);
    }
    if (peaks.empty()) break;  // the height is a fixed buffer's: nothing to move
    if (options.progress && std::chrono::steady_clock::now() - last_report >= kReportEvery) {
      options.progress(plan);
      last_report = std::chrono::steady_clock::now();
    }
    const size_t peak = peaks[std::uniform_int_distribution<size_t>(0, peaks.size() - 1)(rng)];
    const Neighbourhood nb = Collect(problem, plan, peak, static_cast<Step>(reach * unit), max_freed, rng);
    size_t old_count = 0;
    for (size_t i : nb.freed) old_count += plan.offsets[i] + b[i].size == plan.height;
    Bytes top = 0;
    size_t count = 0;
    std::vector<Offset> offsets = Reinsert(nb, rng, stop, &top, &count);
    if (offsets.empty()) break;  // stopped
    if (!(top < plan.height || (top == plan.height && count < old_count)) && nb.freed.size() <= kMaxExactFreed) {
      const auto now = std::chrono::steady_clock::now();
      std::vector<Offset> exact = ExactReinsert(problem, plan, nb, std::min(options.deadline, now + kExactMoveTime),
                                                options.cancel);
      if (!exact.empty()) {
        offsets = std::move(exact);
        top = 0;
        for (size_t k = 0; k < nb.freed.size(); ++k) top = std::max(top, offsets[k] + b[nb.freed[k]].size);
      }
    }
    ++st.moves;
    longest = std::max(longest, std::chrono::steady_clock::now() - move_start);
    if (top < plan.height || (top == plan.height && count < old_count)) {
      for (size_t k = 0; k < nb.freed.size(); ++k) plan.offsets[nb.freed[k]] = offsets[k];
      const Bytes before = plan.height;
      plan.height = PlanHeight(problem, plan.offsets);
      if (plan.height < before && options.progress) {
        options.progress(plan);
        last_report = std::chrono::steady_clock::now();
      }
      ++st.kept;
      reach = kMinReach;
      max_freed = kMinFreed;
    } else {
      reach = reach * kGrow > kMaxReach ? kMinReach : reach * kGrow;
      max_freed = static_cast<size_t>(max_freed * kGrow) > kMaxFreed ? kMinFreed
                                                                     : static_cast<size_t>(max_freed * kGrow);
    }
  }
  return plan;
}

}  // namespace arenaplan::plan
