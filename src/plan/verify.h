// The independent plan checker. It trusts nothing a planner computed: every buffer placed, offsets
// non-negative and aligned, fixed buffers at their fixed offsets, capacity respected, and no two
// time-overlapping buffers sharing a byte. Fixed-vs-fixed overlaps are legal (offline plans may
// overlap on purpose) and are reported separately, not as errors. O(n log n + conflicts).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "plan/problem.h"

namespace arenaplan::plan {

enum class Violation {
  kWrongCount,      // offsets.size() != buffers.size()
  kNegativeOffset,
  kMisaligned,
  kFixedMoved,      // a fixed buffer not at its fixed offset
  kOverCapacity,    // ends above Problem::capacity (when capacity > 0)
  kOverlap,         // two time-overlapping buffers share bytes (at least one of them online)
  kHeightMismatch,  // Plan::height != max(offset + size)
};

struct VerifyIssue {
  Violation kind;
  size_t a = 0;  // buffer index
  size_t b = 0;  // second buffer index (kOverlap), else == a
  std::string message;  // names both buffers, their lifetimes and byte ranges
};

struct VerifyReport {
  std::vector<VerifyIssue> errors;          // empty = valid plan
  std::vector<std::pair<size_t, size_t>> fixed_overlaps;  // legal, reported for information
  bool ok() const { return errors.empty(); }
};

// At most `max_errors` errors are collected (the first ones found).
VerifyReport VerifyPlan(const Problem& problem, const Plan& plan, size_t max_errors = 16);

}  // namespace arenaplan::plan
