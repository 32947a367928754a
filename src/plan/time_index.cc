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
  // Ranks of the distinct steps from one sort of (step, endpoint) pairs: no search per endpoint.
  const size_t n = problem.buffers.size();
  std::vector<std::pair<Step, uint32_t>> ends;  // endpoint 2i: buffer i's first step, 2i + 1: last
  ends.reserve(2 * n);
  sizes_.reserve(n);
  for (const Buffer& b : problem.buffers) {
    ends.push_back({b.first, static_cast<uint32_t>(ends.size())});
    ends.push_back({b.last, static_cast<uint32_t>(ends.size())});
    sizes_.push_back(b.size);
  }
  std::sort(ends.begin(), ends.end());
  first_rank_.resize(n);
  last_rank_.resize(n);
  size_t distinct = 0;
  for (size_t e = 0; e < ends.size(); ++e) {
    if (e > 0 && ends[e].first != ends[e - 1].first) ++distinct;
    (ends[e].second % 2 == 0 ? first_rank_ : last_rank_)[ends[e].second / 2] = static_cast<uint32_t>(distinct);
  }
  const size_t steps = ends.empty() ? 0 : distinct + 1;
  while (leaves_ < steps) leaves_ *= 2;
  size_t longest = 1;
  for (size_t i = 0; i < n; ++i) longest = std::max<size_t>(longest, last_rank_[i] - first_rank_[i] + 1);
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
  const size_t buckets = std::max<size_t>(1, (steps + bucket_width_ - 1) / bucket_width_);
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
  thread_local std::vector<const std::vector<Span>*> lists;
  TreeLists(index, &lists);
  for (const std::vector<Span>* v : lists) out->insert(out->end(), v->begin(), v->end());
}

void TimeIndex::TreeLists(size_t index, std::vector<const std::vector<Span>*>* lists) const {
  lists->clear();
  auto add = [lists](const std::vector<Span>& v) {
    if (!v.empty()) lists->push_back(&v);
  };
  const size_t first = first_rank_[index];
  for (size_t node = first + leaves_; node >= 1; node /= 2) add(alive_[node]);
  for (size_t lo = first + 1 + leaves_, hi = last_rank_[index] + leaves_ + 1; lo < hi; lo /= 2, hi /= 2) {
    if (lo & 1) add(starting_[lo++]);
    if (hi & 1) add(starting_[--hi]);
  }
}

// Every node's list is sorted already: merging the O(log T) lists pairwise, O(m log k) for m
// ranges in k lists, instead of sorting them all, halved TFLM's greedy plan on the 62k-buffer
// IOPDDL Y trace (the sort was 40 % of it).
void TimeIndex::SortedFromTree(size_t index, std::vector<Span>* out) const {
  thread_local std::vector<const std::vector<Span>*> lists;
  TreeLists(index, &lists);
  if (lists.size() <= 1) {
    out->assign(lists.empty() ? nullptr : lists[0]->data(),
                lists.empty() ? nullptr : lists[0]->data() + lists[0]->size());
    return;
  }
  // Runs laid end to end in one buffer, then merged in passes into the other: bottom-up merge sort
  // that starts from the lists instead of from single elements.
  thread_local std::vector<size_t> bounds, next_bounds;
  thread_local std::vector<Span> other;
  bounds.assign(1, 0);
  for (const std::vector<Span>* v : lists) {
    out->insert(out->end(), v->begin(), v->end());
    bounds.push_back(out->size());
  }
  other.resize(out->size());
  auto by_offset = [](const Span& a, const Span& b) { return a.offset < b.offset; };
  while (bounds.size() > 2) {
    next_bounds.assign(1, 0);
    for (size_t r = 0; r + 1 < bounds.size(); r += 2) {
      const size_t mid = bounds[r + 1], end = r + 2 < bounds.size() ? bounds[r + 2] : mid;
      std::merge(out->begin() + static_cast<std::ptrdiff_t>(bounds[r]), out->begin() + static_cast<std::ptrdiff_t>(mid),
                 out->begin() + static_cast<std::ptrdiff_t>(mid), out->begin() + static_cast<std::ptrdiff_t>(end),
                 other.begin() + static_cast<std::ptrdiff_t>(bounds[r]), by_offset);
      next_bounds.push_back(end);
    }
    out->swap(other);
    bounds.swap(next_bounds);
  }
}

void TimeIndex::SortedOccupied(size_t index, std::vector<Span>* out) const {
  out->clear();
  const uint32_t lo = first_rank_[index], hi = last_rank_[index], b0 = lo / bucket_width_;
  const uint32_t b1 = hi / bucket_width_;
  auto by_offset = [](const Span& a, const Span& b) { return a.offset < b.offset; };
  if (layout_ != Layout::kBuckets) {
    SortedFromTree(index, out);
    return;
  }
  if (b1 - b0 > 3) {
    Occupied(index, out);
    std::sort(out->begin(), out->end(), by_offset);
    return;
  }
  // Filter each bucket (already in offset order) into its own run, then merge the runs. A bucket
  // after the first reports only entries starting in it (the first reports all that overlap).
  // Filter and merge are branch-free: whether an entry overlaps, and which run is lower, are coin
  // tosses a branch would mispredict half the time. The scratch only grows (no zero-filling).
  thread_local std::vector<Span> scratch[2];
  const auto grow = [](std::vector<Span>& v, size_t n) {
    if (v.size() < n) v.resize(std::max(n, 2 * v.size()));
  };
  size_t len = 0;  // merged so far, at the front of scratch[0]
  for (uint32_t b = b0; b <= b1; ++b) {
    const uint32_t from = b == b0 ? 0 : b * bucket_width_;
    const std::vector<Entry>& bucket = buckets_[b];
    grow(scratch[0], len + bucket.size());
    grow(scratch[1], len + bucket.size());
    Span* run = scratch[0].data() + len;
    size_t kept = 0;
    for (const Entry& e : bucket) {
      run[kept] = {e.offset, e.end};
      kept += static_cast<size_t>((e.first <= hi) & (e.last >= lo) & (e.first >= from));
    }
    if (b == b0) {
      len = kept;
      continue;
    }
    const Span* x = scratch[0].data();
    const Span *xe = x + len, *y = run, *ye = run + kept;
    Span* w = scratch[1].data();
    while (x != xe && y != ye) {
      const bool take_y = y->offset < x->offset;
      *w++ = take_y ? *y : *x;
      y += take_y;
      x += !take_y;
    }
    w = std::copy(x, xe, w);
    std::copy(y, ye, w);
    scratch[0].swap(scratch[1]);
    len += kept;
  }
  out->assign(scratch[0].begin(), scratch[0].begin() + static_cast<std::ptrdiff_t>(len));
}

}  // namespace arenaplan::plan
