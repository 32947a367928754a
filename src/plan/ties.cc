#include "plan/ties.h"

#include <algorithm>

#include "plan/lower_bound.h"

namespace arenaplan::plan {

Status ValidateTies(const Problem& problem, const std::vector<Tie>& ties) {
  const size_t n = problem.buffers.size();
  std::vector<bool> used(n, false);
  for (const Tie& t : ties) {
    const std::string what = "tie of buffer " + std::to_string(t.above) + " on buffer " + std::to_string(t.below);
    if (t.below >= n || t.above >= n || t.below == t.above) return InvalidArgument(what + ": no such pair");
    if (used[t.below] || used[t.above]) return InvalidArgument(what + ": a buffer is in two ties");
    used[t.below] = used[t.above] = true;
    const Buffer& lo = problem.buffers[t.below];
    const Buffer& hi = problem.buffers[t.above];
    if (lo.fixed() || hi.fixed()) return InvalidArgument(what + ": tied buffers cannot have fixed offsets");
    if (lo.alignment <= 0 || hi.alignment <= 0 || lo.alignment % hi.alignment != 0 || lo.size % hi.alignment != 0) {
      return InvalidArgument(what + ": the upper buffer's alignment must divide the lower one's alignment and size");
    }
  }
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
    if (upper[i]) continue;
    Buffer b = problem.buffers[i];
    m.index[i] = m.problem.buffers.size();
    if (on[i] != n) {
      const Buffer& u = problem.buffers[on[i]];
      m.index[on[i]] = m.index[i];
      m.delta[on[i]] = b.size;
      b.size += u.size;  // both below kMaxTotalBytes (ValidateProblem)
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
