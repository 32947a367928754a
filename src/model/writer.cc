// WriteModel: one FlatBufferBuilder pass over the spec, O(total size).
#include "model/writer.h"

#include <flatbuffers/flatbuffers.h>

#include "schema/tflite_generated.h"

namespace arenaplan::model {
namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

tfl::Padding Pad(bool same) { return same ? tfl::Padding::SAME : tfl::Padding::VALID; }
tfl::ActivationFunctionType Act(int8_t a) { return static_cast<tfl::ActivationFunctionType>(a); }

// The union tag and table of an operator's options.
std::pair<tfl::BuiltinOptions, Offset<void>> WriteOptions(FlatBufferBuilder& fbb, const OpOptions& o) {
  using K = OptionsKind;
  using B = tfl::BuiltinOptions;
  switch (o.kind) {
    case K::kNone: return {B::NONE, 0};
    case K::kConv2D:
      return {B::Conv2DOptions,
              tfl::CreateConv2DOptions(fbb, Pad(o.padding_same), o.stride_w, o.stride_h, Act(o.activation)).Union()};
    case K::kDepthwiseConv2D:
      return {B::DepthwiseConv2DOptions,
              tfl::CreateDepthwiseConv2DOptions(fbb, Pad(o.padding_same), o.stride_w, o.stride_h, o.depth_multiplier,
                                                Act(o.activation))
                  .Union()};
    case K::kPool2D:
      return {B::Pool2DOptions, tfl::CreatePool2DOptions(fbb, Pad(o.padding_same), o.stride_w, o.stride_h, o.filter_w,
                                                         o.filter_h, Act(o.activation))
                                    .Union()};
    case K::kFullyConnected:
      return {B::FullyConnectedOptions, tfl::CreateFullyConnectedOptions(fbb, Act(o.activation)).Union()};
    case K::kAdd: return {B::AddOptions, tfl::CreateAddOptions(fbb, Act(o.activation)).Union()};
    case K::kReshape: return {B::ReshapeOptions, tfl::CreateReshapeOptions(fbb, fbb.CreateVector(o.new_shape)).Union()};
    case K::kSoftmax: return {B::SoftmaxOptions, tfl::CreateSoftmaxOptions(fbb, o.beta).Union()};
    case K::kIf: return {B::IfOptions, tfl::CreateIfOptions(fbb, o.subgraph_a, o.subgraph_b).Union()};
    case K::kWhile: return {B::WhileOptions, tfl::CreateWhileOptions(fbb, o.subgraph_a, o.subgraph_b).Union()};
    case K::kCallOnce: return {B::CallOnceOptions, tfl::CreateCallOnceOptions(fbb, o.subgraph_a).Union()};
    case K::kBatchMatMul: return {B::BatchMatMulOptions, tfl::CreateBatchMatMulOptions(fbb, o.adj_x, o.adj_y).Union()};
  }
  return {B::NONE, 0};
}

Offset<tfl::Tensor> WriteTensor(FlatBufferBuilder& fbb, const TensorSpec& t) {
  Offset<tfl::QuantizationParameters> quant = 0;
  if (t.quantization) {
    quant = tfl::CreateQuantizationParameters(fbb, 0, 0, fbb.CreateVector(t.quantization->scale),
                                              fbb.CreateVector(t.quantization->zero_point),
                                              tfl::QuantizationDetails::NONE, 0, t.quantization->quantized_dimension);
  }
  const auto signature = t.shape_signature.empty() ? 0 : fbb.CreateVector(t.shape_signature);
  return tfl::CreateTensor(fbb, fbb.CreateVector(t.shape), static_cast<tfl::TensorType>(t.type), t.buffer,
                           fbb.CreateString(t.name), quant, t.is_variable, 0, signature);
}

Offset<tfl::SubGraph> WriteSubgraph(FlatBufferBuilder& fbb, const SubgraphSpec& sg) {
  std::vector<Offset<tfl::Tensor>> tensors;
  for (const TensorSpec& t : sg.tensors) tensors.push_back(WriteTensor(fbb, t));
  std::vector<Offset<tfl::Operator>> ops;
  for (const OperatorSpec& op : sg.operators) {
    const auto options = WriteOptions(fbb, op.options);
    const auto intermediates = op.intermediates.empty() ? 0 : fbb.CreateVector(op.intermediates);
    const auto custom = op.custom_options.empty() ? 0 : fbb.CreateVector(op.custom_options);
    ops.push_back(tfl::CreateOperator(fbb, op.opcode_index, fbb.CreateVector(op.inputs), fbb.CreateVector(op.outputs),
                                      options.first, options.second, custom, tfl::CustomOptionsFormat::FLEXBUFFERS, 0,
                                      intermediates));
  }
  return tfl::CreateSubGraph(fbb, fbb.CreateVector(tensors), fbb.CreateVector(sg.inputs), fbb.CreateVector(sg.outputs),
                             fbb.CreateVector(ops), fbb.CreateString(sg.name));
}

}  // namespace

