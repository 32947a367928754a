// The exact decision search over one time partition (internal to the optimal planner): a
// portfolio of the gravity search (gravity_search.h), the skyline search (skyline_search.h) and
// block reconstruction (block_merge.h), run with restarts.
//  1. Nearly full problems (skyline search applicable): the problem glued into blocks is searched
//     first under a node cap; then with its holes filled back (hole_fill.h) and glued cautiously
//     (stacks and chains only where a neighbour confirms them), the blocks searched as a problem
//     of their own (the cautious one first when no area is free, as there is nothing to fill);
//     then with blocks taken apart again, one at a time and in pairs (take_apart.h). On tight
//     capacities each step runs on the problem and then on its mirror image in time
//     (MirroredInTime), half the time each; with two threads on the wall clock the two directions
//     instead race through the whole portfolio at once, each with all the time, and the first
//     answer stops the other. A plan of the blocks is a plan; a failure there proves nothing.
//  2. Restarts on the buffers themselves in rounds with doubling node budgets (from 2n + 64):
//     each round runs six gravity variants (three static orders, split groups re-ranked or not)
//     and, on tight problems, three skyline orders (then seeded variants of them). The first complete run decides: a
//     plan, or a proof that none fits. Restarts cap the loss to one bad order at a small factor.
#pragma once

#include <memory>
#include <vector>

#include "plan/block_merge.h"
#include "plan/search_model.h"

namespace arenaplan::plan::optimal_internal {

// The block stage's glueing variants (block_merge.h rules; each glues some coincidental pairs the
// others avoid; measured on the packing benchmark, each solves instances the others do not),
// searched in this order.
inline constexpr int kGlueVariants[] = {
    kStacks | kChainPairs | kPinwheels | kChainsAfterStacks,
    kStacks | kChainPairs | kPinwheels,
    kStacks | kChainsWithEvidence | kPinwheels,
    kStacks | kChainPairs | kPinwheels | kStacksFirst,
    kChainsWithEvidence | kPinwheels,
};

// The cautious stage's glueing: stacks and chains only where another block confirms the
// rectangle, then pinwheels. Measured by glue_probe_bench on packing_bench's perfect 800-buffer
// packings (0, 10 and 20 % pinwheels, 40 seeds): 323-576 blocks, 0-6 of them not a rectangle of the
// generator's packing; the eager variants then glue those blocks into 1-129, 0-25 of them off.
inline constexpr int kCautiousRules = kStacksWithEvidence | kChainsWithEvidence | kPinwheels;

class DecisionSearch {
 public:
  // Buffers must be valid (size > 0, first <= last, alignment > 0, fixed offsets aligned, >= 0).
  // `threads` >= 2: tight decisions on the wall clock race the problem and its mirror image on two
  // threads (see Decide).
  explicit DecisionSearch(const std::vector<Buffer>& buffers, int threads = 1);
  ~DecisionSearch();
  DecisionSearch(const DecisionSearch&) = delete;
  DecisionSearch& operator=(const DecisionSearch&) = delete;

  // Proven bound: max over sections of online load + the largest fixed buffer live there, and
  // every fixed buffer's end.
  Bytes lower_bound() const;
  // Finds offsets with every buffer ending at or below `capacity`, or proves none exist.
  Outcome Decide(Bytes capacity, const Limits& limits, std::vector<Offset>* offsets);
  int64_t nodes() const;  // over all calls so far
  // Whether `capacity` leaves at most kTightFreeArea (5 %) of the area free and the skyline search
  // applies: a plan there is a near-perfect packing, which the block stage finds fast or never.
  bool Tight(Bytes capacity) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int threads_;
};

}  // namespace arenaplan::plan::optimal_internal
