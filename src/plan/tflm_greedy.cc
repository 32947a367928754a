#include "plan/tflm_greedy.h"

#include <algorithm>
#include <chrono>

#include "plan/placement.h"

namespace arenaplan::plan {

std::vector<uint32_t> TflmGreedyOrder(const Problem& problem) {
  std::vector<uint32_t> order = OnlineBuffers(problem);
  const auto& bufs = problem.buffers;
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return bufs[a].size != bufs[b].size ? bufs[a].size > bufs[b].size : a > b; });
  return order;
}

Result<PlanResult> PlanTflmGreedy(const Problem& problem, const PlannerOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  ARENAPLAN_RETURN_IF_ERROR(ValidateProblem(problem));
  TimeIndex index(problem);
  Plan plan = PlaceInOrder(problem, TflmGreedyOrder(problem), GapRule::kFirstFit, &index);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  return HeuristicResult(problem, std::move(plan), "tflm-greedy", took.count());
}

}  // namespace arenaplan::plan
