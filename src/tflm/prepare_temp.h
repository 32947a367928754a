// What TFLM's kernel Prepare calls need of the arena while they hold temporary TfLiteTensors
// (MicroContext::AllocateTempInput/OutputTensor, kernels.h TempAllocation), node by node:
//   * each temp allocation fails unless it fits below the tail: arena >= tail + temp end;
//   * a persistent buffer a kernel fills while temps are live is checked only against the head,
//     so it may land on temp memory; Prepare still works unless it overwrites bytes read later
//     (the tensor structs, the quantization structs' pointers). Whether it does depends on where
//     the tail is, i.e. on the arena size, and not monotonically: a buffer can fit in a gap
//     between critical bytes at one size and hit them 16 bytes later.
// Smallest() finds the smallest arena meeting every constraint; Safe() the one from which every
// larger arena does. O(temps) to record, O(constraints x critical ranges) per probed size.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "tflm/kernels.h"

namespace arenaplan::tflm {

class PrepareTempModel {
 public:
  // A node's Prepare begins: temp starts above the scratch-request array (`head` bytes).
  void BeginNode(uint64_t head);
  // A temp allocation while the tail holds `tail_used` bytes.
  void Temp(const TempAllocation& t, uint64_t tail_used);
  // A persistent buffer of `bytes` the node took; the tail holds `tail_used_after` with it.
  void Persistent(uint64_t bytes, uint64_t tail_used_after, OpAllocation::Write write);

  // The smallest multiple of 16 >= floor (a multiple of 16) that meets every constraint.
  uint64_t Smallest(uint64_t floor) const;
  // The smallest multiple of 16 >= floor from which every larger arena meets them.
  uint64_t Safe(uint64_t floor) const;

 private:
  using Range = std::pair<uint64_t, uint64_t>;  // [begin, end) from the arena start
  struct Overlap {
    uint64_t tail_used_after = 0, bytes = 0;
    std::vector<Range> critical;
  };
  bool Works(uint64_t arena) const;

  uint64_t temp_ = 0;
  uint64_t lower_ = 0;                           // the arena must be at least this
  std::vector<Range> critical_, critical_last_;  // of the node being prepared
  std::vector<Overlap> overlaps_;
};

}  // namespace arenaplan::tflm
