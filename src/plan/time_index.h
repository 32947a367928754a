// Which already-placed buffers share a time step with a given buffer: the query at the heart of
// every gap-search planner. A segment tree over the problem's distinct steps holds each placed
// buffer twice: in the O(log T) canonical nodes covering its lifetime (so a root-to-leaf walk at
// step s finds every placed buffer alive at s) and in the O(log T) ancestors of its first step's
// leaf (so the canonical nodes of a step range find every placed buffer starting inside it).
// A buffer [f, l] meets exactly the placed buffers alive at f plus those starting in (f, l], each
// reported once. Insert O(log T), query O(log T + k) for k reported buffers.
#pragma once

#include <cstdint>
#include <vector>

#include "plan/problem.h"

namespace arenaplan::plan {

class TimeIndex {
 public:
  explicit TimeIndex(const Problem& problem);

  // Forgets every placed buffer (keeps the allocations for the next run).
  void Clear();
  // Marks buffer `index` as placed.
  void Insert(size_t index);
  // Appends to `out` every placed buffer whose lifetime shares a step with buffer `index`.
  void Overlapping(size_t index, std::vector<uint32_t>* out) const;

 private:
  size_t leaves_ = 1;
  std::vector<uint32_t> first_rank_, last_rank_;  // per buffer, index of its steps among distinct steps
  std::vector<std::vector<uint32_t>> alive_;       // canonical cover of each placed lifetime
  std::vector<std::vector<uint32_t>> starting_;    // ancestors of each placed first step
};

}  // namespace arenaplan::plan
