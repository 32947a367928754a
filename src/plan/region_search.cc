#include "plan/region_search.h"

#include <algorithm>
#include <limits>
#include <map>

#include "plan/best_fit.h"
#include "plan/lower_bound.h"
#include "plan/optimal.h"

namespace arenaplan::plan {
namespace {

constexpr double kPackSeconds = 0.25;
constexpr uint32_t kUnassigned = std::numeric_limits<uint32_t>::max();
constexpr Cost kInfinite = std::numeric_limits<Cost>::max();

// Depth-first branch and bound; one object per search (region_planner.h, step 3).
class Search {
 public:
  Search(const RegionProblem& rp, Cost incumbent, const RegionDeadline& deadline)
      : rp_(rp), deadline_(deadline), points_(BuildStartPoints(rp.problem)), load_(rp, points_), best_(incumbent) {
    const size_t n = rp.problem.buffers.size();
    by_cost_ = RegionsByCost(rp);
    for (auto& alive : points_.alive) SortByDensity(rp, &alive);
    region_.assign(n, kUnassigned);
    cheapest_fit_.assign(n, 0);
    const Cost c0 = rp.regions[by_cost_[0]].cost;
    for (size_t i = 0; i < n; ++i) {
      order_.push_back(static_cast<uint32_t>(i));
      for (uint32_t r : by_cost_) {
        if (rp.regions[r].capacity >= rp.problem.buffers[i].size) {
          cheapest_fit_[i] = rp.regions[r].cost;
          break;
        }
      }
      alone_left_ += rp.traffic[i] * cheapest_fit_[i];
      base_left_ += rp.traffic[i] * c0;
    }
    std::stable_sort(order_.begin(), order_.end(), [&](uint32_t a, uint32_t b) {
      return rp.traffic[a] != rp.traffic[b] ? rp.traffic[a] > rp.traffic[b]
                                            : rp.problem.buffers[a].size > rp.problem.buffers[b].size;
    });
    free_.resize(rp.regions.size());
  }

  RegionSearchResult Run() {
    RegionSearchResult out;
    for (size_t i = 0; i < order_.size(); ++i) {
      if (cheapest_fit_[i] != 0) continue;
      out.finished = true;  // a buffer larger than every region: proven that nothing fits
      return out;
    }
    Dfs(0, 0);
    out.found = found_;
    out.finished = !stopped_ && !unknown_;
    out.nodes = nodes_;
    if (found_) {
      out.plan = best_plan_;
      FinishRegionPlan(rp_, &out.plan);
    }
    return out;
  }

 private:
  // The relaxation bound of region_problem.h over the unassigned buffers, with each region's
  // capacity left at each point; kInfinite when they cannot fit together at some point.
  Cost Bound() {
    Cost extra = 0;
    for (uint32_t p = 0; p < points_.alive.size(); ++p) {
      scratch_.clear();
      for (uint32_t i : points_.alive[p]) {
        if (region_[i] == kUnassigned) scratch_.push_back(i);
      }
      if (scratch_.empty()) continue;
      for (uint32_t r = 0; r < free_.size(); ++r) free_[r] = load_.Free(r, p);
      const Cost e = FractionalExtraCost(rp_, scratch_, free_, by_cost_);
      if (e < 0) return kInfinite;
      extra = std::max(extra, e);
    }
    return std::max(alone_left_, base_left_ + extra);
  }

  void Dfs(size_t depth, Cost cost) {
    if (stopped_) return;
    if ((++nodes_ & 31) == 0 && deadline_.Passed()) {
      stopped_ = true;
      return;
    }
    if (depth == order_.size()) {
      if (cost < best_ && AcceptLeaf()) best_ = cost;
      return;
    }
    const Cost bound = Bound();
    if (bound == kInfinite || cost + bound >= best_) return;
    const uint32_t i = order_[depth];
    const Cost c0 = rp_.regions[by_cost_[0]].cost;
    for (uint32_t r : by_cost_) {
      const Cost c = cost + rp_.traffic[i] * rp_.regions[r].cost;
      if (c >= best_) break;  // regions come cheapest first
      if (!load_.Fits(i, r)) continue;
      region_[i] = r;
      load_.Add(i, r, 1);
      alone_left_ -= rp_.traffic[i] * cheapest_fit_[i];
      base_left_ -= rp_.traffic[i] * c0;
      Dfs(depth + 1, c);
      alone_left_ += rp_.traffic[i] * cheapest_fit_[i];
      base_left_ += rp_.traffic[i] * c0;
      load_.Add(i, r, -1);
      region_[i] = kUnassigned;
      if (stopped_) return;
    }
  }

