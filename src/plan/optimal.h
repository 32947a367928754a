// The provably optimal planner: the smallest arena that exists for a given schedule, with a
// certificate (PlanStatus::kOptimal only when proven).
//
// Algorithm (our own implementation of the ideas in shared/docs/minimalloc.md):
//  * Preprocess: cut the timeline where nothing is alive into independent partitions; in each,
//    build sections (maximal time spans with a constant live set), each buffer's section span and
//    its list of time-overlapping neighbours (CSR).
//  * Decision search at a capacity C (one partition): depth-first, each level places one more
//    buffer, the branching choice is WHICH buffer goes next; it goes at the lowest offset its placed
//    neighbours allow ("gravity"). Complete because every packing can be dropped into such a form.
//    Prunes: canonical sequences only (offsets non-decreasing, ties by static rank), dominance
//    (skip a candidate that sits at or above some other buffer's lowest possible top), per-section
//    floor + remaining load > C, "hatless" (a placement nothing can rest on is never undone by a
//    sibling), and dynamic decomposition: when a placement leaves no unplaced buffer across a
//    section boundary, the groups on either side are solved one after the other, each with a
//    fresh canonical order (and, in half of the restarts, fresh ranks from the remaining loads);
//    one failing group fails the node. Restarts over three static orders x {re-rank, keep} with
//    doubling node budgets protect against one bad order.
//  * Minimisation: every partition's load bound is checked before any search; probe the lower
//    bound first, then bisect over reachable heights only (multiples of the gcd of sizes,
//    alignments and fixed offsets) between the best proven bound and the best plan (seeded by a
//    greedy). A NOT_FOUND proof at H refutes all heights <= H; a timeout proves nothing.
// Cost: O(n + S + E + L) memory (S sections, E overlapping pairs, L = sum of section live-set
// sizes), built only while 2E + L <= 64 n + 4M (counted first in O(n log n)): a denser time
// partition keeps its heuristic seed and section bound, so memory stays O(n); per search node O(k log k + S + rescans)
// for k candidates; unallocated floors are cached by a witness per section, so most nodes rescan nothing. The search is
// exponential in the worst case; time_limit_seconds and cancel bound it (the clock is read every 8 nodes) and the
// seeding (between best-fit variants and first-fit orders).
#pragma once

#include "plan/planner.h"
#include "plan/problem.h"
#include "util/result.h"

namespace arenaplan::plan {

// Minimise (options.minimize) or fit Problem::capacity (decision mode).
// Returns PlanResult with status:
//  kOptimal    proven: height equals the lower bound or every smaller height is refuted;
//  kFeasible   a valid plan without optimality proof (time ran out, or decision mode where the
//              plan fits but is not proven minimal); lower_bound = best proven bound;
//  kInfeasible proven: no plan fits under Problem::capacity (plan is empty).
// Errors: kInvalidArgument (malformed problem), kDeadlineExceeded / kCancelled when no plan within
// the capacity was found before the limit and none was refuted either.
// time_limit_seconds = 0 means 10 s. PlannerOptions::progress, when set, hears of the seed, of
// every probe's outcome and, while a probe runs, about every 100 ms (stage "optimal").
Result<PlanResult> PlanOptimal(const Problem& problem, const PlannerOptions& options);

}  // namespace arenaplan::plan
