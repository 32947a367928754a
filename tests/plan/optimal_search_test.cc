// The decision portfolio (plan/optimal_search.h) on two threads: near a perfect packing the problem
// and its mirror image in time race, and whichever answers first decides. These run on the wall
// clock (a work clock keeps one thread), so they check answers, never times.
#include "plan/optimal_search.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "plan/packing_testutil.h"
#include "plan/problem.h"
#include "plan/verify.h"

namespace arenaplan::plan {
namespace {

using optimal_internal::DecisionSearch;
using optimal_internal::Limits;
using optimal_internal::Outcome;
using testing::MakePacking;

// A minute of wall time: it only bounds a failure.
Limits WallMinute(const std::atomic<bool>* cancel = nullptr) {
  Limits l;
  l.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  l.cancel = cancel;
  return l;
}

// The offsets, whichever direction found them, as a plan of the problem as given, within its
// capacity.
void ExpectPlan(const Problem& p, std::vector<Offset> offsets, const std::string& what) {
  ASSERT_EQ(offsets.size(), p.buffers.size()) << what;
  Plan plan{std::move(offsets), 0};
  plan.height = PlanHeight(p, plan.offsets);
  EXPECT_TRUE(VerifyPlan(p, plan).ok()) << what;
  EXPECT_LE(plan.height, p.capacity) << what;
}

// packing_bench's perfect-450-p50-s0 and -p10-s11 (found on the mirror image when one direction
// follows the other), and smaller perfect packings: whichever thread wins, a plan of the problem.
TEST(DecisionRaceTest, RacedDecisionsAtAPerfectPackingGiveItsPlans) {
  std::vector<Problem> problems;
  for (const char* name : {"perfect-450-p50-s0", "perfect-450-p10-s11"}) {
    problems.push_back(MakePackingProblem(*ParsePackingBenchName(name)).problem);
  }
  for (uint64_t seed = 0; seed < 4; ++seed)
    problems.push_back(MakePacking(PackingVariant::kPerfect, 150, 0.2, seed).problem);
  for (size_t k = 0; k < problems.size(); ++k) {
    const Problem& p = problems[k];
    DecisionSearch search(p.buffers, 2);
    ASSERT_TRUE(search.Tight(p.capacity));
    std::vector<Offset> offsets;
    ASSERT_EQ(search.Decide(p.capacity, WallMinute(), &offsets), Outcome::kFound) << "problem " << k;
    ExpectPlan(p, std::move(offsets), "problem " + std::to_string(k));
    EXPECT_GT(search.nodes(), 0) << "problem " << k;
  }
}

// The same search decides again after a race (the mirror's state is left usable): at the capacity
// again, then below the bound.
TEST(DecisionRaceTest, DecidesAgainAfterARace) {
  const Problem p = MakePacking(PackingVariant::kPerfect, 250, 0.2, 3).problem;
  DecisionSearch search(p.buffers, 2);
  for (int round = 0; round < 3; ++round) {
    std::vector<Offset> offsets;
    ASSERT_EQ(search.Decide(p.capacity, WallMinute(), &offsets), Outcome::kFound) << "round " << round;
    ExpectPlan(p, std::move(offsets), "round " + std::to_string(round));
  }
  std::vector<Offset> none;
  EXPECT_EQ(search.Decide(p.capacity - 1, WallMinute(), &none), Outcome::kNotFound);
}

// A proof from either direction is a proof: small gadget packings (bound = capacity) come out
// infeasible, never as a timeout.
TEST(DecisionRaceTest, RacedGadgetPackingsAreProvenInfeasible) {
  for (uint64_t seed = 0; seed < 6; ++seed) {
    const PackingInstance inst = MakePacking(PackingVariant::kGadget, 24, 0.2, seed);
    ASSERT_FALSE(inst.feasible);
    DecisionSearch search(inst.problem.buffers, 2);
    ASSERT_TRUE(search.Tight(inst.problem.capacity)) << "seed " << seed;  // so the two directions race
    std::vector<Offset> offsets;
    EXPECT_EQ(search.Decide(inst.problem.capacity, WallMinute(), &offsets), Outcome::kNotFound) << "seed " << seed;
  }
}

// The caller's cancel flag stops both threads: cancelled, never a proof. Set before the call, and
// set by another thread while both search (packing_bench's perfect-800-p20-s19, which has no answer
// in 20 s).
TEST(DecisionRaceTest, CancelStopsBothDirections) {
  const Problem p = MakePackingProblem(*ParsePackingBenchName("perfect-800-p20-s19")).problem;
  {
    std::atomic<bool> cancel{true};
    DecisionSearch search(p.buffers, 2);
    std::vector<Offset> offsets;
    EXPECT_EQ(search.Decide(p.capacity, WallMinute(&cancel), &offsets), Outcome::kCancelled);
  }
  std::atomic<bool> cancel{false};
  DecisionSearch search(p.buffers, 2);
  std::vector<Offset> offsets;
  Outcome r = Outcome::kBudget;
  std::thread caller([&] { r = search.Decide(p.capacity, WallMinute(&cancel), &offsets); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  cancel = true;
  caller.join();
  if (r == Outcome::kFound) {
    ExpectPlan(p, std::move(offsets), "found before the cancel");
  } else {
    EXPECT_EQ(r, Outcome::kCancelled);
  }
}

}  // namespace
}  // namespace arenaplan::plan
