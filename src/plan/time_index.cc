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

// Expected entries a bucket query scans, above which the union tree is used: measured on the
// plan benchmark's classes (the tree wins on dense traces whose unions collapse).
constexpr double kBucketScanLimit = 512;

TimeIndex::TimeIndex(const Problem& problem, Layout layout) {
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
  auto rank = [&](Step s) {
    return static_cast<uint32_t>(std::lower_bound(steps.begin(), steps.end(), s) - steps.begin());
  };
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
  // Buckets as wide as the median lifetime: most buffers touch one or two.
  std::vector<uint32_t> lengths;
  lengths.reserve(first_rank_.size());
  for (size_t i = 0; i < first_rank_.size(); ++i) lengths.push_back(last_rank_[i] - first_rank_[i] + 1);
  if (!lengths.empty()) {
    std::nth_element(lengths.begin(), lengths.begin() + lengths.size() / 2, lengths.end());
    bucket_width_ = std::max<uint32_t>(16, lengths[lengths.size() / 2]);
  }
  const size_t buckets = std::max<size_t>(1, (steps.size() + bucket_width_ - 1) / bucket_width_);
  if (layout == Layout::kAuto) {
    double entries = 0, touched = 0;  // sum over buffers of buckets touched
    for (size_t i = 0; i < first_rank_.size(); ++i) {
      touched += last_rank_[i] / bucket_width_ - first_rank_[i] / bucket_width_ + 1;
    }
    entries = touched / static_cast<double>(buckets);  // per bucket, once all are placed
    const double per_query = first_rank_.empty() ? 0 : entries * touched / static_cast<double>(first_rank_.size());
    layout = per_query <= kBucketScanLimit ? Layout::kBuckets : Layout::kUnionTree;
  }
  layout_ = layout;
  if (layout_ == Layout::kBuckets) {
    buckets_.resize(buckets);
  } else {
    alive_.resize(2 * leaves_);
    starting_.resize(2 * leaves_);
  }
}

void TimeIndex::Clear() {
  for (auto& v : alive_) v.clear();
  for (auto& v : starting_) v.clear();
  for (auto& v : buckets_) v.clear();
}

void TimeIndex::Insert(size_t index, Offset offset) {
  const Span s{offset, offset + sizes_[index]};
  if (layout_ == Layout::kBuckets) {
    const Entry e{s.offset, s.end, first_rank_[index], last_rank_[index]};
    for (uint32_t b = e.first / bucket_width_; b <= e.last / bucket_width_; ++b) {
      std::vector<Entry>& v = buckets_[b];
      v.insert(std::upper_bound(v.begin(), v.end(), e.offset, [](Offset x, const Entry& y) { return x < y.offset; }),
               e);
    }
    return;
  }
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
  if (layout_ == Layout::kBuckets) {
    const uint32_t lo = first_rank_[index], hi = last_rank_[index], b0 = lo / bucket_width_;
    for (uint32_t b = b0; b <= hi / bucket_width_; ++b) {
      for (const Entry& e : buckets_[b]) {
        // Report once: from the later of the two first buckets.
        if (e.first > hi || e.last < lo || std::max(b0, e.first / bucket_width_) != b) continue;
        out->push_back({e.offset, e.end});
      }
    }
    return;
  }
  for (size_t node = first + leaves_; node >= 1; node /= 2) {
    out->insert(out->end(), alive_[node].begin(), alive_[node].end());
  }
  for (size_t lo = first + 1 + leaves_, hi = last_rank_[index] + leaves_ + 1; lo < hi; lo /= 2, hi /= 2) {
    if (lo & 1) {
      const auto& v = starting_[lo++];
      out->insert(out->end(), v.begin(), v.end());
    }
    if (hi & 1) {
      const auto& v = starting_[--hi];
      out->insert(out->end(), v.begin(), v.end());
    }
  }
}

void TimeIndex::SortedOccupied(size_t index, std::vector<Span>* out) const {
  out->clear();
  const uint32_t lo = first_rank_[index], hi = last_rank_[index], b0 = lo / bucket_width_;
  const uint32_t b1 = hi / bucket_width_;
  auto by_offset = [](const Span& a, const Span& b) { return a.offset < b.offset; };
  if (layout_ != Layout::kBuckets || b1 - b0 > 3) {
    Occupied(index, out);
    std::sort(out->begin(), out->end(), by_offset);
    return;
  }
  // Filter each bucket (already in offset order) into its own run, then merge the runs. A bucket
  // after the first reports only entries starting in it (the first reports all that overlap).
  thread_local std::vector<Span> runs[2];
  out->clear();
  for (uint32_t b = b0; b <= b1; ++b) {
    const uint32_t from = b == b0 ? 0 : b * bucket_width_;
    std::vector<Span>& run = b == b0 ? *out : runs[0];
    run.clear();
    for (const Entry& e : buckets_[b]) {
      if (e.first <= hi && e.last >= lo && e.first >= from) run.push_back({e.offset, e.end});
    }
    if (b == b0) continue;
    runs[1].resize(out->size() + run.size());
    std::merge(out->begin(), out->end(), run.begin(), run.end(), runs[1].begin(), by_offset);
    out->swap(runs[1]);
  }
}

}  // namespace arenaplan::plan
