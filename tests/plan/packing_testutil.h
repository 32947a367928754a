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

// A minute: it only bounds a failure.
inline optimal_internal::Limits GenerousLimits() {
  optimal_internal::Limits limits;
  limits.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  return limits;
}

}  // namespace arenaplan::plan::testing
