// Seeded synthetic problems for property tests, fuzzing and benchmarks (same seed, same problem
// on the same standard library).
//   kAdversarial: small problems full of edge cases — equal sizes, one-step and full-length
//                 lifetimes, alignments, fixed buffers (some deliberately on top of each other).
//   kTrace:       large inference-like traces — mostly short lifetimes walking forward in time,
//                 a few long-lived buffers, log-uniform 16-byte-rounded sizes, no fixed buffers.
//   kUniform:     n buffers over 2n steps, lifetimes uniform in 1..400 steps, start uniform, sizes
//                 uniform in 16 B..64 KiB (about 100 buffers alive at a time, whatever n).
//   kChain:       a plain sequential network: buffer i is born at step i and lives 2-4 steps,
//                 sizes uniform in 16 B..64 KiB (2-4 buffers alive at a time; one time-connected
//                 problem of n buffers, nothing splits it into pieces).
#pragma once

#include <cstdint>

#include "plan/problem.h"

namespace arenaplan::plan {

enum class RandomStyle { kAdversarial, kTrace, kUniform, kChain };

struct RandomProblemOptions {
  RandomStyle style = RandomStyle::kAdversarial;
  size_t buffers = 20;  // kAdversarial: upper bound (the count itself is random, >= 1)
  uint64_t seed = 0;
};

Problem RandomProblem(const RandomProblemOptions& options);

}  // namespace arenaplan::plan
