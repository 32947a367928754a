// TFLM's GreedyMemoryPlanner (docs/tflm-arena.md §4), in place over caller memory:
//   order: fixed (offline) buffers first in add order, then online buffers by size descending,
//          the later-added buffer first among equal sizes (TFLM bubble-sorts a list it fills in
//          reverse add order; insertion sort gives the same total order);
//   place: each online buffer walks the placed buffers in offset order, considering only those
//          whose lifetimes overlap its own, with a candidate starting at 0:
//            kFirstFit (TFLM): stop at the first neighbour starting at least `size` above the
//                              candidate, else move the candidate to that neighbour's end;
//            kBestFit:         take the smallest such gap (ties: the lowest), else the top; a gap
//                              is measured from the aligned candidate (the host's best-fit
//                              measures from the previous end: the two differ only after a
//                              fixed offset that is not a multiple of the alignment).
//          Candidates are rounded up to `alignment`. TFLM does not round, but it only ever sees
//          16-multiple sizes, so the two differ only after a fixed offset that is not a multiple
//          of the alignment (TFLM would misalign the next buffer).
// Tied buffers (`above`, optional): above[i] = j (else 0xFFFF) places online buffer j directly
// above online buffer i (offset_j = offset_i + size_i) — one tensor split into a long-lived part i
// and a shorter-lived rest j (lifetime_j within lifetime_i), as an in-place narrowing op or a
// stream writing its output over its input leaves it (runtime/head_planning.h, runtime/stream.h).
// j may have a buffer tied above it in turn (a stack; each buffer tied at most once, no cycles).
// The stack is ordered by its combined size and placed at the lowest aligned offset where no part
// meets a placed buffer live with it (first fit, under either rule); tied buffers are never
// ordered on their own.
// Fixed buffers stay where they are, overlapping or not. O(n^2) time, and no memory beyond the
// two uint16 arrays given (20 bytes per buffer in all, against TFLM's 32-byte AllocationInfo +
// 40-byte planner memory). The host's plan/tflm_greedy.h computes the same offsets in
// O(n log n) for 100k-buffer problems (tests/plan/greedy_differential_test.cc).
#pragma once

#include <cstdint>

#include "rules/plan_buffer.h"
#include "rules/status.h"

namespace arenaplan::rules {

enum class GapRule : uint8_t {
  kFirstFit,  // TFLM's
  kBestFit,   // the smallest gap that fits
};

// Places every kOnline buffer of buffers[0, n) (n <= kMaxPlanBuffers); `order` and `next` are
// working arrays of n entries. *head_bytes = max(offset + size). kUnsupported beyond the limit,
// kArenaFull when the plan would pass 2 GiB.
StatusCode PlaceBuffers(PlanBuffer* buffers, uint32_t n, uint32_t alignment, GapRule rule, uint16_t* order,
                        uint16_t* next, uint32_t* head_bytes, ErrorText* error, const uint16_t* above = nullptr);

}  // namespace arenaplan::rules
