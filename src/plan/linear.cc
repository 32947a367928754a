#include "plan/linear.h"

#include <algorithm>
#include <chrono>

namespace arenaplan::plan {

Result<PlanResult> PlanLinear(const Problem& problem, const PlannerOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  ARENAPLAN_RETURN_IF_ERROR(ValidateProblem(problem));
  Plan plan;
  plan.offsets.assign(problem.buffers.size(), kUnfixed);
  Offset running = 0;
  for (const Buffer& b : problem.buffers) {
    if (b.fixed()) running = std::max(running, b.fixed_offset + b.size);
  }
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer& b = problem.buffers[i];
    if (b.fixed()) {
      plan.offsets[i] = b.fixed_offset;
      continue;
    }
    plan.offsets[i] = AlignUp(running, b.alignment);
    running = plan.offsets[i] + b.size;
  }
  plan.height = PlanHeight(problem, plan.offsets);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  return HeuristicResult(problem, std::move(plan), "linear", took.count());
}

}  // namespace arenaplan::plan
