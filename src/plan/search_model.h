// The shared vocabulary of the exact search's parts (optimal_search, skyline_search, window_bound):
// how a search ends, the limits it runs under, and the section model of a set of buffers.
// Internal to the optimal planner, not a stable interface.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "plan/problem.h"

namespace arenaplan::plan::optimal_internal {

enum class Outcome {
  kFound,      // a placement within the capacity (offsets filled)
  kNotFound,   // proven: nothing fits within the capacity (the search was complete)
  kBudget,     // node budget spent (one restart), no answer
  kTimeout,    // deadline passed, no answer
  kCancelled,  // cancel flag set, no answer
};
const char* OutcomeName(Outcome outcome);

// Called with the current run's node count about every kHeartbeatInterval while a search runs
// (progress reports); may be null.
using Heartbeat = std::function<void(int64_t run_nodes)>;
inline constexpr auto kHeartbeatInterval = std::chrono::milliseconds(100);

using TimePoint = std::chrono::steady_clock::time_point;

// Time as the exact search reads it when the caller wants the same answer on every machine
// (PlannerOptions::work_time): it advances only with the search's steps, kTimePerStep each (a
// search node; glueing and filler sets are charged in steps of about the same cost, see
// Limits::Charge), so every stage's share of the limit, and so the whole search, repeats exactly
// however fast the machine is and under sanitizers.
class WorkClock {
 public:
  // The order of a step's cost in Release here (a work second took 1.5-2.7 s of wall time on
  // packings and MiniMalloc's J), so that limits keep their order of magnitude.
  static constexpr std::chrono::nanoseconds kTimePerStep{1000};
  TimePoint now() const { return TimePoint{} + kTimePerStep * steps_; }
  void Tick() { ++steps_; }
  void Add(int64_t steps) { steps_ += steps; }

 private:
  int64_t steps_ = 0;
};

struct Limits {
  TimePoint deadline;
  const std::atomic<bool>* cancel = nullptr;
  const Heartbeat* heartbeat = nullptr;
  WorkClock* work = nullptr;  // null: the wall clock
  // Set when the search racing this one (DecisionSearch's other direction in time) has answered:
  // this one then stops as if cancelled.
  const std::atomic<bool>* answered = nullptr;

  TimePoint now() const { return work != nullptr ? work->now() : std::chrono::steady_clock::now(); }
  bool Answered() const { return answered != nullptr && answered->load(std::memory_order_relaxed); }
  bool Expired() const { return Answered() || now() >= deadline; }
  bool Cancelled() const { return cancel != nullptr && cancel->load(std::memory_order_relaxed); }
  // Work outside the searches' nodes, in steps, so that a work clock keeps near the wall clock
  // (no-op on the wall clock).
  void Charge(int64_t steps) const {
    if (work != nullptr) work->Add(steps);
  }
};

// The point `share` (0..1) of the way from now to `deadline`: a stage's own deadline within its
// caller's. A deadline already past stays as it is.
inline TimePoint ShareOfTimeLeft(TimePoint now, TimePoint deadline, double share) {
  if (deadline <= now) return deadline;
  return now + std::chrono::duration_cast<std::chrono::steady_clock::duration>((deadline - now) * share);
}
inline TimePoint ShareOfTimeLeft(TimePoint deadline, double share) {
  return ShareOfTimeLeft(std::chrono::steady_clock::now(), deadline, share);
}
// The same limits with `share` of their time left.
inline Limits ShareOf(const Limits& limits, double share) {
  Limits l = limits;
  l.deadline = ShareOfTimeLeft(limits.now(), limits.deadline, share);
  return l;
}

// Reads the clock and the cancel flag every 8 calls (a search node costs about a microsecond, the
// clock ~25 ns): the deadline holds to well under a millisecond. Beats the heartbeat on time (the
// wall clock's, whichever clock the limits count). Each call is a step of a search: a work clock
// ticks.
class StopCheck {
 public:
  void Reset(const Limits& limits) {
    limits_ = limits;
    ticks_ = 0;
    next_beat_ = std::chrono::steady_clock::now() + kHeartbeatInterval;
  }
  // kFound while the run may go on, else kTimeout or kCancelled. `nodes`: the run's so far.
  Outcome Poll(int64_t nodes) {
    if (limits_.work != nullptr) limits_.work->Tick();
    if ((++ticks_ & 7) != 0) return Outcome::kFound;
    if (limits_.Cancelled() || limits_.Answered()) return Outcome::kCancelled;
    const TimePoint wall = std::chrono::steady_clock::now();
    if ((limits_.work != nullptr ? limits_.work->now() : wall) >= limits_.deadline) return Outcome::kTimeout;
    if (limits_.heartbeat != nullptr && wall >= next_beat_) {
      (*limits_.heartbeat)(nodes);
      next_beat_ = wall + kHeartbeatInterval;
    }
    return Outcome::kFound;
  }

 private:
  Limits limits_;
  uint64_t ticks_ = 0;
  TimePoint next_beat_;
};

// Sections: the maximal time spans over which the set of live buffers does not change, numbered
// 0..num_sections-1 in time order. A buffer lives in sections [span_begin, span_end).
struct Sections {
  int num_sections = 0;
  std::vector<Step> points;  // section s is the steps [points[s], points[s + 1])
  std::vector<int> span_begin, span_end;
  std::vector<Bytes> online_load;  // per section: sizes of the online buffers live there
};
// O(n log n).
Sections BuildSections(const std::vector<Buffer>& buffers);

// The buffers with time reversed (step t becomes first + last - t over the problem's span [first,
// last]): the same offsets are a plan of both. The searches branch left to right, so on the
// mirror image they explore another order. Requires CanMirrorInTime.
bool CanMirrorInTime(const std::vector<Buffer>& buffers);  // the span's length fits a Step
std::vector<Buffer> MirroredInTime(std::vector<Buffer> buffers);

// Ints the exact search would store for these buffers: both directions of every time-overlapping
// pair plus one entry per section each buffer spans. Counted in O(n log n) without storing them.
uint64_t SearchFootprint(const std::vector<Buffer>& buffers);
// Building a search (pairs, sections, the stages' copies) cannot stop midway and took 12-25 ns
// per footprint int (0.24 s for IOPDDL S's 10.6 M-int anchoring window): callers with a deadline
// start a build only when this estimate of it ends before the deadline, so that the time limit
// holds.
constexpr std::chrono::nanoseconds kBuildPerFootprintInt{30};
inline bool BuildEndsBefore(uint64_t footprint, TimePoint deadline) {
  const auto now = std::chrono::steady_clock::now();
  if (now >= deadline) return false;
  const uint64_t left_ns = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(deadline - now).count());
  return footprint < left_ns / static_cast<uint64_t>(kBuildPerFootprintInt.count());
}

}  // namespace arenaplan::plan::optimal_internal
