#include "plan/verify.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <utility>

namespace arenaplan::plan {
namespace {

constexpr Offset kInactive = std::numeric_limits<Offset>::min();

std::string Range(Offset offset, Offset end) { return "[" + std::to_string(offset) + ", " + std::to_string(end) + ")"; }

// Max-segment tree over leaf positions holding the end of each live buffer (kInactive if not live).
struct EndTree {
  size_t leaves = 1;
  std::vector<Offset> max_end;
  explicit EndTree(size_t n) {
    while (leaves < n) leaves *= 2;
    max_end.assign(2 * leaves, kInactive);
  }
  // An ancestor whose maximum does not change leaves every higher one as it is: most updates stop
  // a few levels up instead of at the root.
  void Set(size_t pos, Offset end) {
    size_t node = pos + leaves;
    max_end[node] = end;
    for (node /= 2; node >= 1; node /= 2) {
      const Offset m = std::max(max_end[2 * node], max_end[2 * node + 1]);
      if (max_end[node] == m) break;
      max_end[node] = m;
    }
  }
  // Calls fn(pos) for every leaf in [0, limit) whose end > threshold; fn returns false to stop.
  template <typename Fn>
  bool Collect(size_t node, size_t lo, size_t hi, size_t limit, Offset threshold, Fn& fn) const {
    if (lo >= limit || max_end[node] <= threshold) return true;
    if (hi - lo == 1) return fn(lo);
    const size_t mid = (lo + hi) / 2;
    return Collect(2 * node, lo, mid, limit, threshold, fn) && Collect(2 * node + 1, mid, hi, limit, threshold, fn);
  }
};

struct Checker {
  const Problem& problem;
  const Plan& plan;
  size_t max_errors;
  VerifyReport report;
  std::vector<Offset> ends;  // offset + size, saturated

  bool Full() const { return report.errors.size() >= max_errors; }
  void Add(Violation kind, size_t a, size_t b, std::string message) {
    if (!Full()) report.errors.push_back({kind, a, b, std::move(message)});
  }
  std::string Placed(size_t i) const { return DescribeBuffer(problem, i) + " at " + Range(plan.offsets[i], ends[i]); }

  // Per-buffer checks; returns the buffers that take part in the overlap sweep.
  std::vector<size_t> CheckBuffers() {
    std::vector<size_t> sweep;
    Offset height = 0;
    size_t highest = 0;
    for (size_t i = 0; i < problem.buffers.size(); ++i) {
      const Buffer& b = problem.buffers[i];
      const Offset o = plan.offsets[i];
      if (b.size <= 0 || b.first > b.last || b.alignment <= 0) {
        Add(Violation::kBadBuffer, i, i, DescribeBuffer(problem, i) + ": malformed buffer");
        continue;
      }
      ends[i] = o > std::numeric_limits<Offset>::max() - b.size ? std::numeric_limits<Offset>::max() : o + b.size;
      if (o < 0) Add(Violation::kNegativeOffset, i, i, Placed(i) + ": negative offset");
      if (o % b.alignment != 0)
        Add(Violation::kMisaligned, i, i, Placed(i) + ": offset is not a multiple of the alignment");
      if (b.fixed() && o != b.fixed_offset)
        Add(Violation::kFixedMoved, i, i, Placed(i) + ": must sit at its fixed offset");
      if (problem.capacity > 0 && ends[i] > problem.capacity) {
        Add(Violation::kOverCapacity, i, i,
            Placed(i) + ": ends above the capacity " + std::to_string(problem.capacity));
      }
      if (ends[i] > height) {
        height = ends[i];
        highest = i;
      }
      sweep.push_back(i);
    }
    if (height != plan.height) {
      Add(Violation::kHeightMismatch, highest, highest,
          "plan height " + std::to_string(plan.height) + " but max(offset + size) is " + std::to_string(height) +
              (height > 0 ? " (" + Placed(highest) + ")" : std::string()));
    }
    return sweep;
  }

  void Conflict(size_t a, size_t b) {
    if (a > b) std::swap(a, b);
    const Buffer& x = problem.buffers[a];
    const Buffer& y = problem.buffers[b];
    if (x.fixed() && y.fixed()) {
      report.fixed_overlaps.emplace_back(a, b);
      return;
    }
    Add(Violation::kOverlap, a, b,
        Placed(a) + " overlaps " + Placed(b) + " in bytes " +
            Range(std::max(plan.offsets[a], plan.offsets[b]), std::min(ends[a], ends[b])) + " during steps [" +
            std::to_string(std::max(x.first, y.first)) + ", " + std::to_string(std::min(x.last, y.last)) + "]");
  }

  // Buffers `ids` in order of key(i), ties by index. Sorting (key, index) pairs instead of indices
  // with a comparator that looks the keys up keeps the sort in cache (at 1M buffers, three such
  // sorts took about as long as the sweep).
  template <typename Key>
  static std::vector<std::pair<int64_t, size_t>> SortedBy(const std::vector<size_t>& ids, Key key) {
    std::vector<std::pair<int64_t, size_t>> v;
    v.reserve(ids.size());
    for (size_t i : ids) v.emplace_back(key(i), i);
    std::sort(v.begin(), v.end());
    return v;
  }

