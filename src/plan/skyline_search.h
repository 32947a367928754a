// The perfect-packing search of the optimal planner: a complete decision search for tight problems
// (capacity at or near the live-bytes bound), where the gravity search (optimal_search.h) drowns in
// equivalent orders. Internal to the optimal planner.
//
// The arena is filled bottom-up as a skyline: per section, everything below its floor is decided
// (placed or wasted). The lowest floor f among sections with unplaced buffers, leftmost section s1,
// run [s1, s2] of sections at f: in every packing (dropped onto a grid of g = gcd of sizes) either a
// buffer has its bottom-left corner at (s1, f) — it then starts exactly at s1 and ends within the
// run — or the cell (s1, [f, f + g)) stays empty. The search branches on exactly these: which
// buffer starts there, else waste one cell (allowed only while the section's slack, capacity minus
// floor minus unplaced load, is at least g; with zero slack waste refutes the branch at once).
// Every other valley is such a choice too: the order's cell rule may branch on the cell, in any
// valley, that the fewest alternatives can cover (fail first: one alternative is a forced move).
// Pruning:
//  * valleys: a run of equal floors with higher (or finished) sections on both sides must have
//    its bottom row tiled exactly by unplaced buffers whose spans lie inside it (or by waste where
//    there is slack); checked by a reachability sweep over its sections after every move;
//  * symmetry: identical buffers (same span and size) in index order (a rule for two different
//    buffers of the same span stacked directly on each other is valid but not applied: measured on
//    the packing benchmark, it makes single runs slower to find a packing);
//  * decomposition: when no unplaced buffer crosses a section boundary, the two sides are solved
//    one after the other (one failing fails the node).
// Applicable without fixed buffers and when every alignment divides g. Cost per node
// O(sections + candidates + width of the valleys touched), under the kFewest rules O(sections + n)
// (every valley's buffers are counted); memory O(n + sections).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "plan/search_model.h"

namespace arenaplan::plan::optimal_internal {

// Where a run branches. Every valley's row must be covered, so any of its cells is a complete
// branching point; the rules differ in which one.
enum class SkylineCell {
  kLowestValley,      // the lowest valley's cell where its best-ranked piece begins
  kFewest,            // the cell of any valley with the fewest alternatives (ties: the lower valley)
  kFewestElseLowest,  // kFewest, unless the lowest valley has a cell with as few: then kLowestValley
};

// How one run orders and chooses.
struct SkylineOrder {
  std::string keys = "WAZ";  // static rank: descending by each key in turn (see RankBuffers)
  uint32_t seed = 0;         // != 0: a random nearby order
  SkylineCell cell = SkylineCell::kLowestValley;
};

class SkylineSearch {
 public:
  static bool Applicable(const std::vector<Buffer>& buffers);
  explicit SkylineSearch(const std::vector<Buffer>& buffers);
  ~SkylineSearch();
  SkylineSearch(const SkylineSearch&) = delete;
  SkylineSearch& operator=(const SkylineSearch&) = delete;

  // One run with the given order and a node budget (<= 0: unlimited). A path of more than 4096
  // decisions (placements and wasted cells) ends the run like a spent budget: the stack stays
  // bounded.
  Outcome Run(Bytes capacity, const SkylineOrder& order, int64_t node_budget, const Limits& limits,
              std::vector<Offset>* offsets);
  int64_t nodes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace arenaplan::plan::optimal_internal
