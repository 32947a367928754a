// How many bytes each planned buffer moves per inference, the traffic of the multi-region cost
// model (plan/region_problem.h): a tensor's bytes once for its writer (the op that produces it,
// or the application for a model input) plus once per op that reads it (an op listing it twice
// reads it once) plus once when the application reads it as a model output; a kernel scratch
// buffer's bytes twice (its op writes and reads it). Ops inside called subgraphs count once, as
// written in the model (a WHILE body's repetitions are unknown statically). O(ops x inputs + n).
#pragma once

#include <cstdint>
#include <vector>

#include "lifetime/lifetimes.h"
#include "model/model.h"

namespace arenaplan::lifetime {

// One figure per lifetimes.buffers entry, in the same order.
std::vector<int64_t> BufferTraffic(const model::Model& model, const Lifetimes& lifetimes);

}  // namespace arenaplan::lifetime
