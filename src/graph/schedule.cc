#include "graph/schedule.h"

#include <algorithm>
#include <array>
#include <string>

#include "graph/edit.h"
#include "rules/schedule.h"

namespace arenaplan::graph {

bool HasSchedule(const model::Graph& g) {
  return std::any_of(g.metadata.begin(), g.metadata.end(),
                     [](const auto& m) { return m && m->name == rules::kScheduleMetadataName; });
}

void WriteSchedule(model::Graph& g, const std::vector<ScheduledPad>& pads) {
  using Record = std::array<int32_t, rules::kScheduleRecordWords>;
  std::vector<Record> records;
  for (const ScheduledPad& p : pads) {
    if (p.subgraph < 0 || static_cast<size_t>(p.subgraph) >= g.subgraphs.size()) continue;
    const auto& ops = g.subgraphs[static_cast<size_t>(p.subgraph)]->operators;
    const auto it = std::find_if(ops.begin(), ops.end(), [&](const auto& op) { return op.get() == p.op; });
    if (it == ops.end()) continue;
    records.push_back({p.subgraph, static_cast<int32_t>(it - ops.begin()),
                       static_cast<int32_t>(rules::ScheduleKind::kExplicitPadding), p.pad.top, p.pad.bottom, p.pad.left,
                       p.pad.right, p.pad.value});
  }
  RemoveMetadata(g, rules::kScheduleMetadataName);
  if (records.empty()) return;
  std::sort(records.begin(), records.end());  // (subgraph, op, kind) first: the order the runtime checks
  std::string bytes;
  auto put = [&bytes](int32_t v) {
    const auto u = static_cast<uint32_t>(v);
    for (int k = 0; k < 4; ++k) bytes.push_back(static_cast<char>((u >> (8 * k)) & 0xFF));
  };
  put(rules::kScheduleVersion);
  put(static_cast<int32_t>(records.size()));
  for (const Record& r : records)
    for (int32_t v : r) put(v);
  SetMetadata(g, rules::kScheduleMetadataName, bytes);
}

}  // namespace arenaplan::graph
