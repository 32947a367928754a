#include "graph/int8_io.h"

#include <algorithm>

namespace arenaplan::graph {

namespace {

using B = BuiltinOperator;

int32_t Uses(const tflo::SubGraphT& sg, int32_t t, size_t* reader) {
  int32_t n = 0;
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    for (int32_t x : sg.operators[i]->inputs) {
      if (x == t) {
        ++n;
        *reader = i;
      }
    }
  }
  return n;
}

void Rename(model::Graph& g, size_t s, int32_t from, int32_t to) {
  for (auto& sig : g.signature_defs) {
    if (sig->subgraph_index != s) continue;
    for (auto* maps : {&sig->inputs, &sig->outputs}) {
      for (auto& m : *maps) {
        if (m->tensor_index == static_cast<uint32_t>(from)) m->tensor_index = static_cast<uint32_t>(to);
      }
    }
  }
}

bool IsInteger8(tflo::TensorType t) {
  return t == tflo::TensorType::INT8 || t == tflo::TensorType::UINT8 || t == tflo::TensorType::INT16;
}

void Inputs(model::Graph& g, PassReport& r) {
  auto& sg = *g.subgraphs[0];
  for (int32_t& in : sg.inputs) {
    size_t reader = 0;
    if (in < 0) continue;
    const auto& t = *sg.tensors[static_cast<size_t>(in)];
    if (t.type != tflo::TensorType::FLOAT32) continue;
    if (Uses(sg, in, &reader) != 1 || OpCode(g, *sg.operators[reader]) != B::QUANTIZE ||
        std::count(sg.outputs.begin(), sg.outputs.end(), in) > 0) {
      r.skipped.push_back("input " + t.name + ": not read by one QUANTIZE alone");
      continue;
    }
    if (sg.operators[reader]->outputs.size() != 1 || sg.operators[reader]->outputs[0] < 0) continue;
    const int32_t q = sg.operators[reader]->outputs[0];
    if (!IsInteger8(sg.tensors[static_cast<size_t>(q)]->type)) continue;
    r.done.push_back("input " + t.name + " (FLOAT32) replaced by " + sg.tensors[static_cast<size_t>(q)]->name + " (" +
                     tflo::EnumNameTensorType(sg.tensors[static_cast<size_t>(q)]->type) + "), op " +
                     std::to_string(reader) + " (QUANTIZE) removed");
    Rename(g, 0, in, q);
    in = q;
    sg.operators.erase(sg.operators.begin() + static_cast<long>(reader));
    ++r.applied;
  }
}

void Outputs(model::Graph& g, PassReport& r) {
  auto& sg = *g.subgraphs[0];
  for (int32_t& out : sg.outputs) {
    if (out < 0) continue;
    const auto& t = *sg.tensors[static_cast<size_t>(out)];
    if (t.type != tflo::TensorType::FLOAT32) continue;
    size_t writer = sg.operators.size(), reader = 0;
    for (size_t i = 0; i < sg.operators.size(); ++i) {
      if (std::count(sg.operators[i]->outputs.begin(), sg.operators[i]->outputs.end(), out)) writer = i;
    }
    if (writer == sg.operators.size() || OpCode(g, *sg.operators[writer]) != B::DEQUANTIZE ||
        Uses(sg, out, &reader) != 0) {
      r.skipped.push_back("output " + t.name + ": not written by a DEQUANTIZE alone");
      continue;
    }
    if (sg.operators[writer]->inputs.empty() || sg.operators[writer]->inputs[0] < 0) continue;
    const int32_t q = sg.operators[writer]->inputs[0];
    if (!IsInteger8(sg.tensors[static_cast<size_t>(q)]->type) || Uses(sg, q, &reader) != 1) continue;
    r.done.push_back("output " + t.name + " (FLOAT32) replaced by " + sg.tensors[static_cast<size_t>(q)]->name +
                     ", op " + std::to_string(writer) + " (DEQUANTIZE) removed");
    Rename(g, 0, out, q);
    out = q;
    sg.operators.erase(sg.operators.begin() + static_cast<long>(writer));
    ++r.applied;
  }
}

}  // namespace

PassReport QuantizedIo(model::Graph& g) {
  PassReport r;
  if (g.subgraphs.empty()) return r;
  Inputs(g, r);
  Outputs(g, r);
  if (r.applied > 0) {
    RemoveMetadata(g, "OfflineMemoryAllocation");
    PruneUnused(g);
  }
  return r;
}

}  // namespace arenaplan::graph
