// Block reconstruction (plan/block_merge.h): the eager stacks glue every group of one lifetime;
// the cautious ones (kStacksWithEvidence) only a group whose sum a time neighbour or the peak
// confirms. Hand-made problems whose right glueing is known.
#include "plan/block_merge.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "plan/packing_problem.h"
#include "plan/packing_testutil.h"
#include "plan/verify.h"

namespace arenaplan::plan::optimal_internal {
namespace {

// Buffers below are Buffer{size, first, last}.

// The block holding buffer i.
const Block& BlockOf(const std::vector<Block>& blocks, size_t i) {
  for (const Block& b : blocks) {
    if (std::find(b.members.begin(), b.members.end(), i) != b.members.end()) return b;
  }
  ADD_FAILURE() << "buffer " << i << " is in no block";
  return blocks.front();
}

TEST(BlockMerge, EagerStacksGlueEveryGroupOfOneLifetime) {
  // 0 and 1 share a lifetime; 2 overlaps them, so the peak (9) is not their sum (5).
  const std::vector<Buffer> b = {Buffer{2, 0, 9}, Buffer{3, 0, 9}, Buffer{4, 5, 14}};
  const std::vector<Block> blocks = MergeBlocks(b, kStacks);
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(BlockOf(blocks, 0).buffer.size, 5);
}

TEST(BlockMerge, CautiousStacksWaitWithoutEvidence) {
  const std::vector<Buffer> b = {Buffer{2, 0, 9}, Buffer{3, 0, 9}, Buffer{4, 5, 14}};
  EXPECT_EQ(MergeBlocks(b, kStacksWithEvidence).size(), 3u);
}

TEST(BlockMerge, CautiousStacksFollowABlockAcrossATimeCut) {
  // 2 starts where the group ends and has its sum: the trace of one rectangle cut in time.
  for (const Buffer& neighbour : {Buffer{5, 10, 19}, Buffer{5, -10, -1}}) {
    const std::vector<Buffer> b = {Buffer{2, 0, 9}, Buffer{3, 0, 9}, neighbour, Buffer{4, 5, 14}};
    const std::vector<Block> blocks = MergeBlocks(b, kStacksWithEvidence);
    ASSERT_EQ(blocks.size(), 3u) << "neighbour at " << neighbour.first;
    const Block& stack = BlockOf(blocks, 0);
    EXPECT_EQ(stack.buffer.size, 5);
    EXPECT_EQ(stack.buffer.first, 0);
    EXPECT_EQ(stack.buffer.last, 9);
    ASSERT_EQ(stack.members.size(), 2u);
    // The members sit one on the other inside the block.
    EXPECT_EQ(stack.relative[0] + stack.relative[1], stack.members[0] == 0 ? 2 : 3);
  }
}

TEST(BlockMerge, CautiousStacksOfNeighbouringGroupsConfirmEachOther) {
  // Two groups of sum 5 meet at step 10; a third group (sum 4) has no neighbour of its sum. The
  // last buffer lifts the peak to 9, above every group's sum.
  const std::vector<Buffer> b = {Buffer{2, 0, 9},   Buffer{3, 0, 9},   Buffer{1, 10, 19}, Buffer{4, 10, 19},
                                 Buffer{1, 30, 39}, Buffer{3, 30, 39}, Buffer{4, 5, 14}};
  const std::vector<Block> blocks = MergeBlocks(b, kStacksWithEvidence);
  EXPECT_EQ(blocks.size(), 5u);
  EXPECT_EQ(BlockOf(blocks, 0).members.size(), 2u);
  EXPECT_EQ(BlockOf(blocks, 2).members.size(), 2u);
  EXPECT_EQ(BlockOf(blocks, 4).members.size(), 1u);
}

TEST(BlockMerge, CautiousStacksFillingThePeakAreStacked) {
  // Nothing else is alive while the group is: its sum is the peak, and any order packs.
  const std::vector<Buffer> b = {Buffer{2, 0, 9}, Buffer{3, 0, 9}, Buffer{1, 20, 29}};
  const std::vector<Block> blocks = MergeBlocks(b, kStacksWithEvidence);
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(BlockOf(blocks, 0).buffer.size, 5);
}

TEST(BlockMerge, GluedBlocksPlaceEveryMemberWithoutOverlap) {
  // Any plan of the blocks is a plan of the buffers: stack each glueing's blocks on top of each
  // other (a trivially valid plan of the blocks) and verify the members' plan.
  const PackingInstance inst = testing::MakePacking(PackingVariant::kPerfect, 300, 0.2, 0);
  for (int rules : {kStacks | kChainPairs | kPinwheels, kStacksWithEvidence | kChainsWithEvidence | kPinwheels}) {
    const std::vector<Block> blocks = MergeBlocks(inst.problem.buffers, rules);
    EXPECT_LT(blocks.size(), inst.problem.buffers.size()) << "rules " << rules;
    std::vector<Offset> at(blocks.size());
    Offset top = 0;
    for (size_t k = 0; k < blocks.size(); ++k) {
      at[k] = top;
      top += blocks[k].buffer.size;
    }
    Problem p = inst.problem;
    p.capacity = 0;
    const std::vector<Offset> offsets = PlaceMembers(blocks, at, p.buffers.size());
    EXPECT_TRUE(VerifyPlan(p, Plan{offsets, PlanHeight(p, offsets)}).ok()) << "rules " << rules;
  }
}

}  // namespace
}  // namespace arenaplan::plan::optimal_internal
