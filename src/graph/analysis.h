// Where a model's memory goes: MACs per op, the bytes alive at every time step under TFLM's
// lifetime rules (tensors only, 16-byte rounded, as the planner sees them), the peak step and the
// buffers alive there. The same numbers pick split points for patching and explain a result.
// Depthwise convolutions the arenaplan schedule runs in place count their output on the input's
// buffer where the runtime aliases them (graph/in_place.h).
// O(buffers x log + ops).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/graph.h"
#include "model/model.h"
#include "util/result.h"

namespace arenaplan::graph {

struct AliveBuffer {
  std::string name;
  uint64_t bytes = 0;  // rounded to 16
  int64_t first = 0, last = 0;
};

struct MemoryProfile {
  uint64_t macs = 0;                       // all ops of all subgraphs
  std::vector<uint64_t> op_macs;           // subgraph 0, per op
  std::vector<uint64_t> live_bytes;        // per time step 0..steps (TFLM's counter)
  uint64_t peak_bytes = 0;                 // max of live_bytes: the planner's lower bound
  int64_t peak_step = 0;                   // first step at the peak (op peak_step - 1 runs there)
  std::string peak_op;                     // "op 12 (DEPTHWISE_CONV_2D)", or "inputs"
  std::vector<AliveBuffer> alive_at_peak;  // largest first
};

// `view` and `g` are the same model (the reader's view gives lifetimes, the graph MACs).
Result<MemoryProfile> ProfileMemory(const model::Model& view, const model::Graph& g);

// Total MACs of a graph (graph/spatial_op.h OpMacs over every op of every subgraph).
uint64_t GraphMacs(const model::Graph& g);

}  // namespace arenaplan::graph
