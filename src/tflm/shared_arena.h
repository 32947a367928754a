// The exact arena stock TFLM needs when several models share one MicroAllocator (TFLM's
// multi-tenant use: MicroAllocator::Create once, then one MicroInterpreter per model on it,
// AllocateTensors in the given order). The rule, from TFLM's allocator (allocator_replay.h):
//   * MicroAllocator::Create's objects are in the tail once;
//   * each model's AllocateTensors appends its persistent allocations (resource variables, builtin
//     data allocator, eval tensors, nodes, op data, variables, I/O tensors) below the tail the
//     previous model left, each aligned from there: a model's tail depends on what came before;
//   * the head is reused: StartModelAllocation resets it to the scratch-request array, and after
//     each plan it is set to max_head_buffer_usage_, the largest plan so far; so the shared head is
//     the largest model's plan, and arena_used_bytes() after model k = max(head 1..k) + tail so far;
//   * the smallest arena is the largest of every model's planning and Prepare peaks (taken from
//     the tail left before it) and the final head + tail.
// Models run one at a time (their heads overlap). The cheapest order is found by replaying every
// order for up to kMaxOrderSearchModels models (n! replays of the tails; the plans are computed
// once per model). O(n * (tensors + ops)) per order plus each model's plan.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/model.h"
#include "tflm/arena_size.h"
#include "tflm/target.h"
#include "util/result.h"

namespace arenaplan::tflm {

inline constexpr size_t kMaxOrderSearchModels = 6;

struct Tenant {
  std::string name;  // for messages (the file name)
  const model::Model* model = nullptr;
};

struct OrderSearch {
  bool searched = false;     // false: more than kMaxOrderSearchModels models, or one does not allocate
  std::vector<size_t> best;  // indices into the given models, in allocation order
  uint64_t best_min_arena_bytes = 0;
  uint64_t best_arena_used_bytes = 0;
  uint64_t orders_tried = 0;
};

struct SharedArenaSize {
  std::string target;
  std::string planner;
  bool allocates = false;               // every model's AllocateTensors succeeds
  bool supported = false;               // and every Invoke
  std::string error;                    // "<model name>: <why>" for the first model that fails
  uint64_t allocator_object_bytes = 0;  // MicroAllocator::Create's objects, counted once
  uint64_t head_bytes = 0;              // the largest model's plan
  uint64_t tail_bytes = 0;              // the whole tail
  uint64_t arena_used_bytes = 0;        // head + tail, every interpreter's arena_used_bytes()
  uint64_t min_arena_bytes = 0;         // smallest 16-multiple arena where all allocate and invoke
  uint64_t safe_arena_bytes = 0;        // from which every larger arena works
  uint64_t planned_buffers = 0;         // over all models
  uint64_t scratch_requests = 0;
  std::vector<TailCategory> tail_breakdown;  // the whole tail by category
  // Per model, in allocation order: head_bytes = its plan, tail_bytes / tail_breakdown = what it
  // added to the tail, arena_used_bytes = arena_used_bytes() right after its AllocateTensors.
  std::vector<ArenaSize> models;
  OrderSearch cheapest;
  std::vector<std::string> notes;
};

// Errors: as ComputeArenaSize, the message prefixed with the model's name.
Result<SharedArenaSize> ComputeSharedArenaSize(const std::vector<Tenant>& tenants, const Target& target,
                                               const std::string& planner = "tflm-greedy");

}  // namespace arenaplan::tflm
