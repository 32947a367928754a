// TFLM's allocation sequence on one MicroAllocator, step by step (docs/tflm-arena.md §1, §2, §7), so
// that one model (arena_size.h) and several models sharing one allocator (shared_arena.h) are sized
// by the same replay:
//   PrepareModel: what does not depend on where the model's allocations fall: the kernel table rows,
//     TFLM's type checks, the scratch requests and the head plan;
//   AllocatorReplay: the arena itself. The constructor puts MicroAllocator::Create's objects in the
//     tail; Allocate(model) replays one AllocateTensors from the current tail: StartModelAllocation
//     (resets the head to the scratch-request array), Init and Prepare of every op,
//     FinishModelAllocation (CommitStaticMemoryPlan with its temporary peak, then the head set to
//     max_head_buffer_usage_, the largest plan so far), the I/O TfLiteTensors.
// Each tail allocation is aligned from where the previous one ended, so a model's tail depends on
// what was allocated before it. O(tensors + ops) per Allocate; the plan costs what its planner does.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/model.h"
#include "tflm/arena_size.h"
#include "tflm/kernels.h"
#include "tflm/prepare_temp.h"
#include "tflm/target.h"
#include "util/result.h"

namespace arenaplan::tflm {

// The order-independent part of sizing a model.
struct PreparedModel {
  const model::Model* model = nullptr;
  bool use_offline_plan = true;
  // target, planner, notes; error set and allocates false when AllocateTensors fails before the tail
  // matters (registration, a type check at AllocateTensors, a tensor TFLM cannot plan).
  ArenaSize size;
  bool fails_allocation = false;
  std::string invoke_error;                       // the first type check that fails at Invoke
  std::vector<std::vector<OpAllocation>> allocs;  // per subgraph, per op
  uint64_t scratch_requests = 0;
  uint64_t total_tensors = 0;
};

// Errors: as ComputeArenaSize (malformed model, an op the kernel table lacks).
Result<PreparedModel> PrepareModel(const model::Model& model, const Target& target, const std::string& planner,
                                   bool use_offline_plan);

// The note `size` carries when safe_arena_bytes > min_arena_bytes.
std::string PrepareOverwriteNote(const ArenaSize& size);

class AllocatorReplay {
 public:
  explicit AllocatorReplay(const Target& target);  // MicroAllocator::Create's objects in the tail

  // One AllocateTensors of a model that passed PrepareModel (fails_allocation false). Returns the
  // model's part: head_bytes (its plan), tail_bytes and tail_breakdown (what it added, padding
  // included), arena_used_bytes (MicroInterpreter::arena_used_bytes() right after it: the largest
  // head so far + the whole tail), planning_peak_bytes (absolute), ops, notes.
  ArenaSize Allocate(const PreparedModel& p);

  uint64_t tail_used() const { return tail_used_; }
  uint64_t max_head() const { return max_head_; }
  uint64_t arena_used() const { return max_head_ + tail_used_; }
  uint64_t allocator_object_bytes() const { return fixed_bytes_; }
  // The whole tail by category, in first-allocation order.
  std::vector<TailCategory> TailBreakdown() const;
  // The smallest 16-multiple arena in which every Allocate so far succeeds, and the one from which
  // every larger arena does (prepare_temp.h).
  uint64_t MinArena() const;
  uint64_t SafeArena() const;

 private:
  uint64_t Alloc(uint64_t size, uint64_t align, const char* category);
  void StartModelAllocation(const PreparedModel& p, ArenaSize& r);
  void InitAndPrepare(const PreparedModel& p, ArenaSize& r);
  void FinishModelAllocation(const PreparedModel& p, ArenaSize& r);
  void IoTensors(const model::Subgraph& sg, const std::vector<int32_t>& list);

  const Target& target_;
  uint64_t tail_used_ = 0;  // arena_end - tail; the arena end is 16-aligned
  uint64_t fixed_bytes_ = 0;
  uint64_t max_head_ = 0;  // MicroAllocator::max_head_buffer_usage_
  uint64_t floor_ = 0;     // the largest planning-time peak so far
  struct Categories {
    std::map<std::string, uint64_t> bytes;
    std::vector<std::string> order;
    void Add(const char* category, uint64_t n);
    std::vector<TailCategory> List() const;
  };
  Categories all_, model_;  // the whole tail; the model being allocated
  PrepareTempModel temps_;
};

}  // namespace arenaplan::tflm
