#include "plan/time_index.h"

#include <algorithm>

namespace arenaplan::plan {

TimeIndex::TimeIndex(const Problem& problem) {
  std::vector<Step> steps;
  steps.reserve(2 * problem.buffers.size());
  for (const Buffer& b : problem.buffers) {
    steps.push_back(b.first);
    steps.push_back(b.last);
  }
  std::sort(steps.begin(), steps.end());
  steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
  while (leaves_ < steps.size()) leaves_ *= 2;
  auto rank = [&](Step s) { return static_cast<uint32_t>(std::lower_bound(steps.begin(), steps.end(), s) - steps.begin()); };
  first_rank_.reserve(problem.buffers.size());
  last_rank_.reserve(problem.buffers.size());
  for (const Buffer& b : problem.buffers) {
    first_rank_.push_back(rank(b.first));
    last_rank_.push_back(rank(b.last));
  }
  alive_.resize(2 * leaves_);
  starting_.resize(2 * leaves_);
}

void TimeIndex::Clear() {
  for (auto& v : alive_) v.clear();
  for (auto& v : starting_) v.clear();
}

void TimeIndex::Insert(size_t index) {
  const auto id = static_cast<uint32_t>(index);
  for (size_t lo = first_rank_[index] + leaves_, hi = last_rank_[index] + leaves_ + 1; lo < hi; lo /= 2, hi /= 2) {
    if (lo & 1) alive_[lo++].push_back(id);
    if (hi & 1) alive_[--hi].push_back(id);
  }
  for (size_t node = first_rank_[index] + leaves_; node >= 1; node /= 2) starting_[node].push_back(id);
}

void TimeIndex::Overlapping(size_t index, std::vector<uint32_t>* out) const {
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
