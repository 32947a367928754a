// Peak anchoring: re-plans a problem around an exact core at its busiest step, for `best` on
// traces too large and too dense for the exact search as a whole.
//
// The buffers alive in a time window around the step of most live bytes, with their lifetimes cut
// to the window, form a problem whose plans include every plan of the whole problem restricted to
// the window; the exact search (optimal_search.h) packs it within the target height. Those buffers
// are then fixed where it put them, for their whole lifetimes, and first fit in TFLM's order
// places the others around them. Where the window holds the tight steps and the rest of the
// timeline has slack, that meets the target: on PanGu-2.6B and IOPDDL S every greedy order misses
// the bound by a few buffers' worth at a zero-slack peak, which the exact search packs at once and
// first fit fills around. Windows grow by buffer count (min_window, then by a quarter each time)
// until one reaches the target, the time runs out, or a window holds every buffer (then it is the
// exact planner's problem, not a window's). A window the search proves unpackable within the
// target proves that no plan of the whole problem is either (it is a relaxation): `refuted`.
// Fixed buffers outside the window that a member's lifetime meets stand in its way over the whole
// window (stricter than needed, so the plan stays valid; a failure then proves nothing).
// Cost per window of k buffers: the exact search on it (skipped when its stored pairs would exceed
// kMaxWindowInts) under part of the time left, then one first-fit pass over the whole problem
// (plan/placement.h).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>

#include "plan/problem.h"

namespace arenaplan::plan {

struct AnchorOptions {
  std::chrono::steady_clock::time_point deadline;
  const std::atomic<bool>* cancel = nullptr;
  Bytes target = 0;          // the height the window is packed within (the live-bytes bound)
  size_t min_window = 1000;  // buffers in the first window
};

struct AnchorStats {
  int windows = 0;       // windows searched
  bool refuted = false;  // some window does not fit within the target: no plan does
  size_t anchored = 0;   // buffers fixed by the window of the plan returned (0: none helped)
};

// `plan` must be a valid plan of `problem` (ValidateProblem passed). Returns the lowest plan found,
// `plan` itself unless some anchored plan is lower. Stops at the deadline (a window search is cut
// there; the best-fit fill after it always completes its first run) or the cancel flag.
Plan AnchorPeak(const Problem& problem, Plan plan, const AnchorOptions& options, AnchorStats* stats = nullptr);

}  // namespace arenaplan::plan
