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

std::vector<ScheduledPad> ReadSchedule(const model::Graph& g) {
  std::vector<ScheduledPad> out;
  for (const auto& m : g.metadata) {
    if (!m || m->name != rules::kScheduleMetadataName || m->buffer >= g.buffers.size()) continue;
    const auto& data = g.buffers[m->buffer]->data;
    auto word = [&data](size_t i) {
      uint32_t v = 0;
      for (int k = 0; k < 4; ++k) v |= static_cast<uint32_t>(data[4 * i + static_cast<size_t>(k)]) << (8 * k);
      return static_cast<int32_t>(v);
    };
    if (data.size() < 8) break;
    const size_t n = static_cast<size_t>(std::max(0, word(1)));
    for (size_t i = 0; i < n && 4 * (2 + (i + 1) * rules::kScheduleRecordWords) <= data.size(); ++i) {
      const size_t w = 2 + i * rules::kScheduleRecordWords;
      const int32_t s = word(w), op = word(w + 1);
      if (s < 0 || static_cast<size_t>(s) >= g.subgraphs.size() || op < 0 ||
          static_cast<size_t>(op) >= g.subgraphs[static_cast<size_t>(s)]->operators.size())
        continue;
      ScheduledPad p;
      p.subgraph = s;
      p.op = g.subgraphs[static_cast<size_t>(s)]->operators[static_cast<size_t>(op)].get();
      p.in_place = word(w + 2) == static_cast<int32_t>(rules::ScheduleKind::kInPlace);
      if (word(w + 2) == static_cast<int32_t>(rules::ScheduleKind::kStream)) {
        p.stream_ops = word(w + 3);
        p.stream_overlap = word(w + 4) == 1 ? word(w + 5) : -1;
      }
      p.pad = ExplicitPad{word(w + 3), word(w + 4), word(w + 5), word(w + 6), word(w + 7)};
      out.push_back(p);
    }
    break;
  }
  return out;
}

void WriteSchedule(model::Graph& g, const std::vector<ScheduledPad>& pads) {
  using Record = std::array<int32_t, rules::kScheduleRecordWords>;
  std::vector<Record> records;
  for (const ScheduledPad& p : pads) {
    if (p.subgraph < 0 || static_cast<size_t>(p.subgraph) >= g.subgraphs.size()) continue;
    const auto& ops = g.subgraphs[static_cast<size_t>(p.subgraph)]->operators;
    const auto it = std::find_if(ops.begin(), ops.end(), [&](const auto& op) { return op.get() == p.op; });
    if (it == ops.end()) continue;
    const int32_t op = static_cast<int32_t>(it - ops.begin());
    if (p.stream_ops > 0) {
      const bool overlap = p.stream_overlap >= 0;
      records.push_back({p.subgraph, op, static_cast<int32_t>(rules::ScheduleKind::kStream), p.stream_ops,
                         overlap ? 1 : 0, overlap ? p.stream_overlap : 0, 0, 0});
    } else if (p.in_place) {
      records.push_back({p.subgraph, op, static_cast<int32_t>(rules::ScheduleKind::kInPlace), 0, 0, 0, 0, 0});
    } else {
      records.push_back({p.subgraph, op, static_cast<int32_t>(rules::ScheduleKind::kExplicitPadding), p.pad.top,
                         p.pad.bottom, p.pad.left, p.pad.right, p.pad.value});
    }
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
