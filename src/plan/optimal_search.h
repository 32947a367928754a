// The optimal planner's exact decision search (the algorithm: optimal.h). Internal to
// optimal.cc and optimal_search.cc: no other file includes this header.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
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

struct Limits {
  std::chrono::steady_clock::time_point deadline;
  const std::atomic<bool>* cancel = nullptr;
};

// The exact decision search over one set of buffers (normally one time partition). Built once,
// queried at many capacities. Buffers must be valid (size > 0, first <= last, alignment > 0,
// fixed offsets aligned and >= 0).
class DecisionSearch {
 public:
  explicit DecisionSearch(const std::vector<Buffer>& buffers);
  ~DecisionSearch();
  DecisionSearch(const DecisionSearch&) = delete;
  DecisionSearch& operator=(const DecisionSearch&) = delete;

  // Proven bound: max over sections of online load + the largest fixed buffer live there, and
  // every fixed buffer's end.
  Bytes lower_bound() const;
  // Finds offsets with every buffer ending at or below `capacity`, or proves none exist. Runs
  // restarts over several static orders with doubling node budgets until one finishes.
  Outcome Decide(Bytes capacity, const Limits& limits, std::vector<Offset>* offsets);
  // One run with one static order ("WAT": descending lifetime Width, Area, busiest secTion;
  // also Z size, C sections spanned, O overlap count) and a node budget (<= 0: unlimited).
  Outcome Run(Bytes capacity, const std::string& order, int64_t node_budget, const Limits& limits,
              std::vector<Offset>* offsets);
  // Total nodes over all calls so far.
  int64_t nodes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace arenaplan::plan::optimal_internal
