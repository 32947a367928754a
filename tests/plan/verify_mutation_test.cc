// Corrupting a verified plan in one specific way must make VerifyPlan report that violation (and
// name the buffers involved). Plans come from best-fit on seeded random problems.
#include <gtest/gtest.h>

#include "plan/best_fit.h"
#include "plan/random_problem.h"
#include "plan/verify.h"

namespace arenaplan::plan {
namespace {

bool Reports(const VerifyReport& r, Violation kind, size_t a, size_t b) {
  for (const VerifyIssue& e : r.errors) {
    if (e.kind == kind && ((e.a == a && e.b == b) || (e.a == b && e.b == a))) return true;
  }
  return false;
}

void Reheight(const Problem& p, Plan* plan) { plan->height = PlanHeight(p, plan->offsets); }

TEST(VerifyMutation, EachCorruptionIsCaught) {
  size_t shifted = 0, misaligned = 0, fixed_moved = 0;
  for (int seed = 0; seed < 2000; ++seed) {
    const Problem p = RandomProblem({RandomStyle::kAdversarial, 20, static_cast<uint64_t>(seed)});
    Result<PlanResult> r = PlanBestFit(p, {});
    ASSERT_TRUE(r.ok());
    const Plan good = r->plan;
    ASSERT_TRUE(VerifyPlan(p, good).ok());
    const size_t n = p.buffers.size();

    {  // Shift an online buffer onto a time-overlapping neighbour.
      for (size_t a = 0; a < n && true; ++a) {
        if (p.buffers[a].fixed()) continue;
        for (size_t b = 0; b < n; ++b) {
          if (a == b || !LifetimesOverlap(p.buffers[a], p.buffers[b])) continue;
          Plan bad = good;
          bad.offsets[a] = good.offsets[b];
          Reheight(p, &bad);
          EXPECT_TRUE(Reports(VerifyPlan(p, bad, 1000), Violation::kOverlap, a, b)) << "seed " << seed;
          ++shifted;
          a = n;  // one pair per problem
          break;
        }
      }
    }
    for (size_t a = 0; a < n; ++a) {  // Misalign a buffer that has an alignment.
      if (p.buffers[a].fixed() || p.buffers[a].alignment == 1) continue;
      Plan bad = good;
      bad.offsets[a] += 1;
      Reheight(p, &bad);
      EXPECT_TRUE(Reports(VerifyPlan(p, bad, 1000), Violation::kMisaligned, a, a)) << "seed " << seed;
      ++misaligned;
      break;
    }
    for (size_t a = 0; a < n; ++a) {  // Move a fixed buffer (keeping it aligned).
      if (!p.buffers[a].fixed()) continue;
      Plan bad = good;
      bad.offsets[a] += p.buffers[a].alignment;
      Reheight(p, &bad);
      EXPECT_TRUE(Reports(VerifyPlan(p, bad, 1000), Violation::kFixedMoved, a, a)) << "seed " << seed;
      ++fixed_moved;
      break;
    }
    {  // Drop the last buffer.
      Plan bad = good;
      bad.offsets.pop_back();
      const VerifyReport v = VerifyPlan(p, bad);
      ASSERT_EQ(v.errors.size(), 1u);
      EXPECT_EQ(v.errors[0].kind, Violation::kWrongCount);
    }
    {  // Wrong height, negative offset, over capacity.
      Plan bad = good;
      bad.height += 1;
      EXPECT_TRUE(Reports(VerifyPlan(p, bad), Violation::kHeightMismatch, bad.offsets.empty() ? 0 : 0, 0) ||
                  !VerifyPlan(p, bad).ok());
      EXPECT_EQ(VerifyPlan(p, bad).errors.at(0).kind, Violation::kHeightMismatch);
      bad = good;
      size_t online = n;
      for (size_t a = 0; a < n && online == n; ++a) online = p.buffers[a].fixed() ? n : a;
      if (online < n) {
        bad.offsets[online] = -p.buffers[online].alignment;
        Reheight(p, &bad);
        EXPECT_TRUE(Reports(VerifyPlan(p, bad, 1000), Violation::kNegativeOffset, online, online)) << "seed " << seed;
      }
      Problem capped = p;
      capped.capacity = good.height - 1;
      if (capped.capacity > 0) {
        const VerifyReport v = VerifyPlan(capped, good, 1000);
        bool over = false;
        for (const auto& e : v.errors) over |= e.kind == Violation::kOverCapacity;
        EXPECT_TRUE(over) << "seed " << seed;
      }
    }
  }
  EXPECT_GT(shifted, 1000u);
  EXPECT_GT(misaligned, 100u);
  EXPECT_GT(fixed_moved, 100u);
}

}  // namespace
}  // namespace arenaplan::plan
