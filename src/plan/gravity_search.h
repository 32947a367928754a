// The gravity search of the optimal planner (internal), after MiniMalloc: a complete decision
// search over one time partition. Depth-first, each level places one more buffer; the branching
// choice is WHICH buffer goes next, and it goes at the lowest offset its placed time-neighbours
// allow ("gravity"). Complete because every packing can be dropped into such a form.
// Prunes: canonical sequences only (offsets non-decreasing, ties by static rank), dominance (skip
// a candidate that sits at or above some other buffer's lowest possible top), per-section floor +
// remaining load > capacity, "hatless" (a placement nothing can rest on is never undone by a
// sibling), valley rows (without fixed buffers, when alignments divide the gcd g of sizes: the
// bottom row of every valley of the floors must be coverable by buffers that can still sit
// exactly there, or by wasted cells where the slack allows), and dynamic decomposition: when a
// placement leaves no unplaced buffer across a section boundary, the groups on either side are
// solved one after the other, each with a fresh canonical order (optionally re-ranked by the
// remaining loads); one failing group fails the node.
// Memory O(n + S + E + L) (S sections, E time-overlapping pairs, L section live-set entries) plus
// 32 candidates per level; per node O(m + S + rescans) for a component of m buffers, and another
// O(m) per 32 candidates tried (they are collected in sorted batches).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "plan/search_model.h"

namespace arenaplan::plan::optimal_internal {

class GravitySearch {
 public:
  // The search recurses once per placement: a run whose path gets deeper stops as if its budget
  // were spent (kBudget: no answer, never a refutation), so that the stack stays bounded. A level
  // (a Dfs and a SolveSplit frame) takes about 220 bytes in a Release build and over 1 KiB under
  // ASan, where 4,096 levels overflowed a 4 MiB stack; the limit is the skyline search's.
  static constexpr int kMaxDepth = 4096;

  // Buffers must be valid (size > 0, first <= last, alignment > 0, fixed offsets aligned, >= 0).
  explicit GravitySearch(const std::vector<Buffer>& buffers);
  ~GravitySearch();
  GravitySearch(const GravitySearch&) = delete;
  GravitySearch& operator=(const GravitySearch&) = delete;

  // Proven bound: max over sections of online load + the largest fixed buffer live there, and
  // every fixed buffer's end.
  Bytes lower_bound() const;
  // One run with one static order (descending by each key in turn: W lifetime width, A area,
  // T busiest section, Z size, C sections spanned, O overlap count), split groups re-ranked by
  // their remaining loads or not, and a node budget (<= 0: unlimited).
  Outcome Run(Bytes capacity, const std::string& order, bool rerank, int64_t node_budget, const Limits& limits,
              std::vector<Offset>* offsets);
  int64_t nodes() const;  // over all runs so far

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace arenaplan::plan::optimal_internal
