// Seeded zero-slack packing problems: the hardest kind of instance for an exact planner, where the
// capacity equals the live-bytes lower bound and the packing has to be perfect.
//
// Construction: a square of side 2^20 (time x address) on a grid of 1024 is cut recursively into
// rectangles until `buffers` pieces exist; each piece becomes a buffer (lifetime = its time extent,
// size = its address extent), and the buffers are shuffled. A cut is either a guillotine cut (one
// straight line across a piece, in time or in address) or, with probability `pinwheel_share` when
// the piece is at least 3 x 3 cells, a pinwheel: four pieces wound round a centre piece, which no
// straight line separates. The piece to cut is drawn with probability proportional to its area.
//   kPerfect: the square itself; capacity 2^20 = the lower bound; feasible.
//   kSlack:   then random pieces removed until `slack` of the area is free; capacity 2^20; feasible.
//   kHeadroom: the square under a capacity `slack` above 2^20 (rounded down to the grid); feasible,
//             and the lower bound (2^20) is below the capacity: the other reading of "2 % slack".
//   kGadget:  the square's top cut is a pinwheel whose centre (a time window W times an address band
//             of height g) holds a small random pattern of buffers with constant live bytes g on W
//             that is proven by exhaustive search not to fit in g; no later cut crosses W in time
//             outside the centre, so every other buffer alive in W is alive throughout W. Live bytes
//             are 2^20 at every step (lower bound = capacity), yet nothing fits: during W the buffers
//             alive throughout W sit still, and squeezing out the addresses they take turns any plan
//             into a plan of the pattern within g.
// Cost O(buffers^2) (area-weighted draws); the gadget search is bounded and deterministic per seed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "plan/problem.h"

namespace arenaplan::plan {

enum class PackingVariant { kPerfect, kSlack, kGadget, kHeadroom };
const char* PackingVariantName(PackingVariant variant);

struct PackingOptions {
  size_t buffers = 300;         // pieces cut (kSlack: before removal); >= 1 (kGadget: >= 32)
  double pinwheel_share = 0.2;  // probability that a cut is a pinwheel (if the piece allows one)
  PackingVariant variant = PackingVariant::kPerfect;
  double slack = 0.02;  // kSlack: share of the square's area removed; kHeadroom: capacity above 2^20
  uint64_t seed = 0;
};

struct PackingInstance {
  Problem problem;              // capacity = 2^20 (kHeadroom: more)
  bool feasible = true;         // by construction (kGadget: false)
  std::vector<Offset> packing;  // feasible: the construction's plan, within the capacity
  int guillotine_cuts = 0;
  int pinwheel_cuts = 0;
  // kGadget: the window's steps [first, last] and the pattern's buffer indices (for tests).
  Step window_first = 0, window_last = 0;
  std::vector<size_t> gadget;
  std::vector<Buffer> removed;  // kSlack: the pieces taken out (the holes of `packing`; for tests)
};

inline constexpr Bytes kPackingSide = Bytes{1} << 20;
inline constexpr Bytes kPackingGrid = 1024;

PackingInstance MakePackingProblem(const PackingOptions& options);

// packing_bench's instances by name, <variant>-<buffers>-p<pinwheel %>-s<seed>
// (perfect-800-p20-s19), so that its tables, the probes and the tests name the same instances.
// Seed k of a (variant, buffers, pinwheel share) class: the generator's seed is
// 1000003 buffers + 101 pinwheel % + 7 variant + k. Seeds of different variants overlap (perfect
// s(k + 21) is headroom s(k)); kept, as the README's seed tables rely on it.
PackingOptions PackingBenchOptions(PackingVariant variant, size_t buffers, double pinwheel_share, int seed);
std::string PackingBenchName(const PackingOptions& options, int seed);
// The options of a name as PackingBenchName writes it ("-s<seed>" may be left out: seed 0);
// nothing for anything else.
std::optional<PackingOptions> ParsePackingBenchName(const std::string& name);

}  // namespace arenaplan::plan
