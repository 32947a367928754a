#include "plan/time_index.h"

#include <algorithm>

namespace arenaplan::plan {
namespace {

// Adds `s` to a sorted list of disjoint, non-touching ranges, merging what it overlaps or touches.
void AddSpan(std::vector<Span>& v, Span s) {
  auto lo = std::lower_bound(v.begin(), v.end(), s.offset, [](const Span& a, Offset x) { return a.end < x; });
  auto hi = std::upper_bound(lo, v.end(), s.end, [](Offset x, const Span& a) { return x < a.offset; });
  if (lo == hi) {
    v.insert(lo, s);
    return;
  }
  s.offset = std::min(s.offset, lo->offset);
  s.end = std::max(s.end, (hi - 1)->end);
  *lo = s;
  v.erase(lo + 1, hi);
}

}  // namespace

TimeIndex::TimeIndex(const Problem& problem) {
  std::vector<Step> steps;
  steps.reserve(2 * problem.buffers.size());
  for (const Buffer& b : problem.buffers) {
    steps.push_back(b.first);
    steps.push_back(b.last);
    sizes_.push_back(b.size);
  }
  std::sort(steps.begin(), steps.end());
  steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
  while (leaves_ < steps.size()) leaves_ *= 2;
  auto rank = [&](Step s) { return static_cast<uint32_t>(std::lower_bound(steps.begin(), steps.end(), s) - steps.begin()); };
  first_rank_.reserve(problem.buffers.size());
  last_rank_.reserve(problem.buffers.size());
  size_t longest = 1;
  for (const Buffer& b : problem.buffers) {
    first_rank_.push_back(rank(b.first));
    last_rank_.push_back(rank(b.last));
    longest = std::max<size_t>(longest, last_rank_.back() - first_rank_.back() + 1);
  }
  // A step range of r ranks decomposes into nodes spanning at most r leaves, so starting-lists
  // of wider nodes are never read: skip them (they would be the largest to maintain).
  while (widest_start_node_ < longest) widest_start_node_ *= 2;
  alive_.resize(2 * leaves_);
  starting_.resize(2 * leaves_);
}

void TimeIndex::Clear() {
  for (auto& v : alive_) v.clear();
  for (auto& v : starting_) v.clear();
}

void TimeIndex::Insert(size_t index, Offset offset) {
  const Span s{offset, offset + sizes_[index]};
  for (size_t lo = first_rank_[index] + leaves_, hi = last_rank_[index] + leaves_ + 1; lo < hi; lo /= 2, hi /= 2) {
    if (lo & 1) AddSpan(alive_[lo++], s);
    if (hi & 1) AddSpan(alive_[--hi], s);
  }
  size_t width = 1;
  for (size_t node = first_rank_[index] + leaves_; node >= 1 && width <= widest_start_node_; node /= 2, width *= 2) {
    AddSpan(starting_[node], s);
  }
}

void TimeIndex::Occupied(size_t index, std::vector<Span>* out) const {
  const size_t first = first_rank_[index];
  for (size_t node = first + leaves_; node >= 1; node /= 2) {
    out->insert(out->end(), alive_[node].begin(), alive_[node].end());
  }
  for (size_t lo = first + 1 + leaves_, hi = last_rank_[index] + leaves_ + 1; lo < hi; lo /= 2, hi /= 2) {
    if (lo & 1) { const auto& v = starting_[lo++]; out->insert(out->end(), v.begin(), v.end()); }
    if (hi & 1) { const auto& v = starting_[--hi]; out->insert(out->end(), v.begin(), v.end()); }
  }
}

}  // namespace arenaplan::plan
