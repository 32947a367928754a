// Reading a .tflite flatbuffer the way TFLM does, without copying anything: builtin codes, op
// names, tensor sizes, where a buffer's data lies, which subgraphs an op calls, and the global
// numbering of tensors and operators over all subgraphs (subgraph 0 first, as TFLM's
// OfflineMemoryAllocation and AddBuffer order count them). Every function here assumes the model
// passed CheckModel (rules/model_check.h) unless it says otherwise. O(1) each unless stated.
#pragma once

#include <cstddef>
#include <cstdint>

#include "schema/tflite_generated.h"

namespace arenaplan::rules {

template <typename T>
uint32_t Size(const flatbuffers::Vector<T>* v) {
  return v != nullptr ? v->size() : 0;
}

// The bytes of a .tflite file: the flatbuffer plus, for large models, buffer data behind it.
struct ModelFile {
  const uint8_t* data = nullptr;
  size_t size = 0;
};

// max(builtin_code, deprecated_builtin_code), as TFLite reads an OperatorCode.
int32_t BuiltinCode(const tfl::OperatorCode& code);

// "CONV_2D", "CUSTOM:<custom_code>" (as ../shared/golden/models.csv spells ops) or "UNKNOWN_<n>"
// into buf (truncated to cap - 1 characters; the custom code is copied raw: print it with %s,
// which escapes). Returns buf.
const char* OpName(const tfl::OperatorCode& code, char* buf, uint32_t cap);

// Element size in bytes as TFLM counts it (INT4 unpacked: 1); 0 for STRING, VARIANT and values
// outside the schema's enum.
uint32_t TypeBytes(tfl::TensorType type);

// Shape product x element size, saturating at UINT64_MAX; a negative dimension counts as 0
// (CheckModel rejects it). O(rank).
uint64_t TensorBytes(const tfl::Tensor& tensor);

// The data of buffer `index`: its inline vector, else (large models) the range [offset, offset +
// size) of the file. *data is nullptr and *bytes 0 when the buffer is empty, out of range, or its
// range is not inside the file (CheckModel reports that case).
void BufferData(const tfl::Model& model, const ModelFile& file, uint32_t index, const uint8_t** data, uint64_t* bytes);

// The int32 little-endian word at p (metadata words: flatbuffers' byte order on every target),
// read byte-wise at any alignment.
int32_t LittleEndianWord(const uint8_t* p);

// Entry k (< v.size()) of an int64 vector such as a tensor's zero points. flatbuffers' Verifier
// checks only a vector's 4-byte alignment, so its 8-byte values may sit misaligned even in a valid
// file: read byte-wise, little-endian.
int64_t Int64At(const flatbuffers::Vector<int64_t>& v, uint32_t k);

// The subgraphs op calls (IF: then, else; WHILE: cond, body; CALL_ONCE: init) into out[0..1];
// returns how many, 0 for an op without control flow. Missing options read as subgraph 0.
uint32_t CalledSubgraphs(const tfl::Model& model, const tfl::Operator& op, int32_t out[2]);

// Tensor and operator numbering over all subgraphs. The base arrays have num_subgraphs + 1
// entries (the last is the total) and belong to the caller (the runtime keeps them in its arena).
struct ModelIndex {
  const tfl::Model* model = nullptr;
  uint32_t num_subgraphs = 0;
  const uint32_t* tensor_base = nullptr;  // global index of subgraph s's tensor 0
  const uint32_t* op_base = nullptr;      // global index of subgraph s's op 0

  const tfl::SubGraph& subgraph(uint32_t s) const { return *model->subgraphs()->Get(s); }
  uint32_t total_tensors() const { return tensor_base[num_subgraphs]; }
  uint32_t total_ops() const { return op_base[num_subgraphs]; }
  // The subgraph holding global tensor t (t < total_tensors()). O(log subgraphs).
  uint32_t SubgraphOfTensor(uint32_t t) const;
  const tfl::Tensor& tensor(uint32_t global) const;
  const tfl::Operator& op(uint32_t s, uint32_t i) const { return *subgraph(s).operators()->Get(i); }
  const tfl::OperatorCode& code_of(const tfl::Operator& op) const {
    return *model->operator_codes()->Get(op.opcode_index());
  }
};

// Fills tensor_base and op_base (num_subgraphs + 1 entries each) for a checked model.
void FillModelIndex(const tfl::Model& model, uint32_t* tensor_base, uint32_t* op_base);

}  // namespace arenaplan::rules
