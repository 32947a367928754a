#include "plan/take_apart.h"

#include <algorithm>
#include <initializer_list>
#include <utility>

#include "plan/skyline_search.h"

namespace arenaplan::plan::optimal_internal {
namespace {

// Node budget that must refute the glued problem before anything is taken apart.
constexpr int64_t kRefuteNodes = 100000;
// A probe with one block taken apart gets this many times the nodes of that refutation, at least
// kProbeNodesMin: ranking needs the refutation to finish (measured on the packing benchmark: the
// wrong glues' refutations took up to 14x the first). A pair only needs to find the plan: a right
// pair did within 8x the first refutation (625-6,660 nodes), so pairs get kPairFactor.
constexpr int64_t kProbeFactor = 20;
constexpr int64_t kPairFactor = 2;
constexpr int64_t kProbeNodesMin = 20000;
// Pairs are drawn from this many of the likeliest wrong glues.
constexpr size_t kPairRanks = 12;

bool Final(Outcome r) { return r == Outcome::kFound || r == Outcome::kTimeout || r == Outcome::kCancelled; }

struct Prober {
  const std::vector<Buffer>& buffers;
  const std::vector<Block>& glued;
  Bytes capacity;
  const Limits& limits;
  std::vector<Offset>* offsets;
  int64_t* total;

  // Skyline runs with the blocks in `apart` taken apart into their members, one per cell rule in
  // turn while the budget (each run's own) is spent; `nodes` counts them all. kNotFound refutes
  // this glueing, never the buffers.
  Outcome Run(const std::vector<size_t>& apart, int64_t budget, int64_t* nodes,
              std::initializer_list<SkylineCell> cells = {SkylineCell::kFewest}) {
    const std::vector<Block> blocks = TakenApart(buffers, glued, apart);
    SkylineSearch sky(BlockBuffers(blocks));
    std::vector<Offset> at;
    Outcome r = Outcome::kBudget;
    for (auto cell = cells.begin(); cell != cells.end() && r == Outcome::kBudget; ++cell) {
      SkylineOrder order;
      order.cell = *cell;
      r = sky.Run(capacity, order, budget, limits, &at);
    }
    *nodes = sky.nodes();
    *total += sky.nodes();
    if (r == Outcome::kFound) *offsets = PlaceMembers(blocks, at, buffers.size());
    return r;
  }
};

}  // namespace

Outcome TakeApart(const std::vector<Buffer>& buffers, const std::vector<Block>& glued, Bytes capacity,
                  const Limits& limits, std::vector<Offset>* offsets, int64_t* nodes) {
  if (!SkylineSearch::Applicable(buffers)) return Outcome::kBudget;
  Prober probe{buffers, glued, capacity, limits, offsets, nodes};
  int64_t base = 0;
  Outcome r = probe.Run({}, kRefuteNodes, &base);
  if (r != Outcome::kNotFound) return Final(r) ? r : Outcome::kBudget;
  int64_t budget = std::max(kProbeFactor * base, kProbeNodesMin);
  std::vector<std::pair<int64_t, size_t>> rank;  // nodes of the refutation without the block, block
  for (size_t k = 0; k < glued.size(); ++k) {
    if (glued[k].members.size() < 2) continue;
    int64_t used = 0;
    r = probe.Run({k}, budget, &used);
    if (Final(r)) return r;
    if (r == Outcome::kNotFound) rank.emplace_back(used, k);
  }
  std::stable_sort(rank.begin(), rank.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  const size_t top = std::min(rank.size(), kPairRanks);
  budget = std::max(kPairFactor * base, kProbeNodesMin);
  // Pairs (i, j), i < j < top, by increasing i + j.
  for (size_t sum = 1; sum + 2 < 2 * top; ++sum) {
    for (size_t i = sum >= top ? sum - top + 1 : 0; 2 * i < sum; ++i) {
      int64_t used = 0;
      r = probe.Run({rank[i].second, rank[sum - i].second}, budget, &used,
                    {SkylineCell::kFewest, SkylineCell::kLowestValley});
      if (Final(r)) return r;
    }
  }
  return Outcome::kBudget;
}

}  // namespace arenaplan::plan::optimal_internal
