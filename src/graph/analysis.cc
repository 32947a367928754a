#include "graph/analysis.h"

#include <algorithm>

#include "graph/schedule.h"
#include "graph/spatial_op.h"
#include "graph/stream.h"
#include "lifetime/lifetimes.h"
#include "rules/schedule.h"

namespace arenaplan::graph {

uint64_t GraphMacs(const model::Graph& g) {
  uint64_t total = 0;
  for (const auto& sg : g.subgraphs) {
    for (const auto& op : sg->operators) total += OpMacs(g, *sg, *op);
  }
  return total;
}

Result<MemoryProfile> ProfileMemory(const model::Model& view, const model::Graph& g) {
  lifetime::Options options;
  options.use_offline_plan = false;  // where the bytes are, not where a plan put them
  auto lifetimes = lifetime::ComputeLifetimes(view, options);
  if (!lifetimes.ok()) return lifetimes.status();
  // In-place depthwise (schedule.h): the output on its input's buffer where the runtime aliases
  // them (the input's lifetime ends where the output's begins), as the runtime plans it.
  std::vector<std::pair<int32_t, int32_t>> owner;  // (aliased tensor, the tensor whose buffer it is on)
  for (const ScheduledPad& r : ReadSchedule(g)) {
    if (!r.in_place || r.op->inputs.empty() || r.op->outputs.empty()) continue;
    auto find = [&](int32_t t) {
      return std::find_if(lifetimes->buffers.begin(), lifetimes->buffers.end(),
                          [&](const lifetime::BufferLifetime& b) { return b.subgraph == r.subgraph && b.tensor == t; });
    };
    if (OpCode(g, *r.op) == BuiltinOperator::QUANTIZE) {
      // Narrowing (the runtime's split): the output's bytes live from the input's first step, the
      // rest of the input's buffer dies with the input.
      auto x = find(r.op->inputs[0]), y = find(r.op->outputs[0]);
      const bool chained = std::any_of(owner.begin(), owner.end(), [&](const std::pair<int32_t, int32_t>& a) {
        return a.first == r.op->inputs[0] || a.second == r.op->inputs[0];
      });
      if (x == lifetimes->buffers.end() || y == lifetimes->buffers.end() || x == y || chained ||
          x->size <= y->size || x->last != y->first || x->offline_offset >= 0 || y->offline_offset >= 0)
        continue;
      y->first = x->first;
      x->size -= y->size;
      continue;
    }
    // The depthwise input, or an elementwise op's input 0, else 1 (the runtime's order).
    const size_t candidates = OpCode(g, *r.op) == BuiltinOperator::DEPTHWISE_CONV_2D ? 1 : 2;
    for (size_t k = 0; k < candidates; ++k) {
      int32_t xt = r.op->inputs[k];
      for (const auto& a : owner)
        if (r.subgraph == 0 && a.first == xt) xt = a.second;  // chains: the first input's buffer
      auto x = find(xt), y = find(r.op->outputs[0]);
      if (x == lifetimes->buffers.end() || y == lifetimes->buffers.end() || x == y || x->size != y->size ||
          x->last != y->first || x->offline_offset >= 0 || y->offline_offset >= 0)
        continue;
      x->last = y->last;
      y->size = 0;
      if (r.subgraph == 0) owner.push_back({r.op->outputs[0], xt});
      break;
    }
  }
  // Stream segments (stream.h), as the runtime plans them: intermediates are their windows, and
  // every buffer alive during a segment lives across it (op i runs at step i + 1).
  for (const ScheduledPad& r : ReadSchedule(g)) {
    if (r.stream_ops <= 0 || r.subgraph != 0) continue;
    const auto& ops = g.subgraphs[0]->operators;
    const auto at = std::find_if(ops.begin(), ops.end(), [&](const auto& o) { return o.get() == r.op; });
    const int64_t op = at - ops.begin(), from = op + 1, to = op + r.stream_ops;
    for (auto& b : lifetimes->buffers) {
      if (b.first < 0 || b.first > to || b.last < from) continue;
      b.first = std::min(b.first, from);
      b.last = std::max(b.last, to);
    }
    for (int64_t j = op + 1; j < to && j < static_cast<int64_t>(ops.size()); ++j) {
      const int32_t t = ops[static_cast<size_t>(j)]->inputs.empty() ? -1 : ops[static_cast<size_t>(j)]->inputs[0];
      for (auto& b : lifetimes->buffers)
        if (b.subgraph == 0 && b.tensor == t && t >= 0) b.size = StreamWindowBytes(g, static_cast<int32_t>(j));
    }
    // Output over input (rules::SplitStreamPair, as the runtime's OverlapStreams): where X dies at
    // the segment, Y's bytes live from X's first step and X keeps only what lies above them.
    if (r.stream_overlap < 0 || to > static_cast<int64_t>(ops.size()) || r.op->inputs.empty()) continue;
    const auto& last = ops[static_cast<size_t>(to - 1)];
    if (last->outputs.size() != 1) continue;
    int32_t xt = r.op->inputs[0];
    for (const auto& a : owner)
      if (a.first == xt) xt = a.second;
    auto find = [&](int32_t t) {
      return std::find_if(lifetimes->buffers.begin(), lifetimes->buffers.end(),
                          [&](const lifetime::BufferLifetime& b) { return b.subgraph == 0 && b.tensor == t; });
    };
    auto x = find(xt), y = find(last->outputs[0]);
    if (x == lifetimes->buffers.end() || y == lifetimes->buffers.end() || x == y || x->size == 0 || y->size == 0 ||
        x->offline_offset >= 0 || y->offline_offset >= 0)
      continue;
    rules::SplitStreamPair(*x, *y, x->size, y->size, from, to, static_cast<uint64_t>(r.stream_overlap));
  }
  MemoryProfile p;
  p.macs = GraphMacs(g);
  if (!g.subgraphs.empty()) {
    for (const auto& op : g.subgraphs[0]->operators) p.op_macs.push_back(OpMacs(g, *g.subgraphs[0], *op));
  }
  // Difference array over steps: +size at first, -size after last.
  const int64_t steps = lifetimes->steps;
  std::vector<int64_t> delta(static_cast<size_t>(steps) + 2, 0);
  for (const auto& b : lifetimes->buffers) {
    if (b.first < 0 || b.last < b.first) continue;
    delta[static_cast<size_t>(b.first)] += static_cast<int64_t>(b.size);
    delta[static_cast<size_t>(b.last) + 1] -= static_cast<int64_t>(b.size);
  }
  int64_t live = 0;
  for (int64_t t = 0; t <= steps; ++t) {
    live += delta[static_cast<size_t>(t)];
    p.live_bytes.push_back(static_cast<uint64_t>(live));
    if (static_cast<uint64_t>(live) > p.peak_bytes) {
      p.peak_bytes = static_cast<uint64_t>(live);
      p.peak_step = t;
    }
  }
  for (const auto& b : lifetimes->buffers) {
    if (b.first <= p.peak_step && p.peak_step <= b.last) p.alive_at_peak.push_back({b.name, b.size, b.first, b.last});
  }
  std::stable_sort(p.alive_at_peak.begin(), p.alive_at_peak.end(),
                   [](const AliveBuffer& a, const AliveBuffer& b) { return a.bytes > b.bytes; });
  const auto& ops = view.subgraphs.empty() ? std::vector<model::Operator>{} : view.subgraphs[0].operators;
  if (p.peak_step == 0) {
    p.peak_op = "inputs";
  } else if (static_cast<size_t>(p.peak_step) <= ops.size()) {
    const auto& op = ops[static_cast<size_t>(p.peak_step - 1)];
    p.peak_op = "op " + std::to_string(p.peak_step - 1) + " (" + view.code_of(op).name + ")";
  } else {
    p.peak_op = "step " + std::to_string(p.peak_step);
  }
  return p;
}

}  // namespace arenaplan::graph
