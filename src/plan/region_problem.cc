#include "plan/region_problem.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <set>

#include "plan/lower_bound.h"

namespace arenaplan::plan {
void SortByDensity(const RegionProblem& rp, std::vector<uint32_t>* ids) {
  const auto& b = rp.problem.buffers;
  std::sort(ids->begin(), ids->end(), [&](uint32_t x, uint32_t y) {
    const __int128 lhs = static_cast<__int128>(rp.traffic[x]) * b[y].size;
    const __int128 rhs = static_cast<__int128>(rp.traffic[y]) * b[x].size;
    return lhs != rhs ? lhs > rhs : x < y;
  });
}

namespace {

Status CheckRegions(const RegionProblem& rp) {
  if (rp.regions.empty()) return InvalidArgument("no region given");
  if (rp.regions.size() > kMaxRegions) return InvalidArgument("more than " + std::to_string(kMaxRegions) + " regions");
  std::set<std::string> names;
  for (const Region& r : rp.regions) {
    if (r.name.empty()) return InvalidArgument("a region has an empty name");
    if (!names.insert(r.name).second) return InvalidArgument("duplicate region name '" + r.name + "'");
    if (r.capacity <= 0) return InvalidArgument("region '" + r.name + "': size must be positive");
    if (r.capacity > kMaxTotalBytes) return InvalidArgument("region '" + r.name + "': size too large");
    if (r.cost <= 0 || r.cost > kMaxRegionCost) {
      return InvalidArgument("region '" + r.name + "': cost must be an integer in [1, " +
                             std::to_string(kMaxRegionCost) + "]");
    }
  }
  return Status::Ok();
}

}  // namespace

Status ValidateRegionProblem(const RegionProblem& rp) {
  ARENAPLAN_RETURN_IF_ERROR(ValidateProblem(rp.problem));
  ARENAPLAN_RETURN_IF_ERROR(CheckRegions(rp));
  const size_t n = rp.problem.buffers.size();
  if (rp.traffic.size() != n) {
    return InvalidArgument(std::to_string(rp.traffic.size()) + " traffic figures for " + std::to_string(n) +
                           " buffers");
  }
  Cost max_cost = 0;
  for (const Region& r : rp.regions) max_cost = std::max(max_cost, r.cost);
  const Bytes limit = (Bytes{1} << 62) / max_cost;
  Bytes total = 0;
  for (size_t i = 0; i < n; ++i) {
    if (rp.problem.buffers[i].fixed())
      return InvalidArgument(DescribeBuffer(rp.problem, i) + ": fixed offsets are not supported with regions");
    if (rp.traffic[i] < 0 || rp.traffic[i] > limit - total) {
      return InvalidArgument(DescribeBuffer(rp.problem, i) + ": traffic out of range");
    }
    total += rp.traffic[i];
  }
  return Status::Ok();
}

Cost AssignmentCost(const RegionProblem& rp, const std::vector<uint32_t>& region) {
  Cost cost = 0;
  for (size_t i = 0; i < region.size(); ++i) cost += rp.traffic[i] * rp.regions[region[i]].cost;
  return cost;
}

std::vector<uint32_t> RegionMembers(const std::vector<uint32_t>& region, uint32_t r) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < region.size(); ++i) {
    if (region[i] == r) out.push_back(static_cast<uint32_t>(i));
  }
  return out;
}

Problem RegionSubproblem(const RegionProblem& rp, const std::vector<uint32_t>& members, uint32_t r) {
  Problem sub;
  sub.capacity = rp.regions[r].capacity;
  for (uint32_t i : members) sub.buffers.push_back(rp.problem.buffers[i]);
  return sub;
}

void FinishRegionPlan(const RegionProblem& rp, RegionPlan* plan) {
  plan->used.assign(rp.regions.size(), 0);
  for (size_t i = 0; i < plan->region.size(); ++i) {
    Bytes& used = plan->used[plan->region[i]];
    used = std::max(used, plan->offsets[i] + rp.problem.buffers[i].size);
  }
  plan->cost = AssignmentCost(rp, plan->region);
}

