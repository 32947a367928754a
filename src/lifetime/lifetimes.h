// When each buffer of a model is alive, on host data: rules/lifetimes.h's walk (TFLM's
// AllocationInfoBuilder, the same code the runtime runs: one time counter across subgraphs,
// control flow walked from subgraph 0, variable tensors unplanned unless offline-placed, offline
// offsets from the model's metadata, scratch requests attached to their op), wrapped with ids,
// names and std::vector. Knows how buffers are born and die, not where they go.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/model.h"
#include "plan/problem.h"
#include "rules/io_options.h"
#include "rules/plan_buffer.h"
#include "util/result.h"

namespace arenaplan::lifetime {

// A kernel scratch buffer: {bytes, op_index}, the op numbered over all subgraphs (GlobalOp).
using rules::ScratchRequest;

// The global index of op `op` of subgraph `subgraph` (ScratchRequest::op_index).
uint32_t GlobalOp(const model::Model& model, size_t subgraph, size_t op);

struct Options {
  uint32_t alignment = 16;              // sizes are rounded up to this (TFLM: 16)
  std::vector<ScratchRequest> scratch;  // in request (= op) order; TFLM numbers them 0..n-1
  bool use_offline_plan = true;         // honour the model's OfflineMemoryAllocation
  // Application-owned I/O and kept tensors (rules/io_options.h): external inputs / outputs of
  // subgraph 0 are left out; kept tensors (subgraph-0 indices) live to the end of the run.
  rules::ExternalIo external_io = rules::ExternalIo::kNone;
  std::vector<uint32_t> keep;
};

// One planned buffer, in TFLM's AddBuffer order: tensors of subgraph 0, 1, ..., then scratch.
struct BufferLifetime {
  std::string id;         // "s<X>t<Y>" or "scratch<N>"
  int32_t subgraph = -1;  // tensor buffers: subgraph index; scratch: the requesting op's subgraph
  int32_t tensor = -1;    // tensor index within the subgraph; -1 for scratch
  int32_t scratch = -1;   // scratch request index; -1 for tensors
  int32_t op = -1;        // scratch: requesting op index
  std::string name;       // tensor name, or "scratch<N> (<OP> #<i>)"
  uint64_t bytes = 0;     // unrounded byte size
  uint64_t size = 0;      // rounded up to Options::alignment
  int64_t first = -1;     // inclusive, TFLM's global time counter (-1 = never set)
  int64_t last = -1;
  int64_t offline_offset = -1;  // from the offline plan; -1 = planned online
};

struct Lifetimes {
  std::vector<BufferLifetime> buffers;
  int64_t steps = 0;               // the final value of the time counter
  std::vector<uint32_t> external;  // subgraph-0 tensors TFLM would plan, left to the application
};

// Fails on a kept index that is not a tensor of subgraph 0 (InvalidArgument), on what TFLM would reject while planning
// (rules::CheckPlannable: STRING or other unsized tensor types, non-zero intermediates -> Unsupported), on a malformed
// offline plan and on scratch requests out of op order or naming no op (InvalidArgument). The model must come from
// model::ReadModel (the walk reads its flatbuffer).
Result<Lifetimes> ComputeLifetimes(const model::Model& model, const Options& options = {});

// The plain planning problem for these lifetimes, buffer i = lifetimes.buffers[i]: size = bytes
// rounded up to `alignment`, [first, last] as computed (-1 kept), fixed_offset = the offline
// offset, alignment = `alignment` (1 for a fixed buffer whose offline offset is not a multiple of
// it: TFLM uses offline offsets as given). A zero-byte scratch request keeps size 0 (TFLM plans it
// so); plan::ValidateProblem rejects such a buffer, so callers drop or pad it. O(n).
plan::Problem ToProblem(const Lifetimes& lifetimes, uint32_t alignment = 16);

}  // namespace arenaplan::lifetime
