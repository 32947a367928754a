// Ties beside a plain problem (plan/ties.h): merged and split back exactly, checked by VerifyTies,
// refused when malformed, and kept by every registered planner through PlanAndVerifyTied.
#include "plan/ties.h"

#include <gtest/gtest.h>

#include "plan/random_problem.h"

namespace arenaplan::plan {
namespace {

Buffer B(Bytes size, Step first, Step last, Bytes alignment = 16) {
  Buffer b;
  b.size = size;
  b.first = first;
  b.last = last;
  b.alignment = alignment;
  return b;
}

// An in-place QUANTIZE's shape: output part [0, 3] of 32 bytes, the rest [0, 1] of 96 above it,
// and a buffer born at step 2 that fits in the notch the rest leaves.
Problem Quantize() {
  Problem p;
  p.buffers = {B(32, 0, 3), B(96, 0, 1), B(64, 2, 3)};
  return p;
}

TEST(Ties, MergeAndSplit) {
  const Problem p = Quantize();
  const MergedTies m = MergeTies(p, {Tie{0, 1}});
  ASSERT_EQ(m.problem.buffers.size(), 2u);
  EXPECT_EQ(m.problem.buffers[0].size, 128);
  EXPECT_EQ(m.problem.buffers[0].first, 0);
  EXPECT_EQ(m.problem.buffers[0].last, 3);
  EXPECT_EQ(m.index, (std::vector<size_t>{0, 0, 1}));
  EXPECT_EQ(SplitTies(m, {64, 0}), (std::vector<Offset>{64, 96, 0}));
}

// A stack (a stream's output under the rest of its input under the rest of a QUANTIZE's float
// input) is merged into one block, each part at its offset in the stack.
TEST(Ties, StacksMergeAndSplit) {
  Problem p;
  p.buffers = {B(48, 0, 5), B(16, 0, 3), B(64, 0, 1), B(32, 2, 5)};
  ASSERT_TRUE(ValidateTies(p, {Tie{0, 1}, Tie{1, 2}}).ok());
  const MergedTies m = MergeTies(p, {Tie{0, 1}, Tie{1, 2}});
  ASSERT_EQ(m.problem.buffers.size(), 2u);
  EXPECT_EQ(m.problem.buffers[0].size, 128);
  EXPECT_EQ(m.problem.buffers[0].last, 5);
  EXPECT_EQ(m.index, (std::vector<size_t>{0, 0, 0, 1}));
  EXPECT_EQ(m.delta, (std::vector<Offset>{0, 48, 64, 0}));
  EXPECT_EQ(SplitTies(m, {32, 0}), (std::vector<Offset>{32, 80, 96, 0}));
  auto r = PlanAndVerifyTied(p, {Tie{0, 1}, Tie{1, 2}}, "best-fit");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->plan.offsets[1], r->plan.offsets[0] + 48);
  EXPECT_EQ(r->plan.offsets[2], r->plan.offsets[1] + 16);
}

TEST(Ties, VerifyFindsABrokenTie) {
  const Problem p = Quantize();
  Plan plan;
  plan.offsets = {0, 32, 128};
  plan.height = 192;
  EXPECT_TRUE(VerifyTies(p, {Tie{0, 1}}, plan).empty());
  plan.offsets[1] = 48;
  const auto errors = VerifyTies(p, {Tie{0, 1}}, plan);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].kind, Violation::kTieBroken);
  EXPECT_NE(errors[0].message.find("directly on"), std::string::npos) << errors[0].message;
}

TEST(Ties, MalformedTiesAreRefused) {
  Problem p = Quantize();
  EXPECT_FALSE(ValidateTies(p, {Tie{0, 3}}).ok());
  EXPECT_FALSE(ValidateTies(p, {Tie{0, 0}}).ok());
  EXPECT_FALSE(ValidateTies(p, {Tie{0, 1}, Tie{0, 2}}).ok());  // two parts on one
  EXPECT_FALSE(ValidateTies(p, {Tie{0, 2}, Tie{1, 2}}).ok());  // one part on two
  EXPECT_FALSE(ValidateTies(p, {Tie{0, 1}, Tie{1, 2}, Tie{2, 0}}).ok());  // a cycle
  p.buffers[0].size = 40;  // the upper buffer would be misaligned
  EXPECT_FALSE(ValidateTies(p, {Tie{0, 1}}).ok());
  p = Quantize();
  p.buffers[1].fixed_offset = 0;
  EXPECT_FALSE(ValidateTies(p, {Tie{0, 1}}).ok());
  EXPECT_FALSE(PlanAndVerifyTied(p, {Tie{0, 1}}, "best-fit").ok());
}

TEST(Ties, EveryPlannerKeepsEveryTie) {
  for (uint64_t seed = 0; seed < 10; ++seed) {
    Problem p = RandomProblem({RandomStyle::kAdversarial, 20, seed});
    // Tie pairs of consecutive buffers where the alignments allow it; 16-aligned sizes and
    // alignments make every pair eligible.
    std::vector<Tie> ties;
    p.capacity = 0;
    for (Buffer& b : p.buffers) {
      b.size = (b.size + 15) / 16 * 16;
      b.alignment = 16;
      b.fixed_offset = kUnfixed;
    }
    for (size_t i = 0; i + 1 < p.buffers.size(); i += 3) ties.push_back(Tie{i, i + 1});
    for (const PlannerEntry& e : Planners()) {
      SCOPED_TRACE(e.name + " seed " + std::to_string(seed));
      auto r = PlanAndVerifyTied(p, ties, e.name);
      ASSERT_TRUE(r.ok()) << r.status().message();
      EXPECT_TRUE(VerifyTies(p, ties, r->plan).empty());
      EXPECT_TRUE(VerifyPlan(p, r->plan).ok());
      EXPECT_GE(r->plan.height, r->lower_bound);
    }
  }
}

}  // namespace
}  // namespace arenaplan::plan
