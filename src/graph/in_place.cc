#include "graph/in_place.h"

#include <algorithm>
#include <string>

#include "graph/schedule.h"

namespace arenaplan::graph {

namespace {

// Ops reading tensor t, counting an op once.
int32_t ReaderCount(const tflo::SubGraphT& sg, int32_t t) {
  int32_t n = 0;
  for (const auto& op : sg.operators) n += std::find(op->inputs.begin(), op->inputs.end(), t) != op->inputs.end();
  return n;
}

// Why op cannot run in place ("" when it can).
std::string WhyNot(const model::Graph& g, const tflo::SubGraphT& sg, const tflo::OperatorT& op) {
  if (op.inputs.empty() || op.outputs.empty() || op.inputs[0] < 0 || op.outputs[0] < 0) return "no input or output";
  const int32_t x = op.inputs[0];
  const auto& in = *sg.tensors[static_cast<size_t>(x)];
  const auto& out = *sg.tensors[static_cast<size_t>(op.outputs[0])];
  if (IsConstant(g, sg, x)) return "its input is constant";
  if (in.shape != out.shape || in.type != out.type) return "its output differs from its input in shape or type";
  if (ReaderCount(sg, x) != 1) return "its input has other readers";
  if (std::find(sg.outputs.begin(), sg.outputs.end(), x) != sg.outputs.end()) return "its input is a subgraph output";
  return "";
}

}  // namespace

PassReport MarkInPlace(model::Graph& g) {
  PassReport r;
  std::vector<ScheduledPad> records = ReadSchedule(g);
  for (size_t s = 0; s < g.subgraphs.size(); ++s) {
    const auto& sg = *g.subgraphs[s];
    for (size_t i = 0; i < sg.operators.size(); ++i) {
      const auto& op = *sg.operators[i];
      if (OpCode(g, op) != BuiltinOperator::DEPTHWISE_CONV_2D) continue;
      const std::string why = WhyNot(g, sg, op);
      if (!why.empty()) {
        r.skipped.push_back("in place: op " + std::to_string(i) + " (DEPTHWISE_CONV_2D): " + why);
        continue;
      }
      ScheduledPad p;
      p.subgraph = static_cast<int32_t>(s);
      p.op = &op;
      p.in_place = true;
      records.push_back(p);
      ++r.applied;
    }
  }
  if (r.applied > 0) {
    WriteSchedule(g, records);
    PruneUnused(g);
    r.done.push_back("in place: " + std::to_string(r.applied) +
                     " DEPTHWISE_CONV_2D may write over their input, one channel plane of scratch each "
                     "(arenaplan_schedule; arenaplan's runtime only)");
  }
  return r;
}

}  // namespace arenaplan::graph
