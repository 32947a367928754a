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
  explicit TimeIndex(const Problem& problem);

  // Forgets every placed buffer (keeps the allocations for the next run).
  void Clear();
  // Marks buffer `index` as placed at [offset, offset + size).
  void Insert(size_t index, Offset offset);
  // Appends ranges whose union is exactly the bytes used by placed buffers sharing a step with
  // buffer `index`. Unsorted; ranges may overlap.
  void Occupied(size_t index, std::vector<Span>* out) const;

 private:
  size_t leaves_ = 1;
  size_t widest_start_node_ = 1;  // leaves under the widest node a query can ever read
  std::vector<Bytes> sizes_;
  std::vector<uint32_t> first_rank_, last_rank_;  // per buffer, index of its steps among distinct steps
  std::vector<std::vector<Span>> alive_;
  std::vector<std::vector<Span>> starting_;
};

}  // namespace arenaplan::plan
