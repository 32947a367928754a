// Small edits on the editable graph that every pass needs: add a tensor, an int32 constant, an
// operator (with its op code looked up or added), and drop tensors and buffers nothing refers to
// (renumbering every index: operators, subgraph inputs / outputs, signature defs). Also how the
// passes name things in messages. Host only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/graph.h"

namespace arenaplan::graph {

using model::Graph;
using tflo::BuiltinOperator;

// The builtin code of `op` (max of the two code fields, as TFLM reads it).
BuiltinOperator OpCode(const Graph& g, const tflo::OperatorT& op);
std::string OpName(const Graph& g, const tflo::OperatorT& op);  // "CONV_2D", "CUSTOM:name"

// Index of the operator code for `code` (version kept from an existing entry), added if absent.
uint32_t OpCodeIndex(Graph& g, BuiltinOperator code, int32_t version = 1);

// Appends a tensor with `like`'s type and quantization, and `shape`; returns its index.
int32_t AddTensorLike(tflo::SubGraphT& sg, const tflo::TensorT& like, const std::string& name,
                      std::vector<int32_t> shape);
// Appends a constant INT32 tensor (its own buffer) holding `values` with `shape`.
int32_t AddInt32Constant(Graph& g, tflo::SubGraphT& sg, const std::string& name, std::vector<int32_t> shape,
                         const std::vector<int32_t>& values);
// Appends an operator; returns a reference to it for options.
tflo::OperatorT& AddOperator(Graph& g, tflo::SubGraphT& sg, BuiltinOperator code, std::vector<int32_t> inputs,
                             std::vector<int32_t> outputs);

// True when tensor `t` of `sg` holds constant data.
bool IsConstant(const Graph& g, const tflo::SubGraphT& sg, int32_t t);

// Removes tensors no operator, subgraph input / output or signature refers to, then buffers no
// tensor or metadata entry refers to (buffer 0 stays). O(tensors + op inputs + buffers).
void PruneUnused(Graph& g);

// Removes metadata entry `name` (its buffer goes with the next PruneUnused).
void RemoveMetadata(Graph& g, const std::string& name);
// Sets metadata entry `name` to `data` (a new buffer; an existing entry of that name is replaced).
void SetMetadata(Graph& g, const std::string& name, const std::string& data);

}  // namespace arenaplan::graph
