// The take-apart stage (plan/take_apart.h) on perfect packings glued wrongly on purpose: two
// pieces of the same size chained at one offset across a gap in time, so that the block claims
// the gap as well. With zero slack such a block cannot fit (the bound refutes it), so with two of
// them each block taken apart alone still fails and only the pair stage finds the plan. Every plan
// found is checked by VerifyPlan.
#include "plan/take_apart.h"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "plan/packing_problem.h"
#include "plan/packing_testutil.h"
#include "plan/skyline_search.h"
#include "plan/verify.h"

namespace arenaplan::plan::optimal_internal {
namespace {

using testing::GenerousLimits;

PackingInstance Perfect(size_t buffers, uint64_t seed) {
  return testing::MakePacking(PackingVariant::kPerfect, buffers, 0, seed);
}

// Every buffer alone, except the given chains (a, b): one block from a's start to b's end, both at
// its bottom.
std::vector<Block> Glue(const std::vector<Buffer>& buffers, const std::vector<std::pair<size_t, size_t>>& chains) {
  std::vector<bool> used(buffers.size(), false);
  std::vector<Block> out;
  for (const auto& [a, b] : chains) {
    Block block;
    block.buffer = buffers[a];
    block.buffer.last = buffers[b].last;
    block.members = {a, b};
    block.relative = {0, 0};
    out.push_back(block);
    used[a] = used[b] = true;
  }
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (!used[i]) out.push_back(Block{buffers[i], {i}, {0}});
  }
  return out;
}

// The skyline search's verdict on the glued problem (kFound, kNotFound or kBudget).
Outcome Decide(const std::vector<Block>& blocks, Bytes capacity) {
  SkylineSearch sky(BlockBuffers(blocks));
  std::vector<Offset> at;
  return sky.Run(capacity, SkylineOrder{}, 200000, GenerousLimits(), &at);
}

// Up to `want` disjoint chains of same-size buffers with a gap in time between them: wrong glues.
std::vector<std::pair<size_t, size_t>> WrongChains(const std::vector<Buffer>& b, size_t want) {
  std::vector<std::pair<size_t, size_t>> out;
  std::vector<bool> used(b.size(), false);
  for (size_t a = 0; a < b.size() && out.size() < want; ++a) {
    for (size_t c = 0; c < b.size() && out.size() < want && !used[a]; ++c) {
      if (used[c] || b[a].size != b[c].size || b[a].last + 1 >= b[c].first) continue;
      out.emplace_back(a, c);
      used[a] = used[c] = true;
    }
  }
  return out;
}

void ExpectValid(const PackingInstance& inst, const std::vector<Offset>& offsets) {
  Plan plan{offsets, PlanHeight(inst.problem, offsets)};
  EXPECT_TRUE(VerifyPlan(inst.problem, plan).ok());
  EXPECT_LE(plan.height, inst.problem.capacity);
}

TEST(TakeApart, GluesThatAreRightNeedNothingTakenApart) {
  const PackingInstance inst = Perfect(120, 3);
  std::vector<Offset> offsets;
  int64_t nodes = 0;
  ASSERT_EQ(TakeApart(inst.problem.buffers, Glue(inst.problem.buffers, {}), inst.problem.capacity, GenerousLimits(),
                      &offsets, &nodes),
            Outcome::kFound);
  ExpectValid(inst, offsets);
  EXPECT_GT(nodes, 0);
}

TEST(TakeApart, OneWrongGlueIsTakenApart) {
  const PackingInstance inst = Perfect(120, 5);
  const auto wrong = WrongChains(inst.problem.buffers, 1);
  ASSERT_EQ(wrong.size(), 1u) << "the instance has no chain to glue wrongly";
  std::vector<Offset> offsets;
  int64_t nodes = 0;
  ASSERT_EQ(TakeApart(inst.problem.buffers, Glue(inst.problem.buffers, wrong), inst.problem.capacity, GenerousLimits(),
                      &offsets, &nodes),
            Outcome::kFound);
  ExpectValid(inst, offsets);
}

TEST(TakeApart, TwoWrongGluesAreTakenApartTogether) {
  for (uint64_t seed : {5, 7}) {
    const PackingInstance inst = Perfect(120, seed);
    const auto wrong = WrongChains(inst.problem.buffers, 2);
    ASSERT_EQ(wrong.size(), 2u) << "seed " << seed << " has fewer than two chains to glue wrongly";
    // Each glue alone is fatal, so neither can be taken apart alone: only the pair helps.
    for (const auto& chain : wrong) {
      EXPECT_EQ(Decide(Glue(inst.problem.buffers, {chain}), inst.problem.capacity), Outcome::kNotFound)
          << "seed " << seed;
    }
    const std::vector<Block> glued = Glue(inst.problem.buffers, wrong);
    std::vector<Offset> offsets;
    int64_t nodes = 0;
    ASSERT_EQ(TakeApart(inst.problem.buffers, glued, inst.problem.capacity, GenerousLimits(), &offsets, &nodes),
              Outcome::kFound)
        << "seed " << seed;
    ExpectValid(inst, offsets);
  }
}

TEST(TakeApart, InfeasibleBuffersGetNoProof) {
  const PackingInstance inst = testing::MakePacking(PackingVariant::kGadget, 60, 0.2, 1);
  std::vector<Offset> offsets;
  int64_t nodes = 0;
  // The glued problem is refuted, but that refutes the glueing only: the stage says "nothing found".
  EXPECT_EQ(TakeApart(inst.problem.buffers, Glue(inst.problem.buffers, {}), inst.problem.capacity, GenerousLimits(),
                      &offsets, &nodes),
            Outcome::kBudget);
}

TEST(TakeApart, StopsAtTheDeadline) {
  const PackingInstance inst = Perfect(120, 5);
  Limits past;
  past.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  std::vector<Offset> offsets;
  int64_t nodes = 0;
  EXPECT_EQ(TakeApart(inst.problem.buffers, Glue(inst.problem.buffers, WrongChains(inst.problem.buffers, 1)),
                      inst.problem.capacity, past, &offsets, &nodes),
            Outcome::kTimeout);
}

}  // namespace
}  // namespace arenaplan::plan::optimal_internal
