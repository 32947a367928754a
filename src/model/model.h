// A verified, read-only view of a .tflite model as plain host data. Constant tensor data is not
// copied: Buffer::data points into the caller's bytes, which must outlive the Model.
// Knows nothing of planning or TFLM.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/result.h"

namespace arenaplan::model {

// Values are the TFLite schema's TensorType values.
enum class TensorType : int8_t {
  kFloat32 = 0,
  kFloat16 = 1,
  kInt32 = 2,
  kUInt8 = 3,
  kInt64 = 4,
  kString = 5,
  kBool = 6,
  kInt16 = 7,
  kComplex64 = 8,
  kInt8 = 9,
  kFloat64 = 10,
  kComplex128 = 11,
  kUInt64 = 12,
  kResource = 13,
  kVariant = 14,
  kUInt32 = 15,
  kUInt16 = 16,
  kInt4 = 17,
  kBFloat16 = 18,
};

const char* TensorTypeName(TensorType type);  // "FLOAT32", ...
// Bytes per element as TFLM counts them (INT4 unpacked = 1); nullopt for STRING/VARIANT/unknown.
std::optional<uint32_t> TensorTypeBytes(TensorType type);

// Builtin operator codes used by name in the host libraries (TFLite schema values).
namespace op {
inline constexpr int32_t kCustom = 32;
inline constexpr int32_t kIf = 118;
inline constexpr int32_t kWhile = 119;
inline constexpr int32_t kCallOnce = 129;
inline constexpr int32_t kVarHandle = 142;
inline constexpr int32_t kReadVariable = 143;
inline constexpr int32_t kAssignVariable = 144;
}  // namespace op

// "CONV_2D" for a builtin code, "UNKNOWN_<n>" outside the known range.
std::string BuiltinOperatorName(int32_t code);

struct Quantization {
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  int32_t quantized_dimension = 0;
};

struct Tensor {
  std::string name;
  TensorType type = TensorType::kFloat32;
  std::vector<int32_t> shape;
  std::vector<int32_t> shape_signature;  // empty when absent
  uint32_t buffer = 0;                   // index into Model::buffers (0 = the empty buffer)
  bool is_variable = false;
  bool has_sparsity = false;
  std::optional<Quantization> quantization;  // present when the flatbuffer has scale or zero_point
  bool has_data = false;                     // constant: its buffer holds data
  // Elements x element bytes; nullopt when the type has no fixed size (STRING, VARIANT).
  // Shape products that overflow 64 bits are rejected by the reader.
  std::optional<uint64_t> bytes;
};

struct OperatorCode {
  int32_t builtin_code = 0;  // max(deprecated_builtin_code, builtin_code), as TFLM does
  std::string custom_code;   // for CUSTOM
  int32_t version = 1;
  std::string name;  // "CONV_2D" or "CUSTOM:<custom_code>" (as golden/models.csv)
};

struct Operator {
  uint32_t opcode_index = 0;    // into Model::operator_codes
  std::vector<int32_t> inputs;  // tensor indices; -1 = omitted optional input
  std::vector<int32_t> outputs;
  std::vector<int32_t> intermediates;
  std::vector<int32_t> called_subgraphs;  // IF (then, else), WHILE (cond, body), CALL_ONCE (init)
  uint8_t builtin_options_type = 0;       // the BuiltinOptions union tag
  bool adj_x = false;                     // BATCH_MATMUL: transpose the left / right operand
  bool adj_y = false;
  // CUSTOM ops' flexbuffer options, in place in the model bytes (nullptr when absent).
  const uint8_t* custom_options = nullptr;
  size_t custom_options_size = 0;
};

struct Subgraph {
  std::string name;
  std::vector<Tensor> tensors;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::vector<Operator> operators;
};

struct Buffer {
  const uint8_t* data = nullptr;  // into the model bytes; nullptr when empty
  uint64_t size = 0;
};

struct Metadata {
  std::string name;
  uint32_t buffer = 0;
};

// The metadata entry in which `arenaplan optimize` records what it rewrote: UTF-8 text, one line
// per rewrite (`inspect` shows it).
inline constexpr const char* kOptimizeMetadataName = "arenaplan_optimize";

// The OfflineMemoryAllocation metadata, decoded (see docs: version, subgraphs, N, N offsets).
struct OfflinePlan {
  int32_t version = 0;
  int32_t subgraphs_word = 0;
  std::vector<int32_t> offsets;  // one per tensor over all subgraphs, subgraph order; -1 = online
};

struct Model {
  uint32_t version = 0;
  std::string description;
  std::vector<OperatorCode> operator_codes;
  std::vector<Subgraph> subgraphs;
  std::vector<Buffer> buffers;
  std::vector<Metadata> metadata;
  // Present when the model has an OfflineMemoryAllocation entry whose buffer decodes; an entry
  // that is malformed (wrong count, bad offsets, misaligned) is reported by ValidateOfflinePlan.
  std::optional<OfflinePlan> offline_plan;
  // The bytes ReadModel was given (not owned): lets checks relate data to the file start.
  const uint8_t* file_data = nullptr;
  size_t file_size = 0;

  const OperatorCode& code_of(const Operator& op) const { return operator_codes[op.opcode_index]; }
  size_t total_tensors() const;
};

// Verifies the flatbuffer, then checks every index (tensor, buffer, opcode, subgraph) and every
// size; any violation is an InvalidArgument naming the subgraph / op / tensor. `bytes` must stay
// alive as long as the returned Model, and be 8-byte aligned as vector / malloc data is (the
// flatbuffer's scalars are read in place). A file that is not a flatbuffer gives "not a TFLite
// flatbuffer ...". Related: model/offline_plan.h (ValidateOfflinePlan), model/static_problems.h,
// model/writer.h (WriteModel, WriteModelCopyWithMetadata, DemoModel).
Result<Model> ReadModel(const uint8_t* bytes, size_t size);

}  // namespace arenaplan::model
