// Block reconstruction for the optimal planner's search (internal): many hard instances are
// rectangles cut recursively (a time x address square cut by guillotine and pinwheel cuts), and
// pieces that were cut apart can be glued back into the rectangle they came from:
//   stack:    buffers with the same lifetime, one on top of the other (an address cut): either
//             every such group, or (more cautious) only a group whose sum is the peak or is the
//             size of a block or group that starts where it ends or ends where it starts (the
//             rectangle's neighbour across a time cut);
//   chain:    buffers of the same size, one starting where the other ends, at one offset (a time
//             cut): either any pair that is the only one of its kind at its step, or (more
//             cautious) only stretches of such links that end up with a lifetime some other
//             block already has;
//   pinwheel: five blocks wound round a centre (four around, one inside) that tile a rectangle
//             in either orientation.
// Rounds of these repeat until nothing changes. A plan of the blocks is a plan of the buffers
// (each block places its members at fixed relative offsets), so a search may solve the smaller
// problem first; glueing can also join pieces that no plan puts together, so a failed search on
// the blocks proves nothing. Cost O(n log n) per round, at most n rounds (each joins buffers).
#pragma once

#include <vector>

#include "plan/problem.h"

namespace arenaplan::plan::optimal_internal {

struct Block {
  Buffer buffer;                 // lifetime and height of the block
  std::vector<size_t> members;   // indices into the original buffers
  std::vector<Offset> relative;  // each member's offset within the block
};

// Which glueing rules run (a bit set).
enum MergeRule : int {
  kStacks = 1,
  kChainPairs = 2,  // chain any unique pair at a step
  kPinwheels = 4,
  kChainsWithEvidence = 8,   // chain only stretches whose lifetime some other block has
  kChainsAfterStacks = 16,   // kChainPairs leaves blocks that could stack to be stacked first
  kStacksFirst = 32,         // each round stacks before pinwheels (else pinwheels first)
  kStacksWithEvidence = 64,  // stack only groups whose sum a time neighbour or the peak confirms
};

// The blocks, each original buffer in exactly one. Requires online buffers with alignment 1.
std::vector<Block> MergeBlocks(const std::vector<Buffer>& buffers, int rules);

// `glued` with the blocks listed in `apart` replaced by their members, each a block of its own,
// appended after the blocks that stay (in `apart`'s order).
std::vector<Block> TakenApart(const std::vector<Buffer>& buffers, const std::vector<Block>& glued,
                              const std::vector<size_t>& apart);

// Each block's buffer (its lifetime and height), for a search over the blocks.
std::vector<Buffer> BlockBuffers(const std::vector<Block>& blocks);

// Every member's offset (indexed like the original buffers, `buffers` of them) when block k sits at
// at[k].
std::vector<Offset> PlaceMembers(const std::vector<Block>& blocks, const std::vector<Offset>& at, size_t buffers);

}  // namespace arenaplan::plan::optimal_internal
