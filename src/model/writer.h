// Writing .tflite files: a plain-data ModelSpec serialised with flatbuffers (tests, the demo model),
// and a copy of an existing model with one metadata entry replaced or added (offline-plan export).
// The writer does not validate: it writes what it is given, so tests can build malformed models.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/model.h"
#include "util/result.h"

namespace arenaplan::model {

struct TensorSpec {
  std::string name;
  TensorType type = TensorType::kFloat32;
  std::vector<int32_t> shape;
  uint32_t buffer = 0;  // 0 = the empty buffer (not constant)
  bool is_variable = false;
  std::optional<Quantization> quantization{};  // written as scale / zero_point / quantized_dimension
  std::vector<int32_t> shape_signature{};      // omitted when empty
};

// Which BuiltinOptions table an operator carries, and the fields the writer knows.
enum class OptionsKind {
  kNone,
  kConv2D,
  kDepthwiseConv2D,
  kPool2D,
  kFullyConnected,
  kAdd,
  kReshape,
  kSoftmax,
  kIf,
  kWhile,
  kCallOnce,
  kBatchMatMul
};

struct OpOptions {
  OptionsKind kind = OptionsKind::kNone;
  bool padding_same = true;  // Conv2D, DepthwiseConv2D, Pool2D
  int32_t stride_w = 1, stride_h = 1;
  int32_t filter_w = 1, filter_h = 1;  // Pool2D
  int32_t depth_multiplier = 1;        // DepthwiseConv2D
  int8_t activation = 0;               // ActivationFunctionType: 0 NONE, 1 RELU, 3 RELU6
  float beta = 1.0f;                   // Softmax
  std::vector<int32_t> new_shape;      // Reshape
  int32_t subgraph_a = 0;              // IF then, WHILE cond, CALL_ONCE init
  int32_t subgraph_b = 0;              // IF else, WHILE body
  bool adj_x = false, adj_y = false;   // BatchMatMul
};

struct OperatorSpec {
  uint32_t opcode_index = 0;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::vector<int32_t> intermediates{};
  OpOptions options{};
  std::vector<uint8_t> custom_options{};  // CUSTOM ops (flexbuffer bytes); omitted when empty
};

struct SubgraphSpec {
  std::string name;
  std::vector<TensorSpec> tensors;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::vector<OperatorSpec> operators;
};

struct OperatorCodeSpec {
  int32_t builtin_code = 0;
  std::string custom_code;
  int32_t version = 1;
};

struct MetadataSpec {
  std::string name;
  uint32_t buffer = 0;
};

// A buffer whose data lies outside the flatbuffer (large models): offset from the file start.
struct ExternalBuffer {
  uint32_t index = 0;  // which entry of ModelSpec::buffers is written as {offset, size}
  uint64_t offset = 0;
  uint64_t size = 0;
};

struct ModelSpec {
  uint32_t version = 3;
  std::string description = "arenaplan";
  std::vector<OperatorCodeSpec> operator_codes;
  std::vector<SubgraphSpec> subgraphs;
  std::vector<std::vector<uint8_t>> buffers = {{}};  // buffer 0 is the empty buffer by convention
  std::vector<MetadataSpec> metadata;
  std::vector<ExternalBuffer> external_buffers;
};

// Serialises the spec (identifier "TFL3", buffer data 16-byte aligned). O(total size).
std::vector<uint8_t> WriteModel(const ModelSpec& spec);

// Appends a buffer, returns its index.
uint32_t AddBuffer(ModelSpec& spec, std::vector<uint8_t> data);
// Index of the operator code (builtin, custom), appended when not present yet.
uint32_t AddOperatorCode(ModelSpec& spec, int32_t builtin_code, const std::string& custom_code = "");
// Replaces the data of metadata entry `name` (first match) or adds the entry, with a new buffer.
void SetMetadata(ModelSpec& spec, const std::string& name, std::vector<uint8_t> data);

// A copy of the model in `bytes` in which metadata entry `name` (first match) points to a new
// buffer holding `data` (added when absent). Everything else reads back identically, including
// fields this schema subset does not declare: the original bytes are kept verbatim behind a new
// root table, and external buffer offsets (large models) are shifted. The new data is 16-aligned
// in the file. InvalidArgument when `bytes` is not a valid model. O(size).
Result<std::vector<uint8_t>> WriteModelCopyWithMetadata(const uint8_t* bytes, size_t size, const std::string& name,
                                                        const std::vector<uint8_t>& data);

// A small float32 image model for `arenaplan demo`: CONV_2D / DEPTHWISE_CONV_2D / ADD branches,
// AVERAGE_POOL_2D, RESHAPE, FULLY_CONNECTED, SOFTMAX with constant weights; runnable by the
// embedded runtime. Deterministic.
std::vector<uint8_t> DemoModel();

}  // namespace arenaplan::model
