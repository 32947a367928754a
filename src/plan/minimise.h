// Height minimisation over a decision procedure: the outer loop of the optimal planner, apart
// from the search so that its use of the time can be tested with a stand-in decision.
// Internal to the optimal planner, not a stable interface.
#pragma once

#include <algorithm>

#include "plan/search_model.h"

namespace arenaplan::plan::optimal_internal {

inline constexpr double kBoundProbeShare = 0.4;  // the probe at the lower bound: fast, or hopeless
inline constexpr double kProbeShare = 0.5;       // each later bisection probe

// Smallest height >= floor at which `piece` fits, searched over multiples of g up to `limit`
// (inclusive; the capacity, or unbounded). `probe(height, deadline)` decides one height and
// records what it learns in `piece`: a plan found (piece.best, not empty, of height piece.best_h)
// or a refutation (piece.proven_lb). Piece also has lb, its lower bound. Proofs stay apart from
// timeouts: a probe that times out only moves the bisection up.
template <class Piece, class ProbeFn>
void MinimiseHeight(Piece& piece, Bytes floor, Bytes g, Bytes limit, const Limits& clock, ProbeFn&& probe) {
  auto up = [&](Bytes h) { return (h + g - 1) / g * g; };
  Bytes lo = up(std::max({floor, piece.lb, piece.proven_lb}));
  // hi: a height known to fit (best found), or limit + g meaning "none yet".
  auto hi_now = [&]() { return piece.best.empty() ? limit / g * g + g : piece.best_h; };
  bool first = true;
  while (lo < hi_now() && !clock.Cancelled() && !clock.Expired()) {
    const Bytes hi = hi_now();
    const Bytes height = first ? lo : lo + (hi - lo) / g / 2 * g;
    first = false;
    const double share = height == lo && lo == up(std::max(floor, piece.lb)) ? kBoundProbeShare : kProbeShare;
    const Outcome r = probe(height, ShareOfTimeLeft(clock.now(), clock.deadline, share));
    if (r == Outcome::kCancelled) break;
    if (r != Outcome::kFound) lo = height + g;  // refuted, or unknown: look higher for a plan
  }
  // Spend what is left on proving the best height (the probe just below it), unless another
  // piece already holds the arena at least this high. A probe that finds a lower plan instead
  // leaves time over: probe below that one, until a proof, a timeout or the floor.
  while (!piece.best.empty() && piece.best_h > floor && piece.proven_lb < piece.best_h &&
         piece.best_h - g >= piece.lb && !clock.Expired() && !clock.Cancelled()) {
    if (probe(piece.best_h - g, clock.deadline) != Outcome::kFound) break;
  }
}

}  // namespace arenaplan::plan::optimal_internal
