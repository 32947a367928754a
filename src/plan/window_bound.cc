#include "plan/window_bound.h"

#include <algorithm>

#include "plan/optimal_search.h"

namespace arenaplan::plan::optimal_internal {
namespace {

bool Stopped(const Limits& limits) { return limits.Cancelled() || limits.Expired(); }

struct Window {
  int a, e;  // sections [a, e)
  size_t inside;
};

// Lists the closed windows with 2..max_inside buffers inside whose peak live bytes reach `height`
// (those found before `limits` stop it).
std::vector<Window> TightClosedWindows(const Sections& sec, Bytes height, size_t max_inside, const Limits& limits) {
  const int S = sec.num_sections;
  const int n = static_cast<int>(sec.span_begin.size());
  // Per boundary t: the earliest end and the latest start among buffers spanning sections t-1, t.
  // O(sum of spans), which the search's memory budget (SearchFootprint) keeps linear.
  std::vector<int> min_end(S + 1, S), max_begin(S + 1, -1);
  for (int i = 0; i < n; ++i) {
    for (int t = sec.span_begin[i] + 1; t < sec.span_end[i]; ++t) {
      min_end[t] = std::min(min_end[t], sec.span_end[i]);
      max_begin[t] = std::max(max_begin[t], sec.span_begin[i]);
    }
  }
  // Per end: the buffers' first sections, latest first, so that a window [a, e) counts the
  // buffers ending at e inside it (and among them, last, the walls starting at a) without
  // visiting the others.
  std::vector<std::vector<int>> begins(S + 1);
  for (int i = 0; i < n; ++i) begins[sec.span_end[i]].push_back(sec.span_begin[i]);
  for (std::vector<int>& b : begins) std::sort(b.rbegin(), b.rend());
  std::vector<Window> out;
  for (int a = 0; a < S; ++a) {
    if (a % 1024 == 0 && Stopped(limits)) break;
    // inside(e) = buffers with span in [a, e), minus those spanning exactly [a, e) (walls).
    size_t inside = 0;
    Bytes peak = 0;
    for (int e = a + 1; e <= min_end[a] && e <= S; ++e) {
      size_t walls = 0;  // spanning exactly [a, e)
      for (int b : begins[e]) {
        if (b < a) break;
        ++inside;
        walls += b == a;
      }
      peak = std::max(peak, sec.online_load[e - 1]);
      const size_t k = inside - walls;
      if (k > max_inside) break;  // k only grows with e
      if (max_begin[e] > a || (a == 0 && e == S)) continue;
      if (k >= 2 && peak >= height) out.push_back({a, e, k});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Window& x, const Window& y) { return x.inside < y.inside; });
  return out;
}

}  // namespace

WindowRefutation RefuteByWindows(const std::vector<Buffer>& buffers, Bytes height, const Limits& limits,
                                 size_t max_inside) {
  WindowRefutation result;
  const Sections sec = BuildSections(buffers);
  for (const Window& w : TightClosedWindows(sec, height, max_inside, limits)) {
    if (Stopped(limits)) break;
    std::vector<Buffer> inside;
    Bytes walls = 0;
    for (size_t i = 0; i < buffers.size(); ++i) {
      const int b = sec.span_begin[i], e = sec.span_end[i];
      if (b <= w.a && e >= w.e)
        walls += buffers[i].size;
      else if (b >= w.a && e <= w.e)
        inside.push_back(buffers[i]);
    }
    if (walls >= height) continue;
    DecisionSearch search(inside);
    std::vector<Offset> offsets;
    // One window may not eat the time of the others.
    const TimePoint now = limits.now();
    Limits one = limits;
    one.deadline = std::min(limits.deadline, now + std::max<std::chrono::steady_clock::duration>(
                                                       std::chrono::milliseconds(1), (limits.deadline - now) / 20));
    const Outcome r = search.Decide(height - walls, one, &offsets);
    result.nodes += search.nodes();
    if (r == Outcome::kNotFound) {
      result.refuted = true;
      result.first = sec.points[w.a];
      result.last = sec.points[w.e] - 1;
      result.inside = inside.size();
      return result;
    }
  }
  return result;
}

}  // namespace arenaplan::plan::optimal_internal