StartPoints BuildStartPoints(const Problem& problem) {
  StartPoints sp;
  const auto& bufs = problem.buffers;
  for (const Buffer& b : bufs) sp.steps.push_back(b.first);
  std::sort(sp.steps.begin(), sp.steps.end());
  sp.steps.erase(std::unique(sp.steps.begin(), sp.steps.end()), sp.steps.end());
  sp.alive.resize(sp.steps.size());
  sp.span.resize(bufs.size());
  for (size_t i = 0; i < bufs.size(); ++i) {
    const auto lo = std::lower_bound(sp.steps.begin(), sp.steps.end(), bufs[i].first) - sp.steps.begin();
    const auto hi = std::upper_bound(sp.steps.begin(), sp.steps.end(), bufs[i].last) - sp.steps.begin() - 1;
    sp.span[i] = {static_cast<uint32_t>(lo), static_cast<uint32_t>(hi)};
    for (auto p = lo; p <= hi; ++p) sp.alive[p].push_back(static_cast<uint32_t>(i));
  }
  return sp;
}

std::vector<uint32_t> RegionsByCost(const RegionProblem& rp) {
  std::vector<uint32_t> order(rp.regions.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const Region& x = rp.regions[a];
    const Region& y = rp.regions[b];
    return x.cost != y.cost ? x.cost < y.cost : x.capacity > y.capacity;
  });
  return order;
}

Cost FractionalExtraCost(const RegionProblem& rp, const std::vector<uint32_t>& alive, const std::vector<Bytes>& free,
                         const std::vector<uint32_t>& order) {
  const Cost c0 = rp.regions[order[0]].cost;
  size_t k = 0;
  Bytes left = free[order[0]];
  Cost extra = 0;
  for (uint32_t i : alive) {
    Bytes need = rp.problem.buffers[i].size;
    while (need > 0) {
      while (left == 0 && ++k < order.size()) left = free[order[k]];
      if (k >= order.size()) return -1;
      const Bytes take = std::min(need, left);
      const Cost dc = rp.regions[order[k]].cost - c0;
      extra += static_cast<Cost>(static_cast<__int128>(rp.traffic[i]) * dc * take / rp.problem.buffers[i].size);
      need -= take;
      left -= take;
    }
  }
  return extra;
}

Cost RegionCostLowerBound(const RegionProblem& rp) {
  const auto order = RegionsByCost(rp);
  const Cost c0 = rp.regions[order[0]].cost;
  Cost each_alone = 0, base = 0;
  for (size_t i = 0; i < rp.problem.buffers.size(); ++i) {
    base += rp.traffic[i] * c0;
    for (uint32_t r : order) {
      if (rp.regions[r].capacity >= rp.problem.buffers[i].size) {
        each_alone += rp.traffic[i] * rp.regions[r].cost;
        break;
      }
    }
  }
  StartPoints sp = BuildStartPoints(rp.problem);
  std::vector<Bytes> free(rp.regions.size());
  for (size_t r = 0; r < free.size(); ++r) free[r] = rp.regions[r].capacity;
  Cost best_extra = 0;
  for (auto& alive : sp.alive) {
    SortByDensity(rp, &alive);
    best_extra = std::max(best_extra, FractionalExtraCost(rp, alive, free, order));
  }
  return std::max(each_alone, base + best_extra);
}

Bytes RegionShortfallLowerBound(const RegionProblem& rp, size_t* largest_buffer) {
  Bytes largest_region = 0, total = 0;
  for (const Region& r : rp.regions) {
    largest_region = std::max(largest_region, r.capacity);
    total = std::min(total + r.capacity, kMaxTotalBytes);  // no overflow; live bytes stay below it
  }
  size_t largest = 0;
  const auto& bufs = rp.problem.buffers;
  for (size_t i = 1; i < bufs.size(); ++i) {
    if (bufs[i].size > bufs[largest].size) largest = i;
  }
  if (largest_buffer != nullptr) *largest_buffer = largest;
  Bytes shortfall = bufs.empty() ? 0 : std::max<Bytes>(0, bufs[largest].size - largest_region);
  return std::max(shortfall, LiveBytesLowerBound(rp.problem) - total);
}

}  // namespace arenaplan::plan
