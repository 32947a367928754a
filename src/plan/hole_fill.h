// Filling the free space of a nearly tight problem with "filler" buffers (internal to the optimal
// planner): a packing with a little slack is often a perfect packing with a few rectangles taken
// out (or with room left on top), and with those rectangles put back as buffers the block stage
// glues and packs it like a perfect packing; a plan of the filled problem, fillers dropped, is a
// plan of the problem.
//
// The rectangles are not known, only the free profile: capacity minus live bytes per section, in
// units of g. Each rectangle starts where the profile steps up and ends where it steps down, so a
// set of fillers is a way to explain every step of the profile by rectangles starting and ending
// there. Where the profile is zero no filler is open, so the profile splits there into segments
// explained independently: each segment's ways are listed, and a filler set picks one per
// segment (listing whole sets instead multiplies the segments' ways: packing_bench's slack-600-s17
// and slack-800-s17 had the construction's holes beyond the first 200 sets). Within a segment the
// plainest explanation (each step up opens one rectangle, each step down closes one open
// rectangle of exactly its height) comes first; then those with more coincidences (several
// rectangles closing at one step, one closing where another opens, a rectangle closed in part,
// meaning two began together), in increasing number of them.
//
// A wrong set only costs time: fillers that fit nowhere make the filled problem infeasible,
// and any plan of the filled problem is a plan of the problem.
#pragma once

#include <cstdint>
#include <vector>

#include "plan/problem.h"

namespace arenaplan::plan::optimal_internal {

using Fillers = std::vector<Buffer>;

// A stretch of time where the profile is above zero, and ways to fill it, plainest first.
struct FillerSegment {
  Step first = 0, last = 0;
  std::vector<Fillers> ways;
};

// For `buffers` under `capacity` (every size and the filled height a multiple of g; the
// capacity's remainder above a multiple of g is left free), each segment of the free profile (in
// time order) with up to `max_per_segment` ways to fill it. Each filler has alignment 1 and spans
// whole sections. Empty when the profile is flat at zero (nothing to fill) or the load exceeds
// the capacity. At most `max_nodes` enumeration steps in all (the number taken added to *nodes).
// O(max_nodes x open fillers^3).
std::vector<FillerSegment> FillerChoices(const std::vector<Buffer>& buffers, Bytes capacity, Bytes g,
                                         size_t max_per_segment, int64_t max_nodes, int64_t* nodes = nullptr);

// Up to `count` picks (one index per list of `scores`) in increasing order of their scores' sum,
// each pick once; among equal sums, picks of lower indices first. Lists must not be empty.
// O(count x lists x log).
std::vector<std::vector<size_t>> LowestPicks(const std::vector<std::vector<int64_t>>& scores, size_t count);

}  // namespace arenaplan::plan::optimal_internal
