#include "plan/ties.h"

#include <algorithm>

#include "plan/lower_bound.h"

namespace arenaplan::plan {

Status ValidateTies(const Problem& problem, const std::vector<Tie>& ties) {
  const size_t n = problem.buffers.size();
  std::vector<size_t> on(n, n);  // on[lower] = upper
  std::vector<bool> upper(n, false);
  for (const Tie& t : ties) {
    const std::string what = "tie of buffer " + std::to_string(t.above) + " on buffer " + std::to_string(t.below);
    if (t.below >= n || t.above >= n || t.below == t.above) return InvalidArgument(what + ": no such pair");
    if (on[t.below] != n) return InvalidArgument(what + ": buffer " + std::to_string(t.below) + " already has one on it");
    if (upper[t.above]) return InvalidArgument(what + ": buffer " + std::to_string(t.above) + " already sits on one");
    on[t.below] = t.above;
    upper[t.above] = true;
    if (problem.buffers[t.below].fixed() || problem.buffers[t.above].fixed()) {
      return InvalidArgument(what + ": tied buffers cannot have fixed offsets");
    }
  }
  // Each stack from its bottom: every part's alignment divides the bottom's alignment and the
  // part's offset within the stack (so the bottom's alignment carries over to every part).
  size_t visited = 0;
  for (size_t i = 0; i < n; ++i) {
    if (upper[i]) continue;
    const Bytes align = problem.buffers[i].alignment;
    Bytes delta = 0;
    for (size_t j = i; j != n; j = on[j]) {
      ++visited;
      const Bytes a = problem.buffers[j].alignment;
      if (a <= 0 || align % a != 0 || delta % a != 0) {
        return InvalidArgument("tie of buffer " + std::to_string(j) + ": its alignment must divide the stack's alignment and its offset in the stack");
      }
      delta += problem.buffers[j].size;
    }
  }
  if (visited != n) return InvalidArgument("ties form a cycle");
  return Status::Ok();
}

MergedTies MergeTies(const Problem& problem, const std::vector<Tie>& ties) {
  const size_t n = problem.buffers.size();
  std::vector<size_t> on(n, n);  // on[lower] = upper
  std::vector<bool> upper(n, false);
  for (const Tie& t : ties) {
    on[t.below] = t.above;
    upper[t.above] = true;
  }
  MergedTies m;
  m.problem.capacity = problem.capacity;
  m.index.assign(n, 0);
  m.delta.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    if (upper[i]) continue;  // stacks are merged from their bottom (ties validated: no cycles)
    Buffer b = problem.buffers[i];
    m.index[i] = m.problem.buffers.size();
    for (size_t j = on[i]; j != n; j = on[j]) {
      const Buffer& u = problem.buffers[j];
      m.index[j] = m.index[i];
      m.delta[j] = b.size;
      b.size += u.size;  // a stack of a tensor's parts: below kMaxTotalBytes (ValidateProblem)
      b.first = std::min(b.first, u.first);
      b.last = std::max(b.last, u.last);
    }
    m.problem.buffers.push_back(b);
  }
  return m;
}

std::vector<Offset> SplitTies(const MergedTies& merged, const std::vector<Offset>& merged_offsets) {
  std::vector<Offset> offsets(merged.index.size());
  for (size_t i = 0; i < offsets.size(); ++i) offsets[i] = merged_offsets[merged.index[i]] + merged.delta[i];
  return offsets;
}

std::vector<VerifyIssue> VerifyTies(const Problem& problem, const std::vector<Tie>& ties, const Plan& plan,
                                    size_t max_errors) {
  std::vector<VerifyIssue> errors;
  const size_t n = problem.buffers.size();
  for (const Tie& t : ties) {
    if (errors.size() >= max_errors) break;
    if (t.below >= n || t.above >= n || plan.offsets.size() != n) {
      errors.push_back({Violation::kTieBroken, t.below, t.above, "tie names a buffer the plan does not have"});
      continue;
    }
    const Offset want = plan.offsets[t.below] + problem.buffers[t.below].size;
    if (plan.offsets[t.above] == want) continue;
    errors.push_back({Violation::kTieBroken, t.below, t.above,
                      DescribeBuffer(problem, t.above) + " must sit directly on " + DescribeBuffer(problem, t.below) +
                          " at " + std::to_string(want) + ", is at " + std::to_string(plan.offsets[t.above])});
  }
  return errors;
}

Result<PlanResult> PlanAndVerifyTied(const Problem& problem, const std::vector<Tie>& ties, const std::string& planner,
                                     const PlannerOptions& options) {
  if (ties.empty()) return PlanAndVerify(problem, planner, options);
  ARENAPLAN_RETURN_IF_ERROR(ValidateProblem(problem));
  ARENAPLAN_RETURN_IF_ERROR(ValidateTies(problem, ties));
  const MergedTies merged = MergeTies(problem, ties);
  auto result = PlanAndVerify(merged.problem, planner, options);
  if (!result.ok()) return result.status();
  result->plan.offsets = SplitTies(merged, result->plan.offsets);
  result->plan.height = PlanHeight(problem, result->plan.offsets);
  // The merged problem's claims do not carry over: the tied problem may go lower (the notch).
  result->lower_bound = LiveBytesLowerBound(problem);
  const bool at_bound = result->plan.height <= result->lower_bound;
  if (result->status == PlanStatus::kInfeasible || (result->status != PlanStatus::kHeuristic && !at_bound)) {
    result->status = PlanStatus::kHeuristic;
  }
  VerifyReport report = VerifyPlan(problem, result->plan);
  for (VerifyIssue& e : VerifyTies(problem, ties, result->plan)) report.errors.push_back(std::move(e));
  if (!report.ok()) {
    return Internal("planner '" + result->planner + "' returned an invalid plan: " + report.errors.front().message);
  }
  return result;
}

}  // namespace arenaplan::plan
