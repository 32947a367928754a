#include "graph/in_place.h"

#include <algorithm>
#include <string>

#include "graph/schedule.h"

namespace arenaplan::graph {

namespace {

// True when an op after op i (execution order) reads tensor t.
bool ReadAfter(const tflo::SubGraphT& sg, int32_t t, size_t i) {
  for (size_t k = i + 1; k < sg.operators.size(); ++k) {
    const auto& in = sg.operators[k]->inputs;
    if (std::find(in.begin(), in.end(), t) != in.end()) return true;
  }
  return false;
}

// Why depthwise op i cannot run in place ("" when it can).
std::string WhyNot(const model::Graph& g, const tflo::SubGraphT& sg, const tflo::OperatorT& op, size_t i) {
  if (op.inputs.empty() || op.outputs.empty() || op.inputs[0] < 0 || op.outputs[0] < 0) return "no input or output";
  const int32_t x = op.inputs[0];
  const auto& in = *sg.tensors[static_cast<size_t>(x)];
  const auto& out = *sg.tensors[static_cast<size_t>(op.outputs[0])];
  if (IsConstant(g, sg, x)) return "its input is constant";
  if (in.shape != out.shape || in.type != out.type) return "its output differs from its input in shape or type";
  if (ReadAfter(sg, x, i)) return "its input is read after it";
  if (std::find(sg.outputs.begin(), sg.outputs.end(), x) != sg.outputs.end()) return "its input is a subgraph output";
  return "";
}

// Why elementwise op i cannot run in place ("" when it can): input 0 or 1 an activation of the
// output's shape and type that no later op reads (the other input may broadcast).
std::string WhyNotElementwise(const model::Graph& g, const tflo::SubGraphT& sg, const tflo::OperatorT& op,
                              size_t i) {
  if (op.inputs.size() != 2 || op.outputs.empty() || op.outputs[0] < 0 || op.inputs[0] < 0 || op.inputs[1] < 0)
    return "not two inputs and an output";
  const auto& out = *sg.tensors[static_cast<size_t>(op.outputs[0])];
  for (int32_t t : op.inputs) {
    const auto& in = *sg.tensors[static_cast<size_t>(t)];
    if (in.shape == out.shape && in.type == out.type && !IsConstant(g, sg, t) && !ReadAfter(sg, t, i) &&
        std::find(sg.outputs.begin(), sg.outputs.end(), t) == sg.outputs.end())
      return "";
  }
  return "no input of the output's shape that no later op reads";
}

// Why QUANTIZE op i cannot write over its input ("" when it can): a float32 activation no later
// op reads, quantized to a 1- or 2-byte type (the kernel's forward walk writes output i only
// after reading input i; rules/schedule.h).
std::string WhyNotQuantize(const model::Graph& g, const tflo::SubGraphT& sg, const tflo::OperatorT& op, size_t i) {
  if (op.inputs.size() != 1 || op.outputs.size() != 1 || op.inputs[0] < 0 || op.outputs[0] < 0)
    return "not one input and one output";
  const int32_t x = op.inputs[0];
  const auto& in = *sg.tensors[static_cast<size_t>(x)];
  const auto out_type = sg.tensors[static_cast<size_t>(op.outputs[0])]->type;
  if (in.type != tflo::TensorType::FLOAT32) return "its input is not float32";
  if (out_type != tflo::TensorType::INT8 && out_type != tflo::TensorType::UINT8 && out_type != tflo::TensorType::INT16)
    return "its output is not int8, uint8 or int16";
  if (IsConstant(g, sg, x)) return "its input is constant";
  if (ReadAfter(sg, x, i)) return "its input is read after it";
  if (std::find(sg.outputs.begin(), sg.outputs.end(), x) != sg.outputs.end()) return "its input is a subgraph output";
  return "";
}

}  // namespace

PassReport MarkInPlace(model::Graph& g) {
  PassReport r;
  int32_t depthwise_ops = 0, elementwise_ops = 0, quantize_ops = 0;
  std::vector<ScheduledPad> records = ReadSchedule(g);
  for (size_t s = 0; s < g.subgraphs.size(); ++s) {
    const auto& sg = *g.subgraphs[s];
    for (size_t i = 0; i < sg.operators.size(); ++i) {
      const auto& op = *sg.operators[i];
      const BuiltinOperator code = OpCode(g, op);
      const bool elementwise =
          code == BuiltinOperator::ADD || code == BuiltinOperator::SUB || code == BuiltinOperator::MUL;
      const bool quantize = code == BuiltinOperator::QUANTIZE;
      if (code != BuiltinOperator::DEPTHWISE_CONV_2D && !elementwise && !quantize) continue;
      const std::string why = quantize      ? WhyNotQuantize(g, sg, op, i)
                              : elementwise ? WhyNotElementwise(g, sg, op, i)
                                            : WhyNot(g, sg, op, i);
      if (!why.empty()) {
        if (!elementwise && !quantize)
          r.skipped.push_back("in place: op " + std::to_string(i) + " (DEPTHWISE_CONV_2D): " + why);
        continue;
      }
      ++(quantize ? quantize_ops : elementwise ? elementwise_ops : depthwise_ops);
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
    r.done.push_back("in place: " + std::to_string(depthwise_ops) +
                     " DEPTHWISE_CONV_2D (one channel plane of scratch each) and " + std::to_string(elementwise_ops) +
                     " ADD / SUB / MUL may write over an input" +
                     (quantize_ops > 0 ? ", " + std::to_string(quantize_ops) +
                                             " float QUANTIZE over the first bytes of its input (the rest freed)"
                                       : std::string()) +
                     " (arenaplan_schedule; arenaplan's runtime only)");
  }
  return r;
}

}  // namespace arenaplan::graph
