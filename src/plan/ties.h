// Ties: a constraint stated beside a plain problem. Tie{below, above} puts buffer `above` directly
// on buffer `below` (offset_above = offset_below + size_below): one block of memory split into
// two buffers with different lifetimes (the runtime's in-place QUANTIZE: the output's bytes and
// the rest of the float input above them). Knows nothing of .tflite.
//
// The planners place rectangles and know nothing of ties; PlanAndVerifyTied honours them for any
// planner by planning each pair as one buffer (the two sizes summed, over the union of the two
// lifetimes) and splitting it back. That is exact for the pair's bytes but gives up the notch
// (the upper part's bytes after it dies until the lower part dies), so a tie-aware placement
// (the runtime's rules::PlaceBuffers) can be lower. VerifyTies checks a plan keeps every tie.
#pragma once

#include <cstddef>
#include <vector>

#include "plan/plan_and_verify.h"
#include "plan/verify.h"

namespace arenaplan::plan {

struct Tie {
  size_t below = 0;
  size_t above = 0;
};

// Ties may stack (a buffer both on one and under another: a stream's output under the rest of a
// QUANTIZE's output under the rest of its float input), never in a cycle; each buffer at most once
// below and once above, indices in range, tied buffers unfixed, and every part's alignment
// dividing the stack's bottom alignment and the part's offset in the stack (so the bottom's
// alignment carries over). InvalidArgument naming the buffers. O(n + ties).
Status ValidateTies(const Problem& problem, const std::vector<Tie>& ties);

// The problem with each stack of tied buffers merged into one buffer (at the bottom buffer's
// place; the others dropped). index[i] = the merged buffer holding buffer i, delta[i] = i's offset within it.
struct MergedTies {
  Problem problem;
  std::vector<size_t> index;
  std::vector<Offset> delta;
};
MergedTies MergeTies(const Problem& problem, const std::vector<Tie>& ties);  // ties validated

// Offsets of the original buffers from offsets of the merged ones.
std::vector<Offset> SplitTies(const MergedTies& merged, const std::vector<Offset>& merged_offsets);

// One error per broken tie (kTieBroken: the upper buffer not at the lower one's end), at most
// `max_errors`. O(ties).
std::vector<VerifyIssue> VerifyTies(const Problem& problem, const std::vector<Tie>& ties, const Plan& plan,
                                    size_t max_errors = 16);

// PlanAndVerify on the merged problem, split back, then checked by the verifier on the original
// problem and by VerifyTies (an invalid result is an internal error). Without ties: PlanAndVerify.
Result<PlanResult> PlanAndVerifyTied(const Problem& problem, const std::vector<Tie>& ties, const std::string& planner,
                                     const PlannerOptions& options = {});

}  // namespace arenaplan::plan
