// ReadModel: rules/'s verification and structural checks (the same verdicts and messages as the
// runtime), then a plain copy into host data. O(file size + tensors x rank + operators x arity).
#include <flatbuffers/flatbuffers.h>

#include <string>

#include "model/device_status.h"
#include "model/model.h"
#include "model/offline_plan.h"
#include "rules/model.h"
#include "rules/model_check.h"
#include "schema/tflite_generated.h"

namespace arenaplan::model {
namespace {

std::vector<int32_t> Ints(const flatbuffers::Vector<int32_t>* v) {
  return v != nullptr ? std::vector<int32_t>(v->begin(), v->end()) : std::vector<int32_t>{};
}

std::string Str(const flatbuffers::String* s) { return s != nullptr ? s->str() : std::string(); }

std::vector<Buffer> ReadBuffers(const tfl::Model& fb, const rules::ModelFile& file) {
  std::vector<Buffer> out(rules::Size(fb.buffers()));
  for (uint32_t i = 0; i < out.size(); ++i) rules::BufferData(fb, file, i, &out[i].data, &out[i].size);
  return out;
}

std::vector<OperatorCode> ReadOperatorCodes(const tfl::Model& fb) {
  std::vector<OperatorCode> out;
  for (uint32_t i = 0; i < rules::Size(fb.operator_codes()); ++i) {
    const tfl::OperatorCode& c = *fb.operator_codes()->Get(i);
    OperatorCode code;
    code.builtin_code = rules::BuiltinCode(c);
    code.custom_code = Str(c.custom_code());
    code.version = c.version();
    char name[256];
    code.name = code.builtin_code == op::kCustom ? "CUSTOM:" + code.custom_code : rules::OpName(c, name, sizeof(name));
    out.push_back(std::move(code));
  }
  return out;
}

// 8-byte elements may sit misaligned in a valid file (rules::Int64At).
std::vector<int64_t> ReadInt64s(const flatbuffers::Vector<int64_t>& v) {
  std::vector<int64_t> out(v.size());
  for (uint32_t i = 0; i < v.size(); ++i) out[i] = rules::Int64At(v, i);
  return out;
}

Tensor ReadTensor(const tfl::Tensor& t, const std::vector<Buffer>& buffers) {
  Tensor tensor;
  tensor.name = Str(t.name());
  tensor.type = static_cast<TensorType>(t.type());
  tensor.shape = Ints(t.shape());
  tensor.shape_signature = Ints(t.shape_signature());
  if (rules::TypeBytes(t.type()) != 0) tensor.bytes = rules::TensorBytes(t);
  tensor.buffer = t.buffer();
  tensor.has_data = tensor.buffer < buffers.size() && buffers[tensor.buffer].size > 0;
  tensor.is_variable = t.is_variable();
  tensor.has_sparsity = t.sparsity() != nullptr;
  if (const tfl::QuantizationParameters* q = t.quantization();
      q != nullptr && (q->scale() != nullptr || q->zero_point() != nullptr)) {
    Quantization quant;
    if (q->scale() != nullptr) quant.scale.assign(q->scale()->begin(), q->scale()->end());
    if (q->zero_point() != nullptr) quant.zero_point = ReadInt64s(*q->zero_point());
    quant.quantized_dimension = q->quantized_dimension();
    tensor.quantization = std::move(quant);
  }
  return tensor;
}

Operator ReadOperator(const tfl::Model& fb, const tfl::Operator& fb_op) {
  Operator op;
  op.opcode_index = fb_op.opcode_index();
  op.inputs = Ints(fb_op.inputs());
  op.outputs = Ints(fb_op.outputs());
  op.intermediates = Ints(fb_op.intermediates());
  int32_t called[2];
  const uint32_t n = rules::CalledSubgraphs(fb, fb_op, called);
  op.called_subgraphs.assign(called, called + n);
  op.builtin_options_type = static_cast<uint8_t>(fb_op.builtin_options_type());
  if (const tfl::BatchMatMulOptions* bmm = fb_op.builtin_options_as_BatchMatMulOptions()) {
    op.adj_x = bmm->adj_x();
    op.adj_y = bmm->adj_y();
  }
  if (fb_op.custom_options() != nullptr && fb_op.custom_options()->size() > 0) {
    op.custom_options = fb_op.custom_options()->data();
    op.custom_options_size = fb_op.custom_options()->size();
  }
  return op;
}

Subgraph ReadSubgraph(const tfl::Model& fb, const tfl::SubGraph& sg, const std::vector<Buffer>& buffers) {
  Subgraph out;
  out.name = Str(sg.name());
  for (uint32_t t = 0; t < rules::Size(sg.tensors()); ++t)
    out.tensors.push_back(ReadTensor(*sg.tensors()->Get(t), buffers));
  out.inputs = Ints(sg.inputs());
  out.outputs = Ints(sg.outputs());
  for (uint32_t i = 0; i < rules::Size(sg.operators()); ++i)
    out.operators.push_back(ReadOperator(fb, *sg.operators()->Get(i)));
  return out;
}

}  // namespace

size_t Model::total_tensors() const {
  size_t total = 0;
  for (const Subgraph& s : subgraphs) total += s.tensors.size();
  return total;
}

Result<Model> ReadModel(const uint8_t* bytes, size_t size) {
  const rules::ModelFile file{bytes, size};
  const tfl::Model* checked = nullptr;
  rules::ErrorText error;
  rules::StatusCode code = rules::VerifyModel(file, &checked, &error);
  if (code == rules::StatusCode::kOk) code = rules::CheckModel(*checked, file, nullptr, &error);
  if (code != rules::StatusCode::kOk) return StatusOf(code, error.text);
  const tfl::Model& fb = *checked;
  Model model;
  model.file_data = bytes;
  model.file_size = size;
  model.version = fb.version();
  model.description = Str(fb.description());
  model.buffers = ReadBuffers(fb, file);
  model.operator_codes = ReadOperatorCodes(fb);
  for (uint32_t i = 0; i < rules::Size(fb.metadata()); ++i) {
    const tfl::Metadata& m = *fb.metadata()->Get(i);
    model.metadata.push_back(Metadata{Str(m.name()), m.buffer()});
  }
  for (uint32_t s = 0; s < rules::Size(fb.subgraphs()); ++s) {
    model.subgraphs.push_back(ReadSubgraph(fb, *fb.subgraphs()->Get(s), model.buffers));
  }
  if (const auto entry = FindOfflinePlanMetadata(model)) {
    const Buffer& b = model.buffers[model.metadata[*entry].buffer];
    auto plan = DecodeOfflinePlan(b.data, b.size);
    if (plan.ok()) model.offline_plan = std::move(plan).value();
  }
  return model;
}

}  // namespace arenaplan::model
