// MinimiseHeight against stand-in decisions on a work clock: how it spends its time.
#include "plan/minimise.h"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

namespace arenaplan::plan::optimal_internal {
namespace {

using std::chrono::milliseconds;

struct FakePiece {
  std::vector<int> best{0};  // not empty: the seed's plan
  Bytes best_h = 20;
  Bytes lb = 9;
  Bytes proven_lb = 0;
};

// A decision that no proof ever ends: nothing fits below 10 (it searches until the deadline), a
// probe at 16 or above finds its own height in 1 ms, and one at 12-15 finds a plan of height 12
// in 5 ms but gives up at once when offered less than 50 ms; at 10 and 11, its own height in 1 ms.
struct FakeDecision {
  WorkClock& clock;
  FakePiece& piece;
  std::vector<Bytes> probed;
  Outcome operator()(Bytes height, TimePoint deadline) {
    probed.push_back(height);
    auto spend = [&](TimePoint::duration t) {
      clock.Add(std::chrono::duration_cast<std::chrono::microseconds>(t).count());
    };
    auto found = [&](Bytes h, milliseconds t) {
      spend(t);
      if (h < piece.best_h) piece.best_h = h;
      return Outcome::kFound;
    };
    if (height < 10) {
      spend(deadline - clock.now());
      return Outcome::kTimeout;
    }
    if (height >= 16 || height < 12) return found(height, milliseconds(1));
    if (deadline - clock.now() < milliseconds(50)) return Outcome::kBudget;
    return found(12, milliseconds(5));
  }
};

Limits WorkLimits(WorkClock& clock, milliseconds limit) {
  Limits l;
  l.work = &clock;
  l.deadline = clock.now() + limit;
  return l;
}

// The bisection passes over 12-15 (offered 30 ms there); the last probe, at 15 with the 57 ms
// left, finds 12. Minimising once stopped there, unproven, with 52 ms unused.
TEST(MinimiseHeightTest, KeepsProbingBelowAPlanTheLastProbeFound) {
  WorkClock clock;
  FakePiece piece;
  FakeDecision decide{clock, piece, {}};
  const Limits limits = WorkLimits(clock, milliseconds(100));
  MinimiseHeight(piece, /*floor=*/9, /*g=*/1, /*limit=*/1000, limits, decide);
  EXPECT_EQ(piece.best_h, 10);
  EXPECT_EQ(clock.now(), limits.deadline);  // unproven: the whole limit spent
  EXPECT_EQ(decide.probed, (std::vector<Bytes>{9, 15, 18, 17, 16, 15, 11, 10, 9}));
}

// A refutation ends it early: nothing is probed below a proof.
TEST(MinimiseHeightTest, StopsAtAProof) {
  WorkClock clock;
  FakePiece piece;
  int calls = 0;
  auto decide = [&](Bytes height, TimePoint) {
    ++calls;
    if (height >= 14) {
      piece.best_h = std::min(piece.best_h, height);
      return Outcome::kFound;
    }
    piece.proven_lb = std::max(piece.proven_lb, height + 1);
    return Outcome::kNotFound;
  };
  const Limits limits = WorkLimits(clock, milliseconds(100));
  MinimiseHeight(piece, 9, 1, 1000, limits, decide);
  EXPECT_EQ(piece.best_h, 14);
  EXPECT_EQ(piece.proven_lb, 14);
  EXPECT_LT(calls, 10);
}

// Another piece already holds the arena at the floor: nothing below it is worth a probe.
TEST(MinimiseHeightTest, StopsAtTheFloor) {
  WorkClock clock;
  FakePiece piece;
  std::vector<Bytes> probed;
  auto decide = [&](Bytes height, TimePoint) {
    probed.push_back(height);
    piece.best_h = std::min(piece.best_h, height);
    return Outcome::kFound;
  };
  MinimiseHeight(piece, /*floor=*/15, 1, 1000, WorkLimits(clock, milliseconds(100)), decide);
  EXPECT_EQ(piece.best_h, 15);
  EXPECT_EQ(probed, (std::vector<Bytes>{15}));
}

}  // namespace
}  // namespace arenaplan::plan::optimal_internal