std::vector<uint8_t> WriteModel(const ModelSpec& spec) {
  FlatBufferBuilder fbb(1024);
  std::vector<Offset<tfl::OperatorCode>> codes;
  for (const OperatorCodeSpec& c : spec.operator_codes) {
    // As TFLite's converter: the int8 deprecated field saturates at PLACEHOLDER_FOR_GREATER_OP_CODES.
    const int8_t deprecated = static_cast<int8_t>(c.builtin_code < 127 ? c.builtin_code : 127);
    const auto custom = c.custom_code.empty() ? 0 : fbb.CreateString(c.custom_code);
    codes.push_back(
        tfl::CreateOperatorCode(fbb, deprecated, custom, c.version, static_cast<tfl::BuiltinOperator>(c.builtin_code)));
  }
  std::vector<Offset<tfl::SubGraph>> subgraphs;
  for (const SubgraphSpec& sg : spec.subgraphs) subgraphs.push_back(WriteSubgraph(fbb, sg));
  std::vector<Offset<tfl::Buffer>> buffers;
  for (size_t i = 0; i < spec.buffers.size(); ++i) {
    const auto& data = spec.buffers[i];
    auto b = data.empty() ? tfl::CreateBuffer(fbb) : tfl::CreateBufferDirect(fbb, &data);
    for (const ExternalBuffer& e : spec.external_buffers) {
      if (e.index == i) b = tfl::CreateBuffer(fbb, 0, e.offset, e.size);
    }
    buffers.push_back(b);
  }
  std::vector<Offset<tfl::Metadata>> metadata;
  for (const MetadataSpec& m : spec.metadata) {
    metadata.push_back(tfl::CreateMetadata(fbb, fbb.CreateString(m.name), m.buffer));
  }
  const auto root = tfl::CreateModel(fbb, spec.version, fbb.CreateVector(codes), fbb.CreateVector(subgraphs),
                                     fbb.CreateString(spec.description), fbb.CreateVector(buffers), 0,
                                     metadata.empty() ? 0 : fbb.CreateVector(metadata));
  tfl::FinishModelBuffer(fbb, root);
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

uint32_t AddBuffer(ModelSpec& spec, std::vector<uint8_t> data) {
  spec.buffers.push_back(std::move(data));
  return static_cast<uint32_t>(spec.buffers.size() - 1);
}

uint32_t AddOperatorCode(ModelSpec& spec, int32_t builtin_code, const std::string& custom_code) {
  for (size_t i = 0; i < spec.operator_codes.size(); ++i) {
    const OperatorCodeSpec& c = spec.operator_codes[i];
    if (c.builtin_code == builtin_code && c.custom_code == custom_code) return static_cast<uint32_t>(i);
  }
  spec.operator_codes.push_back({builtin_code, custom_code, 1});
  return static_cast<uint32_t>(spec.operator_codes.size() - 1);
}

void SetMetadata(ModelSpec& spec, const std::string& name, std::vector<uint8_t> data) {
  const uint32_t buffer = AddBuffer(spec, std::move(data));
  for (MetadataSpec& m : spec.metadata) {
    if (m.name == name) {
      m.buffer = buffer;
      return;
    }
  }
  spec.metadata.push_back({name, buffer});
}

}  // namespace arenaplan::model
