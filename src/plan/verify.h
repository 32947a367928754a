// The independent plan checker. It trusts nothing a planner computed: every buffer placed, offsets
// non-negative and aligned, fixed buffers at their fixed offsets, capacity respected, and no two
// time-overlapping buffers sharing a byte. Fixed-vs-fixed overlaps are legal (offline plans may
// overlap on purpose) and are reported separately, not as errors. O(n log n + conflicts).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "plan/problem.h"
#include "plan/region_problem.h"

namespace arenaplan::plan {

enum class Violation {
  kWrongCount,  // offsets.size() != buffers.size()
  kNegativeOffset,
  kMisaligned,
  kFixedMoved,      // a fixed buffer not at its fixed offset
  kOverCapacity,    // ends above Problem::capacity (when capacity > 0)
  kOverlap,         // two time-overlapping buffers share bytes (at least one of them online)
  kHeightMismatch,  // Plan::height != max(offset + size)
  kBadBuffer,       // the problem itself is malformed (size <= 0, first > last, alignment <= 0)
  kBadRegion,       // region plans: a buffer's region index out of range
  kCostMismatch,    // region plans: RegionPlan::cost != the assignment's cost
  kTieBroken,       // a tied buffer not directly on its partner (plan/ties.h)
};
const char* ViolationName(Violation kind);

struct VerifyIssue {
  Violation kind;
  size_t a = 0;         // buffer index
  size_t b = 0;         // second buffer index (kOverlap), else == a
  std::string message;  // names both buffers, their lifetimes and byte ranges
};

struct VerifyReport {
  std::vector<VerifyIssue> errors;                        // empty = valid plan
  std::vector<std::pair<size_t, size_t>> fixed_overlaps;  // legal, reported for information
  bool ok() const { return errors.empty(); }
};

// At most `max_errors` errors are collected (the first ones found); once that many are found the
// sweep stops, so fixed_overlaps is complete only for a plan that verifies (or has fewer errors).
// Algorithm: per-buffer checks, then a sweep over time (starts in step order, a buffer leaves
// once a later start passes its last step) with a max-segment-tree over the buffers sorted by
// offset, holding each live buffer's end: the live buffers sharing bytes with [o, e) are the
// leaves with offset < e and end > o, found by descending only into subtrees whose max end > o.
// O(n log n + k log n) for k conflicting pairs.
VerifyReport VerifyPlan(const Problem& problem, const Plan& plan, size_t max_errors = 16);

// Region plans (plan/region_problem.h): one region per buffer, each in range; per region, the
// buffers it holds checked by VerifyPlan as a plain problem with the region's capacity (so every
// check above holds within each region, and used[r] is that region's height); the cost equal to
// the assignment's. Issues carry indices into rp.problem; messages name the region. O(n log n).
VerifyReport VerifyRegionPlan(const RegionProblem& rp, const RegionPlan& plan, size_t max_errors = 16);

}  // namespace arenaplan::plan
