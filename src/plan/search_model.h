// The shared vocabulary of the exact search's parts (optimal_search, skyline_search, window_bound):
// how a search ends, the limits it runs under, and the section model of a set of buffers.
// Internal to the optimal planner, not a stable interface.
#pragma once

#include <atomic>
#include <chrono>
#include <vector>

#include "plan/problem.h"

namespace arenaplan::plan::optimal_internal {

enum class Outcome {
  kFound,     // a placement within the capacity (offsets filled)
  kNotFound,  // proven: nothing fits within the capacity (the search was complete)
  kBudget,    // node budget spent (one restart), no answer
  kTimeout,   // deadline passed, no answer
  kCancelled, // cancel flag set, no answer
};
const char* OutcomeName(Outcome outcome);

struct Limits {
  std::chrono::steady_clock::time_point deadline;
  const std::atomic<bool>* cancel = nullptr;
};

// Reads the clock and the cancel flag every 8 calls (a search node costs about a microsecond, the
// clock ~25 ns): the deadline holds to well under a millisecond.
class StopCheck {
 public:
  void Reset(const Limits& limits) {
    limits_ = limits;
    ticks_ = 0;
  }
  // kFound while the run may go on, else kTimeout or kCancelled.
  Outcome Poll() {
    if ((++ticks_ & 7) != 0) return Outcome::kFound;
    if (limits_.cancel != nullptr && limits_.cancel->load(std::memory_order_relaxed)) return Outcome::kCancelled;
    if (std::chrono::steady_clock::now() >= limits_.deadline) return Outcome::kTimeout;
    return Outcome::kFound;
  }

 private:
  Limits limits_;
  uint64_t ticks_ = 0;
};

// Sections: the maximal time spans over which the set of live buffers does not change, numbered
// 0..num_sections-1 in time order. A buffer lives in sections [span_begin, span_end).
struct Sections {
  int num_sections = 0;
  std::vector<Step> points;             // section s is the steps [points[s], points[s + 1])
  std::vector<int> span_begin, span_end;
  std::vector<Bytes> online_load;       // per section: sizes of the online buffers live there
};
// O(n log n).
Sections BuildSections(const std::vector<Buffer>& buffers);

}  // namespace arenaplan::plan::optimal_internal
