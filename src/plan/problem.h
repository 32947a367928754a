// The plain planning problem: buffers with a size, an inclusive lifetime [first, last] in abstract
// time steps, an optional fixed offset and an alignment. Knows nothing of .tflite or TFLM.
// One lifetime convention inside (inclusive, as TFLM); MiniMalloc's half-open [lower, upper) is
// converted once at the CSV boundary (plan/csv.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "util/align.h"
#include "util/result.h"

namespace arenaplan::plan {

using Offset = int64_t;  // byte offset from the start of the arena
using Bytes = int64_t;   // a byte count
using Step = int64_t;    // a time step; may be -1 (TFLM's "never set")

inline constexpr Offset kUnfixed = -1;

struct Buffer {
  Bytes size = 0;                  // > 0 for every buffer a planner sees
  Step first = 0;                  // first step the buffer is alive (inclusive)
  Step last = 0;                   // last step the buffer is alive (inclusive), >= first
  Offset fixed_offset = kUnfixed;  // >= 0: the buffer must sit exactly here (offline plan)
  Bytes alignment = 1;             // offsets of placed buffers are multiples of this (> 0)

  bool fixed() const { return fixed_offset != kUnfixed; }
};

struct Problem {
  std::vector<Buffer> buffers;
  Bytes capacity = 0;  // 0 = unbounded; otherwise every buffer must end at or below capacity
};

struct Plan {
  std::vector<Offset> offsets;  // one per buffer, same order as Problem::buffers
  Bytes height = 0;             // max(offset + size) over all buffers (0 if none)
};

// True when the two inclusive lifetimes share at least one step.
inline bool LifetimesOverlap(const Buffer& a, const Buffer& b) { return !(a.first > b.last || b.first > a.last); }

// max(offset + size) for the given offsets.
Bytes PlanHeight(const Problem& problem, const std::vector<Offset>& offsets);

// last - first, saturating at the largest Step (first <= last).
Step StepsBetween(Step first, Step last);

// last - first + 1: the buffer's steps, saturating at the largest Step (first <= last).
Step LifetimeSteps(const Buffer& buffer);

// The median of LifetimeSteps over the buffers (1 when there are none): the time unit of the
// local-search planners' windows. O(n).
Step MedianLifetime(const std::vector<Buffer>& buffers);

// Upper limit on sum(size + alignment - 1) over all buffers, and on the same sum over the online
// ones plus max(fixed end) (the highest a plan can stack: online buffers above every fixed one):
// below it no planner arithmetic (offsets, heights, live-byte sums) can overflow an int64.
inline constexpr Bytes kMaxTotalBytes = Bytes{1} << 60;

// Checks what every planner relies on: size > 0, first <= last, alignment > 0, fixed offsets
// >= 0 and aligned, capacity >= 0, totals below kMaxTotalBytes. The error names the buffer. O(n).
Status ValidateProblem(const Problem& problem);

// "buffer 3 (size 16, steps [1, 4])" for messages.
std::string DescribeBuffer(const Problem& problem, size_t index);

}  // namespace arenaplan::plan
