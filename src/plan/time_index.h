// Which bytes are taken, at some step of a buffer's lifetime, by the buffers placed so far: the
// query at the heart of every gap-search planner. A segment tree over the problem's distinct steps
// keeps, per node, the UNION of address ranges (sorted, disjoint, touching ranges merged) of
//   * alive:    placed buffers whose lifetime canonically covers the node (O(log T) nodes each),
//               so a root-to-leaf walk at step s sees every placed buffer alive at s;
//   * starting: placed buffers whose first step lies in the node (its O(log T) ancestors), so the
//               canonical nodes of a step range see every placed buffer starting inside it.
// A buffer [f, l] meets exactly the placed buffers alive at f plus those starting in (f, l].
// Keeping unions instead of buffer lists is what makes dense traces fast: thousands of placed
// buffers packed side by side collapse into a few ranges. The free gaps of the returned ranges are
// exactly the free gaps among the time-overlapping placed buffers, which is all first fit (TFLM's
// walk included) and best fit look at.
// Insert O(log T * (log m + m)), query O(log T * m) for m ranges per node (m << buffers in
// practice; m <= buffers always).
// A second layout suits problems of short lifetimes over a long time (few buffers alive at once,
// whose unions seldom collapse): time cut into buckets of B steps, each holding the placed buffers
// that touch it, in offset order; a query scans the buckets of the buffer's lifetime and keeps the
// entries sharing a step with it, each reported once (from the later of the two first buckets);
// the sorted query merges the buckets. Insert O(l / B * e), query O(entries in l / B + 2 buckets),
// all in contiguous memory. kAuto takes the buckets when
// the expected entries per query stay small (kBucketScanLimit), else the tree.
#pragma once

#include <cstdint>
#include <vector>

#include "plan/problem.h"

namespace arenaplan::plan {

struct Span {
  Offset offset;
  Offset end;  // exclusive
};

class TimeIndex {
 public:
  enum class Layout { kAuto, kUnionTree, kBuckets };
  explicit TimeIndex(const Problem& problem, Layout layout = Layout::kAuto);
  Layout layout() const { return layout_; }

  // Forgets every placed buffer (keeps the allocations for the next run).
  void Clear();
  // Marks buffer `index` as placed at [offset, offset + size).
  void Insert(size_t index, Offset offset);
  // Appends ranges whose union is exactly the bytes used by placed buffers sharing a step with
  // buffer `index`. Unsorted; ranges may overlap.
  void Occupied(size_t index, std::vector<Span>* out) const;
  // The same ranges in ascending offset order (replaces *out).
  void SortedOccupied(size_t index, std::vector<Span>* out) const;

 private:
  // The union tree's non-empty lists a query of buffer `index` reads: the alive lists on its first
  // step's root path and the starting lists covering its later steps.
  void TreeLists(size_t index, std::vector<const std::vector<Span>*>* lists) const;
  void SortedFromTree(size_t index, std::vector<Span>* out) const;

  struct Entry {
    Offset offset, end;
    uint32_t first, last;  // ranks
  };
  Layout layout_ = Layout::kUnionTree;
  uint32_t bucket_width_ = 1;
  std::vector<std::vector<Entry>> buckets_;
  size_t leaves_ = 1;
  size_t widest_start_node_ = 1;  // leaves under the widest node a query can ever read
  std::vector<Bytes> sizes_;
  std::vector<uint32_t> first_rank_, last_rank_;  // per buffer, index of its steps among distinct steps
  std::vector<std::vector<Span>> alive_;
  std::vector<std::vector<Span>> starting_;
};

}  // namespace arenaplan::plan