  void Sweep(const std::vector<size_t>& ids) {
    const auto& bufs = problem.buffers;
    const auto by_offset = SortedBy(ids, [&](size_t i) { return plan.offsets[i]; });  // leaf order
    const auto by_end = SortedBy(ids, [&](size_t i) { return ends[i]; });
    const auto by_first = SortedBy(ids, [&](size_t i) { return bufs[i].first; });
    const auto by_last = SortedBy(ids, [&](size_t i) { return bufs[i].last; });
    std::vector<size_t> leaf(bufs.size()), limit(bufs.size());
    for (size_t p = 0; p < by_offset.size(); ++p) leaf[by_offset[p].second] = p;
    // limit[x]: the leaves with offset < end(x), merged in end order (no search per buffer).
    for (size_t p = 0, k = 0; k < by_end.size(); ++k) {
      while (p < by_offset.size() && by_offset[p].first < by_end[k].first) ++p;
      limit[by_end[k].second] = p;
    }
    EndTree tree(by_offset.size());
    size_t removed = 0;
    for (const auto& starting : by_first) {
      const size_t x = starting.second;  // a plain name: lambdas cannot capture a structured binding
      while (removed < by_last.size() && by_last[removed].first < starting.first) {
        tree.Set(leaf[by_last[removed].second], kInactive);
        ++removed;
      }
      // Live buffers with offset < end(x) and end > offset(x) share bytes with x.
      auto report_pair = [&](size_t pos) {
        Conflict(x, by_offset[pos].second);
        return !Full();
      };
      if (!tree.Collect(1, 0, tree.leaves, limit[x], plan.offsets[x], report_pair)) return;
      tree.Set(leaf[x], ends[x]);
    }
  }
};

}  // namespace

const char* ViolationName(Violation kind) {
  switch (kind) {
    case Violation::kWrongCount: return "wrong-count";
    case Violation::kNegativeOffset: return "negative-offset";
    case Violation::kMisaligned: return "misaligned";
    case Violation::kFixedMoved: return "fixed-moved";
    case Violation::kOverCapacity: return "over-capacity";
    case Violation::kOverlap: return "overlap";
    case Violation::kHeightMismatch: return "height-mismatch";
    case Violation::kBadBuffer: return "bad-buffer";
    case Violation::kBadRegion: return "bad-region";
    case Violation::kCostMismatch: return "cost-mismatch";
    case Violation::kTieBroken: return "tie-broken";
  }
  return "unknown";
}

VerifyReport VerifyPlan(const Problem& problem, const Plan& plan, size_t max_errors) {
  Checker c{problem, plan, std::max<size_t>(max_errors, 1), {}, {}};
  if (plan.offsets.size() != problem.buffers.size()) {
    c.Add(Violation::kWrongCount, 0, 0,
          "plan has " + std::to_string(plan.offsets.size()) + " offsets for " + std::to_string(problem.buffers.size()) +
              " buffers");
    return c.report;
  }
  c.ends.assign(problem.buffers.size(), 0);
  const std::vector<size_t> ids = c.CheckBuffers();
  if (!c.Full()) c.Sweep(ids);
  return c.report;
}

namespace {

// One region's buffers as a plain plan, verified; issues mapped back to rp.problem's indices.
void VerifyOneRegion(const RegionProblem& rp, const RegionPlan& plan, uint32_t r, size_t max_errors,
                     VerifyReport* out) {
  const std::vector<uint32_t> members = RegionMembers(plan.region, r);
  const Problem sub = RegionSubproblem(rp, members, r);
  Plan local;
  for (uint32_t i : members) local.offsets.push_back(plan.offsets[i]);
  local.height = plan.used[r];
  auto global = [&](size_t k) -> size_t { return k < members.size() ? members[k] : 0; };
  for (VerifyIssue issue : VerifyPlan(sub, local, max_errors).errors) {
    issue.message = "region '" + rp.regions[r].name + "': " + issue.message + " (region buffer " +
                    std::to_string(issue.a) + " = buffer " + std::to_string(global(issue.a)) + ", " +
                    std::to_string(issue.b) + " = " + std::to_string(global(issue.b)) + ")";
    issue.a = global(issue.a);
    issue.b = global(issue.b);
    if (out->errors.size() < max_errors) out->errors.push_back(std::move(issue));
  }
}

}  // namespace

VerifyReport VerifyRegionPlan(const RegionProblem& rp, const RegionPlan& plan, size_t max_errors) {
  VerifyReport out;
  const size_t n = rp.problem.buffers.size();
  if (plan.region.size() != n || plan.offsets.size() != n || plan.used.size() != rp.regions.size()) {
    out.errors.push_back({Violation::kWrongCount, 0, 0,
                          "region plan has " + std::to_string(plan.region.size()) + " regions and " +
                              std::to_string(plan.offsets.size()) + " offsets for " + std::to_string(n) + " buffers, " +
                              std::to_string(plan.used.size()) + " heights for " + std::to_string(rp.regions.size()) +
                              " regions"});
    return out;
  }
  for (size_t i = 0; i < n; ++i) {
    if (plan.region[i] < rp.regions.size()) continue;
    out.errors.push_back({Violation::kBadRegion, i, i,
                          DescribeBuffer(rp.problem, i) + ": region " + std::to_string(plan.region[i]) +
                              " out of range (" + std::to_string(rp.regions.size()) + " regions)"});
    return out;
  }
  for (uint32_t r = 0; r < rp.regions.size() && out.errors.size() < max_errors; ++r) {
    VerifyOneRegion(rp, plan, r, max_errors, &out);
  }
  const Cost cost = AssignmentCost(rp, plan.region);
  if (plan.cost != cost && out.errors.size() < max_errors) {
    out.errors.push_back(
        {Violation::kCostMismatch, 0, 0,
         "region plan says cost " + std::to_string(plan.cost) + ", its assignment costs " + std::to_string(cost)});
  }
  return out;
}

}  // namespace arenaplan::plan
