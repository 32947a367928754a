#include "report/timeline.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>

namespace arenaplan::report {
namespace {

// One unit for a whole axis (chosen from its largest value) so that labels line up.
struct Unit {
  double divisor;
  const char* suffix;
};

Unit UnitFor(int64_t largest) {
  if (largest >= 10 * 1024 * 1024) return {1048576.0, "M"};
  if (largest >= 10 * 1024) return {1024.0, "K"};
  return {1.0, ""};
}

std::string HumanBytes(int64_t b, Unit u) {
  char buf[32];
  if (u.divisor == 1.0)
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(b));
  else
    std::snprintf(buf, sizeof buf, "%.1f%s", b / u.divisor, u.suffix);
  return buf;
}

}  // namespace

std::string RenderTimeline(const plan::Problem& problem, const plan::Plan& plan, const std::vector<std::string>& labels,
                           const TimelineOptions& options) {
  const auto& bufs = problem.buffers;
  if (bufs.empty() || plan.height <= 0) return "(no planned buffers)\n";
  plan::Step t0 = bufs[0].first, t1 = bufs[0].last;
  for (const auto& b : bufs) {
    t0 = std::min(t0, b.first);
    t1 = std::max(t1, b.last);
  }
  const int64_t steps = t1 - t0 + 1;
  const int cols = static_cast<int>(std::min<int64_t>(steps, std::max(8, options.width)));
  const int rows = std::max(4, options.rows);
  const double height = static_cast<double>(plan.height);

  // Letters for the 26 buffers with the largest area (size x lifetime).
  std::vector<size_t> order(bufs.size());
  std::iota(order.begin(), order.end(), 0);
  auto area = [&](size_t i) { return static_cast<double>(bufs[i].size) * (bufs[i].last - bufs[i].first + 1); };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return area(a) > area(b); });
  std::vector<char> glyph(bufs.size(), '+');
  for (size_t k = 0; k < order.size() && k < 26; ++k) glyph[order[k]] = static_cast<char>('A' + k);

  // For each cell, the buffer covering most of it: bucket c spans steps [c*steps/cols, (c+1)*steps/cols).
  auto col_of = [&](plan::Step t) { return static_cast<int>((t - t0) * cols / steps); };
  std::vector<std::vector<double>> best(rows, std::vector<double>(cols, 0.0));
  std::vector<std::string> grid(rows, std::string(cols, '.'));
  for (size_t i = 0; i < bufs.size(); ++i) {
    const double lo = static_cast<double>(plan.offsets[i]), hi = lo + bufs[i].size;
    const int c0 = col_of(bufs[i].first), c1 = col_of(bufs[i].last);
    const int r0 = std::max(0, static_cast<int>(lo / height * rows));
    const int r1 = std::min(rows - 1, static_cast<int>((hi - 1) / height * rows));
    for (int r = r0; r <= r1; ++r) {
      const double band_lo = r * height / rows, band_hi = (r + 1) * height / rows;
      const double cover = std::min(hi, band_hi) - std::max(lo, band_lo);
      for (int c = c0; c <= c1; ++c) {
        if (cover > best[r][c]) {
          best[r][c] = cover;
          grid[r][c] = glyph[i];
        }
      }
    }
  }

  // Live bytes per column (max over the steps in the bucket) to mark the peak.
  std::map<plan::Step, int64_t> delta;
  for (const auto& b : bufs) {
    delta[b.first] += b.size;
    delta[b.last + 1] -= b.size;
  }
  std::vector<int64_t> live_col(cols, 0);
  int64_t live = 0, peak = 0;
  auto it = delta.begin();
  for (plan::Step t = t0; t <= t1; ++t) {
    // Jump over quiet stretches: live only changes at delta points.
    while (it != delta.end() && it->first <= t) {
      live += it->second;
      ++it;
    }
    const int c = col_of(t);
    live_col[c] = std::max(live_col[c], live);
    peak = std::max(peak, live);
    if (it != delta.end() && it->first > t + 1) {
      const plan::Step next = std::min<plan::Step>(it->first - 1, t1);
      for (int cc = c; cc <= col_of(next); ++cc) live_col[cc] = std::max(live_col[cc], live);
      t = next;
    }
  }

  const Unit unit = UnitFor(plan.height);
  std::string out;
  char line[160];
  std::snprintf(line, sizeof line, "address (%s per row) down, time across (steps %lld..%lld, %s per column)\n",
                HumanBytes(static_cast<int64_t>(height / rows + 0.5), unit).c_str(), static_cast<long long>(t0),
                static_cast<long long>(t1),
                steps == cols ? "1 step" : (std::to_string((steps + cols - 1) / cols) + " steps").c_str());
  out += line;
  for (int r = 0; r < rows; ++r) {
    std::snprintf(line, sizeof line, "%9s |", HumanBytes(static_cast<int64_t>(r * height / rows), unit).c_str());
    out += line;
    out += grid[r];
    out += "|\n";
  }
  std::snprintf(line, sizeof line, "%9s +", HumanBytes(plan.height, unit).c_str());
  out += line + std::string(cols, '-') + "+\n";
  std::string marks(cols, ' ');
  for (int c = 0; c < cols; ++c)
    if (live_col[c] == peak) marks[c] = '^';
  out += "     peak  " + marks + "  live peak " + HumanBytes(peak, unit) + "\n";
  out += "legend (largest size x lifetime first):\n";
  for (size_t k = 0; k < order.size() && k < 26; ++k) {
    const size_t i = order[k];
    std::snprintf(line, sizeof line, "  %c %-28.28s %9lld B  [%lld, %lld] @ %lld\n", glyph[i],
                  i < labels.size() ? labels[i].c_str() : "", static_cast<long long>(bufs[i].size),
                  static_cast<long long>(bufs[i].first), static_cast<long long>(bufs[i].last),
                  static_cast<long long>(plan.offsets[i]));
    out += line;
  }
  if (order.size() > 26) out += "  + " + std::to_string(order.size() - 26) + " smaller buffers\n";
  return out;
}

}  // namespace arenaplan::report
