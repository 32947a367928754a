// Builders shared by the tests of the exact planner's stages on seeded packings
// (plan/packing_problem.h).
#pragma once

#include <chrono>

#include "plan/packing_problem.h"
#include "plan/search_model.h"

namespace arenaplan::plan::testing {

inline PackingInstance MakePacking(PackingVariant variant, size_t buffers, double pinwheels, uint64_t seed) {
  PackingOptions o;
  o.variant = variant;
  o.buffers = buffers;
  o.pinwheel_share = pinwheels;
  o.seed = seed;
  return MakePackingProblem(o);
}

// A minute of work time (optimal_internal::WorkClock): it only bounds a failure, and stages that
// share it (the windows of window_bound.h) split it the same way on every machine.
inline optimal_internal::Limits GenerousLimits() {
  static optimal_internal::WorkClock clock;
  optimal_internal::Limits limits;
  limits.work = &clock;
  limits.deadline = clock.now() + std::chrono::seconds(60);
  return limits;
}

}  // namespace arenaplan::plan::testing
