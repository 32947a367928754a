#include "graph/edit.h"

#include <algorithm>
#include <cstring>

namespace arenaplan::graph {

BuiltinOperator OpCode(const Graph& g, const tflo::OperatorT& op) {
  const auto& c = *g.operator_codes[op.opcode_index];
  return static_cast<BuiltinOperator>(
      std::max<int32_t>(c.deprecated_builtin_code, static_cast<int32_t>(c.builtin_code)));
}

std::string OpName(const Graph& g, const tflo::OperatorT& op) {
  const BuiltinOperator code = OpCode(g, op);
  if (code == BuiltinOperator::CUSTOM) return "CUSTOM:" + g.operator_codes[op.opcode_index]->custom_code;
  const char* name = tflo::EnumNameBuiltinOperator(code);
  return name != nullptr && *name != '\0' ? name : "UNKNOWN_" + std::to_string(static_cast<int32_t>(code));
}

uint32_t OpCodeIndex(Graph& g, BuiltinOperator code, int32_t version) {
  for (uint32_t i = 0; i < g.operator_codes.size(); ++i) {
    const auto& c = *g.operator_codes[i];
    const auto have = std::max<int32_t>(c.deprecated_builtin_code, static_cast<int32_t>(c.builtin_code));
    if (have == static_cast<int32_t>(code) && code != BuiltinOperator::CUSTOM) return i;
  }
  auto c = std::make_unique<tflo::OperatorCodeT>();
  c->builtin_code = code;
  c->deprecated_builtin_code = static_cast<int8_t>(std::min<int32_t>(static_cast<int32_t>(code), 127));
  c->version = version;
  g.operator_codes.push_back(std::move(c));
  return static_cast<uint32_t>(g.operator_codes.size() - 1);
}

int32_t AddTensorLike(tflo::SubGraphT& sg, const tflo::TensorT& like, const std::string& name,
                      std::vector<int32_t> shape) {
  auto t = std::make_unique<tflo::TensorT>();
  t->name = name;
  t->type = like.type;
  t->shape = std::move(shape);
  t->has_rank = like.has_rank;
  if (like.quantization) t->quantization = std::make_unique<tflo::QuantizationParametersT>(*like.quantization);
  sg.tensors.push_back(std::move(t));
  return static_cast<int32_t>(sg.tensors.size() - 1);
}

int32_t AddInt32Constant(Graph& g, tflo::SubGraphT& sg, const std::string& name, std::vector<int32_t> shape,
                         const std::vector<int32_t>& values) {
  auto b = std::make_unique<tflo::BufferT>();
  b->data.resize(values.size() * sizeof(int32_t));
  if (!values.empty()) std::memcpy(b->data.data(), values.data(), b->data.size());
  g.buffers.push_back(std::move(b));
  auto t = std::make_unique<tflo::TensorT>();
  t->name = name;
  t->type = tflo::TensorType::INT32;
  t->shape = std::move(shape);
  t->has_rank = true;
  t->buffer = static_cast<uint32_t>(g.buffers.size() - 1);
  sg.tensors.push_back(std::move(t));
  return static_cast<int32_t>(sg.tensors.size() - 1);
}

tflo::OperatorT& AddOperator(Graph& g, tflo::SubGraphT& sg, BuiltinOperator code, std::vector<int32_t> inputs,
                             std::vector<int32_t> outputs) {
  auto op = std::make_unique<tflo::OperatorT>();
  op->opcode_index = OpCodeIndex(g, code);
  op->inputs = std::move(inputs);
  op->outputs = std::move(outputs);
  sg.operators.push_back(std::move(op));
  return *sg.operators.back();
}

bool IsConstant(const Graph& g, const tflo::SubGraphT& sg, int32_t t) {
  if (t < 0 || static_cast<size_t>(t) >= sg.tensors.size()) return false;
  const uint32_t b = sg.tensors[static_cast<size_t>(t)]->buffer;
  return b != 0 && b < g.buffers.size() && (!g.buffers[b]->data.empty() || g.buffers[b]->size > 0);
}

namespace {

void Remap(std::vector<int32_t>& v, const std::vector<int32_t>& to) {
  for (int32_t& i : v) {
    if (i >= 0) i = to[static_cast<size_t>(i)];
  }
}

// Drops unreferenced tensors of one subgraph; returns old -> new (-1 = dropped).
std::vector<int32_t> PruneTensors(tflo::SubGraphT& sg, const std::vector<bool>& extra_used) {
  std::vector<bool> used = extra_used;
  used.resize(sg.tensors.size(), false);
  auto mark = [&](const std::vector<int32_t>& v) {
    for (int32_t i : v) {
      if (i >= 0 && static_cast<size_t>(i) < used.size()) used[static_cast<size_t>(i)] = true;
    }
  };
  mark(sg.inputs);
  mark(sg.outputs);
  for (const auto& op : sg.operators) {
    mark(op->inputs);
    mark(op->outputs);
    mark(op->intermediates);
  }
  std::vector<int32_t> to(sg.tensors.size(), -1);
  std::vector<std::unique_ptr<tflo::TensorT>> kept;
  for (size_t i = 0; i < sg.tensors.size(); ++i) {
    if (!used[i]) continue;
    to[i] = static_cast<int32_t>(kept.size());
    kept.push_back(std::move(sg.tensors[i]));
  }
  sg.tensors = std::move(kept);
  Remap(sg.inputs, to);
  Remap(sg.outputs, to);
  for (auto& op : sg.operators) {
    Remap(op->inputs, to);
    Remap(op->outputs, to);
    Remap(op->intermediates, to);
  }
  return to;
}

void PruneBuffers(Graph& g) {
  std::vector<bool> used(g.buffers.size(), false);
  if (!used.empty()) used[0] = true;
  for (const auto& sg : g.subgraphs) {
    for (const auto& t : sg->tensors) {
      if (t->buffer < used.size()) used[t->buffer] = true;
    }
  }
  for (const auto& m : g.metadata) {
    if (m->buffer < used.size()) used[m->buffer] = true;
  }
  for (int32_t b : g.metadata_buffer) {
    if (b >= 0 && static_cast<size_t>(b) < used.size()) used[static_cast<size_t>(b)] = true;
  }
  std::vector<uint32_t> to(g.buffers.size(), 0);
  std::vector<std::unique_ptr<tflo::BufferT>> kept;
  for (size_t i = 0; i < g.buffers.size(); ++i) {
    if (!used[i]) continue;
    to[i] = static_cast<uint32_t>(kept.size());
    kept.push_back(std::move(g.buffers[i]));
  }
  g.buffers = std::move(kept);
  for (auto& sg : g.subgraphs) {
    for (auto& t : sg->tensors) t->buffer = t->buffer < to.size() ? to[t->buffer] : 0;
  }
  for (auto& m : g.metadata) m->buffer = m->buffer < to.size() ? to[m->buffer] : 0;
  for (int32_t& b : g.metadata_buffer)
    b = b >= 0 && static_cast<size_t>(b) < to.size() ? static_cast<int32_t>(to[static_cast<size_t>(b)]) : b;
}

}  // namespace

void PruneUnused(Graph& g) {
  for (size_t s = 0; s < g.subgraphs.size(); ++s) {
    std::vector<bool> signature_used;
    for (const auto& sig : g.signature_defs) {
      if (sig->subgraph_index != s) continue;
      for (const auto* maps : {&sig->inputs, &sig->outputs}) {
        for (const auto& m : *maps) {
          if (m->tensor_index >= signature_used.size()) signature_used.resize(m->tensor_index + 1, false);
          signature_used[m->tensor_index] = true;
        }
      }
    }
    const std::vector<int32_t> to = PruneTensors(*g.subgraphs[s], signature_used);
    for (auto& sig : g.signature_defs) {
      if (sig->subgraph_index != s) continue;
      for (auto* maps : {&sig->inputs, &sig->outputs}) {
        for (auto& m : *maps) {
          if (m->tensor_index < to.size() && to[m->tensor_index] >= 0)
            m->tensor_index = static_cast<uint32_t>(to[m->tensor_index]);
        }
      }
    }
  }
  PruneBuffers(g);
}

void RemoveMetadata(Graph& g, const std::string& name) {
  g.metadata.erase(std::remove_if(g.metadata.begin(), g.metadata.end(), [&](const auto& m) { return m->name == name; }),
                   g.metadata.end());
}

void SetMetadata(Graph& g, const std::string& name, const std::string& data) {
  RemoveMetadata(g, name);
  auto b = std::make_unique<tflo::BufferT>();
  b->data.assign(data.begin(), data.end());
  g.buffers.push_back(std::move(b));
  auto m = std::make_unique<tflo::MetadataT>();
  m->name = name;
  m->buffer = static_cast<uint32_t>(g.buffers.size() - 1);
  g.metadata.push_back(std::move(m));
}

}  // namespace arenaplan::graph
