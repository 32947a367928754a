// Small builders shared by the plan tests.
#pragma once

#include <initializer_list>

#include "plan/problem.h"

namespace arenaplan::plan::testing {

struct B {
  Bytes size;
  Step first;
  Step last;
  Offset fixed = kUnfixed;
  Bytes alignment = 1;
};

inline Problem MakeProblem(std::initializer_list<B> buffers, Bytes capacity = 0) {
  Problem p;
  p.capacity = capacity;
  for (const B& b : buffers) p.buffers.push_back({b.size, b.first, b.last, b.fixed, b.alignment});
  return p;
}

inline Plan MakePlan(const Problem& problem, std::vector<Offset> offsets) {
  Plan plan;
  plan.height = PlanHeight(problem, offsets);
  plan.offsets = std::move(offsets);
  return plan;
}

}  // namespace arenaplan::plan::testing
