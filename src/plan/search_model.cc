#include "plan/search_model.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <utility>

namespace arenaplan::plan::optimal_internal {

const char* OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kFound: return "found";
    case Outcome::kNotFound: return "not-found";
    case Outcome::kBudget: return "budget";
    case Outcome::kTimeout: return "timeout";
    case Outcome::kCancelled: return "cancelled";
  }
  return "?";
}

Sections BuildSections(const std::vector<Buffer>& buffers) {
  Sections s;
  const size_t n = buffers.size();
  s.points.reserve(2 * n);
  for (const Buffer& b : buffers) {
    s.points.push_back(b.first);
    s.points.push_back(b.last + 1);
  }
  std::sort(s.points.begin(), s.points.end());
  s.points.erase(std::unique(s.points.begin(), s.points.end()), s.points.end());
  s.num_sections = s.points.empty() ? 0 : static_cast<int>(s.points.size()) - 1;
  s.span_begin.resize(n);
  s.span_end.resize(n);
  s.online_load.assign(s.num_sections, 0);
  auto index = [&](Step t) {
    return static_cast<int>(std::lower_bound(s.points.begin(), s.points.end(), t) - s.points.begin());
  };
  std::vector<Bytes> delta(s.num_sections + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    s.span_begin[i] = index(buffers[i].first);
    s.span_end[i] = index(buffers[i].last + 1);
    if (buffers[i].fixed()) continue;
    delta[s.span_begin[i]] += buffers[i].size;
    delta[s.span_end[i]] -= buffers[i].size;
  }
  Bytes live = 0;
  for (int k = 0; k < s.num_sections; ++k) s.online_load[k] = live += delta[k];
  return s;
}

namespace {
std::pair<Step, Step> Span(const std::vector<Buffer>& buffers) {
  Step first = std::numeric_limits<Step>::max(), last = std::numeric_limits<Step>::min();
  for (const Buffer& b : buffers) first = std::min(first, b.first), last = std::max(last, b.last);
  return {first, last};
}
}  // namespace

bool CanMirrorInTime(const std::vector<Buffer>& buffers) {
  const auto [first, last] = Span(buffers);
  Step length = 0;
  return !buffers.empty() && !__builtin_sub_overflow(last, first, &length);
}

std::vector<Buffer> MirroredInTime(std::vector<Buffer> buffers) {
  const auto [first, last] = Span(buffers);
  // first + (last - t): last - t lies in [0, last - first], which fits (CanMirrorInTime).
  for (Buffer& b : buffers) {
    const Step from = b.first;
    b.first = first + (last - b.last);
    b.last = first + (last - from);
  }
  return buffers;
}

uint64_t SearchFootprint(const std::vector<Buffer>& b) {
  const size_t n = b.size();
  std::vector<Step> firsts(n), lasts(n), points;
  points.reserve(2 * n);
  for (size_t i = 0; i < n; ++i) {
    firsts[i] = b[i].first;
    lasts[i] = b[i].last;
    points.push_back(b[i].first);
    points.push_back(b[i].last + 1);
  }
  std::sort(firsts.begin(), firsts.end());
  std::sort(lasts.begin(), lasts.end());
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  uint64_t ints = 0;
  for (size_t k = 0; k < n; ++k) {
    // Pairs: buffers starting before this one (in sorted order) that are still alive at its start.
    const auto ended = std::lower_bound(lasts.begin(), lasts.end(), firsts[k]) - lasts.begin();
    ints += 2 * (k - static_cast<uint64_t>(std::min<std::ptrdiff_t>(ended, static_cast<std::ptrdiff_t>(k))));
  }
  for (const Buffer& x : b) {
    const auto from = std::lower_bound(points.begin(), points.end(), x.first);
    const auto to = std::lower_bound(points.begin(), points.end(), x.last + 1);
    ints += static_cast<uint64_t>(to - from);
  }
  return ints;
}

}  // namespace arenaplan::plan::optimal_internal
