// Filling the free space of a nearly tight problem with "filler" buffers (internal to the optimal
// planner): a packing with a little slack is often a perfect packing with a few rectangles taken
// out (or with room left on top), and with those rectangles put back as buffers the block stage
// glues and packs it like a perfect packing; a plan of the filled problem, fillers dropped, is a
// plan of the problem.
//
// The rectangles are not known, only the free profile: capacity minus live bytes per section, in
// units of g. Each rectangle starts where the profile steps up and ends where it steps down, so a
// set of fillers is a way to explain every step of the profile by rectangles starting and ending
// there. The plainest explanation (each step up opens one rectangle, each step down closes one
// open rectangle of exactly its height) is tried first; then those with more coincidences (several
// rectangles closing at one step, one closing where another opens, a rectangle closed in part,
// meaning two began together), in increasing number of them. Measured on packing_bench's slack
// packings (600-800 buffers, seeds 0-4), the construction's own holes are among the first 17 sets.
//
// A wrong set only costs time: fillers that fit nowhere make the filled problem infeasible,
// and any plan of the filled problem is a plan of the problem.
#pragma once

#include <cstdint>
#include <vector>

#include "plan/problem.h"

namespace arenaplan::plan::optimal_internal {

// Up to `max_sets` filler sets for `buffers` under `capacity` (every size and the filled height a
// multiple of g; the capacity's remainder above a multiple of g is left free), plainest first.
// Each filler has alignment 1 and spans whole sections. Empty when the profile is flat at zero
// (nothing to fill). At most `max_nodes` enumeration steps (the number taken added to *nodes).
// O(max_nodes x open fillers^3).
std::vector<std::vector<Buffer>> FillerSets(const std::vector<Buffer>& buffers, Bytes capacity, Bytes g,
                                            size_t max_sets, int64_t max_nodes, int64_t* nodes = nullptr);

}  // namespace arenaplan::plan::optimal_internal
