#include "plan/random_problem.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace arenaplan::plan {
namespace {

using Rng = std::mt19937_64;

int64_t Uniform(Rng& rng, int64_t lo, int64_t hi) {  // inclusive
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}
bool Chance(Rng& rng, double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }

Problem Adversarial(Rng& rng, size_t max_buffers) {
  Problem p;
  const size_t n = static_cast<size_t>(Uniform(rng, 1, static_cast<int64_t>(std::max<size_t>(max_buffers, 1))));
  const Step horizon = Uniform(rng, 1, 24);
  const bool few_sizes = Chance(rng, 0.4);  // many equal sizes (tie-breaks)
  const bool aligned = Chance(rng, 0.3);    // per-buffer alignments
  const double fixed_p = Chance(rng, 0.3) ? 0.25 : 0.0;
  static const Bytes kAlign[] = {1, 2, 4, 8, 16, 64};
  std::vector<Offset> fixed_spots;
  for (size_t i = 0; i < n; ++i) {
    Buffer b;
    b.size = few_sizes ? 16 * Uniform(rng, 1, 3) : Uniform(rng, 1, 1000);
    const int shape = static_cast<int>(Uniform(rng, 0, 9));
    if (shape == 0) {  // one step
      b.first = b.last = Uniform(rng, 0, horizon - 1);
    } else if (shape == 1) {  // whole horizon
      b.first = 0, b.last = horizon - 1;
    } else {
      b.first = Uniform(rng, -1, horizon - 1);  // -1: TFLM's "before the first op"
      b.last = Uniform(rng, std::max<Step>(b.first, 0), horizon - 1);
      if (b.first == -1 && b.last < 0) b.last = 0;
    }
    if (aligned) b.alignment = kAlign[Uniform(rng, 0, 5)];
    if (Chance(rng, fixed_p)) {
      // Reuse an earlier fixed spot half the time, so fixed buffers overlap each other.
      Offset at = !fixed_spots.empty() && Chance(rng, 0.5) ? fixed_spots[Uniform(rng, 0, fixed_spots.size() - 1)]
                                                           : Uniform(rng, 0, 2000);
      at -= at % b.alignment;
      b.fixed_offset = at;
      fixed_spots.push_back(at);
    }
    p.buffers.push_back(b);
  }
  return p;
}

Problem Trace(Rng& rng, size_t n) {
  Problem p;
  p.buffers.reserve(n);
  Step now = 0;
  for (size_t i = 0; i < n; ++i) {
    if (Chance(rng, 0.5)) ++now;  // about two new buffers per step
    Buffer b;
    const double log_size = std::uniform_real_distribution<double>(std::log(16.0), std::log(1 << 20))(rng);
    b.size = (static_cast<Bytes>(std::exp(log_size)) + 15) / 16 * 16;
    b.first = now;
    // Mostly 1-6 steps; 2% live long (skip connections, weights).
    const Step length = Chance(rng, 0.02) ? Uniform(rng, 50, 2000) : Uniform(rng, 0, 5);
    b.last = now + length;
    p.buffers.push_back(b);
  }
  return p;
}

Problem Chain(Rng& rng, size_t n) {
  Problem p;
  p.buffers.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    Buffer b;
    b.first = static_cast<Step>(i);
    b.last = b.first + Uniform(rng, 1, 3);
    b.size = Uniform(rng, 16, 65536);
    p.buffers.push_back(b);
  }
  return p;
}

Problem Uniform(Rng& rng, size_t n) {
  Problem p;
  p.buffers.reserve(n);
  const Step horizon = 2 * static_cast<Step>(n);
  for (size_t i = 0; i < n; ++i) {
    Buffer b;
    const Step length = Uniform(rng, 1, 400);
    b.first = Uniform(rng, 0, std::max<Step>(horizon - length, 0));
    b.last = b.first + length - 1;
    b.size = Uniform(rng, 16, 65536);
    p.buffers.push_back(b);
  }
  return p;
}

}  // namespace

Problem RandomProblem(const RandomProblemOptions& options) {
  Rng rng(options.seed);
  switch (options.style) {
    case RandomStyle::kAdversarial: return Adversarial(rng, options.buffers);
    case RandomStyle::kTrace: return Trace(rng, options.buffers);
    case RandomStyle::kUniform: return Uniform(rng, options.buffers);
    case RandomStyle::kChain: return Chain(rng, options.buffers);
  }
  return Problem{};
}

}  // namespace arenaplan::plan
