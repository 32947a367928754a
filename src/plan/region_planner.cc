#include "plan/region_planner.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <numeric>
#include <optional>

#include "plan/placement.h"
#include "plan/region_search.h"
#include "plan/tflm_greedy.h"
#include "plan/time_index.h"
#include "plan/verify.h"

namespace arenaplan::plan {
namespace {

constexpr uint32_t kUnassigned = std::numeric_limits<uint32_t>::max();

uint32_t LargestRegion(const RegionProblem& rp, const std::vector<uint32_t>& by_cost) {
  uint32_t largest = by_cost[0];
  for (uint32_t r : by_cost) {
    if (rp.regions[r].capacity > rp.regions[largest].capacity) largest = r;
  }
  return largest;
}

// Everything in the largest region (ties: the cheapest). `height` gets best-fit's height there.
std::optional<RegionPlan> Naive(const RegionProblem& rp, const std::vector<uint32_t>& by_cost,
                                const RegionDeadline& deadline, Bytes* height) {
  const uint32_t largest = LargestRegion(rp, by_cost);
  RegionPlan plan;
  plan.region.assign(rp.problem.buffers.size(), largest);
  const PackedRegion pk = PackRegion(rp, RegionMembers(plan.region, largest), largest, false, deadline);
  *height = pk.height;
  if (pk.verdict != PackVerdict::kFits) return std::nullopt;
  plan.offsets = pk.offsets;
  FinishRegionPlan(rp, &plan);
  return plan;
}

// Banked first fit: each buffer of `order` at TFLM's first fit in the cheapest region where it
// ends within the capacity. nullopt when some buffer fits no region.
std::optional<RegionPlan> BankedFirstFit(const RegionProblem& rp, const std::vector<uint32_t>& order,
                                         const std::vector<uint32_t>& by_cost) {
  std::vector<TimeIndex> index;
  index.reserve(rp.regions.size());
  for (size_t r = 0; r < rp.regions.size(); ++r) index.emplace_back(rp.problem);
  RegionPlan plan;
  plan.region.assign(rp.problem.buffers.size(), kUnassigned);
  plan.offsets.assign(rp.problem.buffers.size(), 0);
  std::vector<Span> placed;
  for (uint32_t i : order) {
    const Buffer& b = rp.problem.buffers[i];
    for (uint32_t r : by_cost) {
      index[r].SortedOccupied(i, &placed);
      const Offset off = FirstFitOffset(placed, b.size, b.alignment);
      if (off + b.size > rp.regions[r].capacity) continue;
      plan.region[i] = r;
      plan.offsets[i] = off;
      index[r].Insert(i, off);
      break;
    }
    if (plan.region[i] == kUnassigned) return std::nullopt;
  }
  FinishRegionPlan(rp, &plan);
  return plan;
}

// Moves buffers, densest first, to the cheapest region that still packs with them (best-fit).
void Improve(const RegionProblem& rp, const std::vector<uint32_t>& density, const std::vector<uint32_t>& by_cost,
             const RegionDeadline& deadline, RegionPlan* plan) {
  const StartPoints points = BuildStartPoints(rp.problem);
  RegionLoad load(rp, points);
  for (size_t i = 0; i < plan->region.size(); ++i) load.Add(static_cast<uint32_t>(i), plan->region[i], 1);
  for (uint32_t i : density) {
    if (deadline.Passed()) break;
    const uint32_t from = plan->region[i];
    for (uint32_t r : by_cost) {
      if (rp.regions[r].cost >= rp.regions[from].cost) break;
      if (!load.Fits(i, r)) continue;
      std::vector<uint32_t> members = RegionMembers(plan->region, r);
      members.insert(std::upper_bound(members.begin(), members.end(), i), i);
      const PackedRegion pk = PackRegion(rp, members, r, false, deadline);
      if (pk.verdict != PackVerdict::kFits) continue;
      load.Add(i, from, -1);
      load.Add(i, r, 1);
      plan->region[i] = r;
      for (size_t k = 0; k < members.size(); ++k) plan->offsets[members[k]] = pk.offsets[k];
      break;
    }
  }
  FinishRegionPlan(rp, plan);
}

// The cheapest of the heuristics (ties: the earlier); fills the baselines.
void RunHeuristics(const RegionProblem& rp, const std::vector<uint32_t>& by_cost, const RegionDeadline& deadline,
                   RegionResult* out, Bytes* naive_height) {
  auto take = [&](const std::optional<RegionPlan>& plan, const char* method) {
    if (!plan || (out->fits && plan->cost >= out->plan.cost)) return;
    out->fits = true;
    out->plan = *plan;
    out->method = method;
  };
  auto fastest = BankedFirstFit(rp, TflmGreedyOrder(rp.problem), by_cost);
  if (fastest) out->fastest_first = {true, *fastest};
  take(fastest, "fastest-first");
  std::vector<uint32_t> density(rp.problem.buffers.size());
  std::iota(density.begin(), density.end(), 0u);
  SortByDensity(rp, &density);
  auto dense = BankedFirstFit(rp, density, by_cost);
  if (dense) Improve(rp, density, by_cost, deadline, &*dense);
  take(dense, "density");
  auto naive = Naive(rp, by_cost, deadline, naive_height);
  if (naive) out->naive = {true, *naive};
  take(naive, "naive");
}

Status Verify(const RegionProblem& rp, const RegionPlan& plan, const char* what) {
  const VerifyReport report = VerifyRegionPlan(rp, plan);
  if (report.ok()) return Status::Ok();
  return Internal(std::string("region plan (") + what + ") is invalid: " + report.errors.front().message);
}

}  // namespace

Result<RegionResult> PlanRegions(const RegionProblem& rp, const PlannerOptions& options) {
  ARENAPLAN_RETURN_IF_ERROR(ValidateRegionProblem(rp));
  const auto start = std::chrono::steady_clock::now();
  const double limit = TimeLimitOr(options, kDefaultRegionSeconds);
  RegionDeadline deadline;
  deadline.end = start +
                 std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(limit));
  deadline.cancel = options.cancel;
  RegionResult out;
  const auto by_cost = RegionsByCost(rp);
  out.cost_lower_bound = RegionCostLowerBound(rp);
  out.shortfall_min = RegionShortfallLowerBound(rp);
  Bytes naive_height = 0;
  if (out.shortfall_min == 0) RunHeuristics(rp, by_cost, deadline, &out, &naive_height);
  const bool proven_by_bound = out.fits && out.plan.cost <= out.cost_lower_bound;
  if (out.shortfall_min == 0 && !proven_by_bound && rp.problem.buffers.size() <= kExactMaxBuffers &&
      !deadline.Passed()) {
    out.exact_ran = true;
    const Cost incumbent = out.fits ? out.plan.cost : std::numeric_limits<Cost>::max();
    RegionSearchResult search = SearchRegions(rp, incumbent, deadline);
    out.nodes = search.nodes;
    out.exact_finished = search.finished;
    if (search.found) {
      out.fits = true;
      out.plan = std::move(search.plan);
      out.method = "exact";
    }
  }
  if (out.fits) {
    if (proven_by_bound || out.exact_finished) out.status = PlanStatus::kOptimal;
    if (out.status == PlanStatus::kOptimal) out.cost_lower_bound = out.plan.cost;
  } else {
    if (out.shortfall_min > 0 || out.exact_finished) out.status = PlanStatus::kInfeasible;
    out.shortfall_min = std::max<Bytes>(out.shortfall_min, out.exact_finished ? 1 : 0);
    // Everything in the largest region, packed by best-fit, certainly fits that much more.
    if (naive_height == 0) Naive(rp, by_cost, deadline, &naive_height);
    const Bytes largest_region = rp.regions[LargestRegion(rp, by_cost)].capacity;
    out.shortfall_max = std::max(out.shortfall_min, naive_height - largest_region);
  }
  if (out.fits) ARENAPLAN_RETURN_IF_ERROR(Verify(rp, out.plan, out.method.c_str()));
  if (out.naive.fits) ARENAPLAN_RETURN_IF_ERROR(Verify(rp, out.naive.plan, "naive"));
  if (out.fastest_first.fits) ARENAPLAN_RETURN_IF_ERROR(Verify(rp, out.fastest_first.plan, "fastest-first"));
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace arenaplan::plan
