// The host side of arenaplan's execution schedule (rules/schedule.h, which the runtime reads):
// explicit paddings of operators and operators that may run in place, written into the graph's arenaplan_schedule metadata with the
// operators' indices at the time of writing (so write it last: a later pass that moves operators
// would make it wrong, and passes refuse graphs that have one). Host only. O(records log records
// + ops).
#pragma once

#include <cstdint>
#include <vector>

#include "model/graph.h"

namespace arenaplan::graph {

struct ExplicitPad {
  int32_t top = 0, bottom = 0, left = 0, right = 0, value = 0;
};

struct ScheduledPad {
  int32_t subgraph = 0;
  const tflo::OperatorT* op = nullptr;  // an operator of that subgraph
  ExplicitPad pad;
  bool in_place = false;  // a kInPlace record (pad unused) instead of explicit padding
  int32_t stream_ops = 0;  // > 0: a kStream record of this many ops from op (pad, in_place unused)
  int32_t stream_overlap = -1;  // >= 0: its output may be written over its input, which starts this many bytes above
};

// The graph's schedule, ops resolved to the graph's operators (records naming no op are dropped).
std::vector<ScheduledPad> ReadSchedule(const model::Graph& g);

// True when the graph carries an arenaplan_schedule metadata entry.
bool HasSchedule(const model::Graph& g);

// Replaces the graph's schedule with these records (ops looked up by identity; records whose op
// is no longer in its subgraph are dropped). No records: the entry is removed.
void WriteSchedule(model::Graph& g, const std::vector<ScheduledPad>& pads);

}  // namespace arenaplan::graph