  // Every region packs (cached per set of buffers): the assignment becomes the best plan.
  bool AcceptLeaf() {
    RegionPlan plan;
    plan.region = region_;
    plan.offsets.assign(region_.size(), 0);
    for (uint32_t r = 0; r < rp_.regions.size(); ++r) {
      std::vector<uint32_t> members = RegionMembers(region_, r);
      if (members.empty()) continue;
      auto key = std::make_pair(r, members);
      auto it = cache_.find(key);
      if (it == cache_.end()) it = cache_.emplace(key, PackRegion(rp_, members, r, true, deadline_)).first;
      const PackedRegion& pk = it->second;
      if (pk.verdict == PackVerdict::kUnknown) unknown_ = true;
      if (pk.verdict != PackVerdict::kFits) return false;
      for (size_t k = 0; k < members.size(); ++k) plan.offsets[members[k]] = pk.offsets[k];
    }
    best_plan_ = std::move(plan);
    found_ = true;
    return true;
  }

  const RegionProblem& rp_;
  const RegionDeadline& deadline_;
  StartPoints points_;  // alive lists sorted by density
  RegionLoad load_;
  std::vector<uint32_t> by_cost_, order_, region_, scratch_;
  std::vector<Cost> cheapest_fit_;  // per buffer: cost of the cheapest region it fits alone (0: none)
  std::vector<Bytes> free_;
  Cost alone_left_ = 0, base_left_ = 0;  // the two relaxations' sums over the unassigned buffers
  Cost best_;
  RegionPlan best_plan_;
  std::map<std::pair<uint32_t, std::vector<uint32_t>>, PackedRegion> cache_;
  bool found_ = false, stopped_ = false, unknown_ = false;
  int64_t nodes_ = 0;
};

}  // namespace

bool RegionDeadline::Passed() const {
  return (cancel != nullptr && cancel->load()) || std::chrono::steady_clock::now() >= end;
}

double RegionDeadline::Left() const {
  return std::chrono::duration<double>(end - std::chrono::steady_clock::now()).count();
}

RegionLoad::RegionLoad(const RegionProblem& rp, const StartPoints& points)
    : rp_(rp), points_(points), live_(rp.regions.size(), std::vector<Bytes>(points.steps.size(), 0)) {}

bool RegionLoad::Fits(uint32_t i, uint32_t r) const {
  const Bytes size = rp_.problem.buffers[i].size, cap = rp_.regions[r].capacity;
  if (size > cap) return false;
  for (uint32_t p = points_.span[i].first; p <= points_.span[i].second; ++p) {
    if (live_[r][p] > cap - size) return false;
  }
  return true;
}

void RegionLoad::Add(uint32_t i, uint32_t r, int sign) {
  const Bytes delta = sign * rp_.problem.buffers[i].size;
  for (uint32_t p = points_.span[i].first; p <= points_.span[i].second; ++p) live_[r][p] += delta;
}

PackedRegion PackRegion(const RegionProblem& rp, const std::vector<uint32_t>& members, uint32_t r, bool exact,
                        const RegionDeadline& deadline) {
  const Problem sub = RegionSubproblem(rp, members, r);
  PackedRegion out;
  PlannerOptions opts;
  opts.cancel = deadline.cancel;
  opts.time_limit_seconds = std::max(1e-3, deadline.Left());
  auto fit = PlanBestFit(sub, opts);
  if (fit.ok()) out.height = fit->plan.height;
  if (fit.ok() && fit->plan.height <= sub.capacity) {
    out.verdict = PackVerdict::kFits;
    out.offsets = fit->plan.offsets;
    return out;
  }
  if (LiveBytesLowerBound(sub) > sub.capacity) out.verdict = PackVerdict::kNoFit;
  if (!exact || out.verdict == PackVerdict::kNoFit || deadline.Left() <= 0) return out;
  opts.minimize = false;
  opts.time_limit_seconds = std::min(kPackSeconds, deadline.Left());
  auto opt = PlanOptimal(sub, opts);
  if (opt.ok() && opt->status == PlanStatus::kInfeasible) out.verdict = PackVerdict::kNoFit;
  if (opt.ok() && opt->status != PlanStatus::kInfeasible && opt->plan.height <= sub.capacity) {
    out.verdict = PackVerdict::kFits;
    out.offsets = opt->plan.offsets;
  }
  return out;
}

RegionSearchResult SearchRegions(const RegionProblem& rp, Cost incumbent, const RegionDeadline& deadline) {
  return Search(rp, incumbent, deadline).Run();
}

}  // namespace arenaplan::plan
