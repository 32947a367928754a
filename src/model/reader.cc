// ReadModel: flatbuffers Verifier first (bounded depth and table count), then every index and size
// the rest of arenaplan relies on. O(file size + tensors x rank + operators x arity).
#include <flatbuffers/flatbuffers.h>

#include <cstring>
#include <string>

#include "model/model.h"
#include "model/offline_plan.h"
#include "schema/tflite_generated.h"
#include "util/checked_math.h"

namespace arenaplan::model {
namespace {

constexpr flatbuffers::uoffset_t kMaxDepth = 64;
constexpr flatbuffers::uoffset_t kMaxTables = 10'000'000;

std::string Str(uint64_t v) { return std::to_string(v); }
std::string Str(int32_t v) { return std::to_string(v); }
std::string Str(uint32_t v) { return std::to_string(v); }

// "subgraph 0, op 3 (CONV_2D)"
std::string OpWhere(size_t s, size_t i, const std::string& name) {
  return "subgraph " + Str(uint64_t{s}) + ", op " + Str(uint64_t{i}) + " (" + name + ")";
}

// The one range check: index in [0, count).
bool InRange(int64_t index, size_t count) { return index >= 0 && static_cast<uint64_t>(index) < count; }

std::string HexPrefix(const uint8_t* bytes, size_t size) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (size_t i = 0; i < size && i < 8; ++i) {
    if (i) out += ' ';
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 15];
  }
  return out;
}

Status VerifyFlatbuffer(const uint8_t* bytes, size_t size) {
  if (bytes == nullptr || size < 8) {
    return InvalidArgument("not a TFLite flatbuffer: " + Str(uint64_t{size}) + " bytes is too small");
  }
  const bool has_id = std::memcmp(bytes + 4, "TFL3", 4) == 0;
  // Large models keep buffer data after the flatbuffer; the flatbuffer itself stays below 2 GiB.
  const size_t verify_size = size < FLATBUFFERS_MAX_BUFFER_SIZE ? size : FLATBUFFERS_MAX_BUFFER_SIZE - 1;
  flatbuffers::Verifier verifier(bytes, verify_size, kMaxDepth, kMaxTables);
  if (verifier.VerifyBuffer<tfl::Model>(nullptr)) return Status::Ok();
  if (!has_id) {
    return InvalidArgument("not a TFLite flatbuffer (no \"TFL3\" identifier at byte 4; file starts " +
                           HexPrefix(bytes, size) + ")");
  }
  return InvalidArgument("TFLite flatbuffer failed verification (truncated or corrupt, " +
                         Str(uint64_t{size}) + " bytes)");
}

Result<std::vector<Buffer>> ReadBuffers(const tfl::Model& fb, const uint8_t* bytes, size_t size) {
  std::vector<Buffer> out;
  if (fb.buffers() == nullptr) return out;
  out.reserve(fb.buffers()->size());
  for (flatbuffers::uoffset_t i = 0; i < fb.buffers()->size(); ++i) {
    const tfl::Buffer* b = fb.buffers()->Get(i);
    Buffer buffer;
    if (b != nullptr && b->data() != nullptr && b->data()->size() > 0) {
      buffer.data = b->data()->data();
      buffer.size = b->data()->size();
    } else if (b != nullptr && b->offset() > 1) {
      // External data of large models: offset from the file start (0 and 1 mean "none").
      const auto end = CheckedAdd(b->offset(), b->size());
      if (!end || *end > size) {
        return InvalidArgument("buffer " + Str(i) + ": offset " + Str(uint64_t{b->offset()}) + " + size " +
                               Str(uint64_t{b->size()}) + " lies outside the file (" +
                               Str(uint64_t{size}) + " bytes)");
      }
      if (b->size() > 0) {
        buffer.data = bytes + b->offset();
        buffer.size = b->size();
      }
    }
    out.push_back(buffer);
  }
  return out;
}

Result<std::vector<OperatorCode>> ReadOperatorCodes(const tfl::Model& fb) {
  std::vector<OperatorCode> out;
  if (fb.operator_codes() == nullptr) return out;
  for (flatbuffers::uoffset_t i = 0; i < fb.operator_codes()->size(); ++i) {
    const tfl::OperatorCode* c = fb.operator_codes()->Get(i);
    OperatorCode code;
    if (c != nullptr) {
      const int32_t deprecated = c->deprecated_builtin_code();
      const int32_t builtin = static_cast<int32_t>(c->builtin_code());
      code.builtin_code = deprecated > builtin ? deprecated : builtin;
      if (c->custom_code() != nullptr) code.custom_code = c->custom_code()->str();
      code.version = c->version();
    }
    if (code.builtin_code < 0) {
      return InvalidArgument("operator code " + Str(i) + ": negative builtin code " + Str(code.builtin_code));
    }
    code.name = code.builtin_code == op::kCustom ? "CUSTOM:" + code.custom_code
                                                 : BuiltinOperatorName(code.builtin_code);
    out.push_back(std::move(code));
  }
  return out;
}

// The verifier only checks a vector's length word for 4-byte alignment, so 8-byte elements may sit
// misaligned in a valid file: copy them out byte-wise (flatbuffers are little-endian).
std::vector<int64_t> ReadInt64s(const flatbuffers::Vector<int64_t>& v) {
  std::vector<int64_t> out(v.size());
  const uint8_t* p = v.Data();
  for (size_t i = 0; i < out.size(); ++i) {
    uint64_t u = 0;
    for (int b = 7; b >= 0; --b) u = (u << 8) | p[8 * i + static_cast<size_t>(b)];
    out[i] = static_cast<int64_t>(u);
  }
  return out;
}

Result<Tensor> ReadTensor(const tfl::Tensor* t, size_t s, size_t index, const std::vector<Buffer>& buffers) {
  Tensor tensor;
  const std::string where = "subgraph " + Str(uint64_t{s}) + ", tensor " + Str(uint64_t{index});
  if (t == nullptr) return InvalidArgument(where + ": missing tensor table");
  if (t->name() != nullptr) tensor.name = t->name()->str();
  const int type = static_cast<int>(t->type());
  if (type < static_cast<int>(tfl::TensorType::MIN) || type > static_cast<int>(tfl::TensorType::MAX)) {
    return InvalidArgument(where + " (" + tensor.name + "): unknown tensor type " + Str(int32_t{type}));
  }
  tensor.type = static_cast<TensorType>(type);
  uint64_t elements = 1;
  if (t->shape() != nullptr) {
    for (flatbuffers::uoffset_t d = 0; d < t->shape()->size(); ++d) {
      const int32_t dim = t->shape()->Get(d);
      if (dim < 0) {
        return InvalidArgument(where + " (" + tensor.name + "): negative dimension " + Str(dim) +
                               " at index " + Str(d));
      }
      tensor.shape.push_back(dim);
      const auto product = CheckedMul(elements, static_cast<uint64_t>(dim));
      if (!product) return InvalidArgument(where + " (" + tensor.name + "): element count overflows 64 bits");
      elements = *product;
    }
  }
  if (t->shape_signature() != nullptr) {
    tensor.shape_signature.assign(t->shape_signature()->begin(), t->shape_signature()->end());
  }
  if (const auto element_bytes = TensorTypeBytes(tensor.type)) {
    const auto bytes = CheckedMul(elements, *element_bytes);
    if (!bytes) return InvalidArgument(where + " (" + tensor.name + "): byte size overflows 64 bits");
    tensor.bytes = *bytes;
  }
  tensor.buffer = t->buffer();
  if (!InRange(tensor.buffer, buffers.size()) && !(tensor.buffer == 0 && buffers.empty())) {
    return InvalidArgument(where + " (" + tensor.name + "): buffer " + Str(tensor.buffer) +
                           " out of range (" + Str(uint64_t{buffers.size()}) + " buffers)");
  }
  tensor.has_data = tensor.buffer < buffers.size() && buffers[tensor.buffer].size > 0;
  tensor.is_variable = t->is_variable();
  tensor.has_sparsity = t->sparsity() != nullptr;
  if (const tfl::QuantizationParameters* q = t->quantization();
      q != nullptr && (q->scale() != nullptr || q->zero_point() != nullptr)) {
    Quantization quant;
    if (q->scale() != nullptr) quant.scale.assign(q->scale()->begin(), q->scale()->end());
    if (q->zero_point() != nullptr) quant.zero_point = ReadInt64s(*q->zero_point());
    quant.quantized_dimension = q->quantized_dimension();
    tensor.quantization = std::move(quant);
  }
  return tensor;
}

// Tensor index lists of an operator: inputs may use -1 (omitted optional input), others may not.
Status ReadIndices(const flatbuffers::Vector<int32_t>* v, bool allow_omitted, size_t tensors,
                   const std::string& where, const char* what, std::vector<int32_t>& out) {
  if (v == nullptr) return Status::Ok();
  for (flatbuffers::uoffset_t k = 0; k < v->size(); ++k) {
    const int32_t index = v->Get(k);
    if (index == -1 && allow_omitted) {
      out.push_back(index);
      continue;
    }
    if (!InRange(index, tensors)) {
      return InvalidArgument(where + ": " + what + " tensor " + Str(index) + " out of range (" +
                             Str(uint64_t{tensors}) + " tensors)");
    }
    out.push_back(index);
  }
  return Status::Ok();
}

// IF (then, else), WHILE (cond, body), CALL_ONCE (init): the subgraphs an op runs.
Status ReadCalledSubgraphs(const tfl::Operator& fb_op, int32_t code, size_t subgraphs,
                           const std::string& where, Operator& op) {
  const char* options = nullptr;
  bool present = false;
  if (code == op::kIf) {
    options = "IfOptions";
    if (const auto* o = fb_op.builtin_options_as_IfOptions()) {
      present = true;
      op.called_subgraphs = {o->then_subgraph_index(), o->else_subgraph_index()};
    }
  } else if (code == op::kWhile) {
    options = "WhileOptions";
    if (const auto* o = fb_op.builtin_options_as_WhileOptions()) {
      present = true;
      op.called_subgraphs = {o->cond_subgraph_index(), o->body_subgraph_index()};
    }
  } else if (code == op::kCallOnce) {
    options = "CallOnceOptions";
    if (const auto* o = fb_op.builtin_options_as_CallOnceOptions()) {
      present = true;
      op.called_subgraphs = {o->init_subgraph_index()};
    }
  } else {
    return Status::Ok();
  }
  if (!present) return InvalidArgument(where + ": missing " + options);
  for (int32_t s : op.called_subgraphs) {
    if (!InRange(s, subgraphs)) {
      return InvalidArgument(where + ": " + options + " subgraph " + Str(s) + " out of range (" +
                             Str(uint64_t{subgraphs}) + " subgraphs)");
    }
  }
  return Status::Ok();
}

Result<Subgraph> ReadSubgraph(const tfl::SubGraph* sg, size_t s, size_t n_subgraphs, const Model& model) {
  Subgraph out;
  if (sg == nullptr) return InvalidArgument("subgraph " + Str(uint64_t{s}) + ": missing table");
  if (sg->name() != nullptr) out.name = sg->name()->str();
  const size_t n_tensors = sg->tensors() == nullptr ? 0 : sg->tensors()->size();
  if (n_tensors > static_cast<size_t>(INT32_MAX)) {
    return InvalidArgument("subgraph " + Str(uint64_t{s}) + ": too many tensors");
  }
  out.tensors.reserve(n_tensors);
  for (size_t t = 0; t < n_tensors; ++t) {
    auto tensor = ReadTensor(sg->tensors()->Get(static_cast<flatbuffers::uoffset_t>(t)), s, t, model.buffers);
    if (!tensor.ok()) return tensor.status();
    out.tensors.push_back(std::move(tensor).value());
  }
  const std::string where = "subgraph " + Str(uint64_t{s});
  ARENAPLAN_RETURN_IF_ERROR(ReadIndices(sg->inputs(), false, n_tensors, where, "input", out.inputs));
  ARENAPLAN_RETURN_IF_ERROR(ReadIndices(sg->outputs(), false, n_tensors, where, "output", out.outputs));
  if (sg->operators() == nullptr) return out;
  for (flatbuffers::uoffset_t i = 0; i < sg->operators()->size(); ++i) {
    const tfl::Operator* fb_op = sg->operators()->Get(i);
    if (fb_op == nullptr) return InvalidArgument(where + ", op " + Str(i) + ": missing table");
    Operator op;
    op.opcode_index = fb_op->opcode_index();
    if (!InRange(op.opcode_index, model.operator_codes.size())) {
      return InvalidArgument(where + ", op " + Str(i) + ": opcode_index " + Str(op.opcode_index) +
                             " out of range (" + Str(uint64_t{model.operator_codes.size()}) +
                             " operator codes)");
    }
    const OperatorCode& code = model.operator_codes[op.opcode_index];
    const std::string op_where = OpWhere(s, i, code.name);
    ARENAPLAN_RETURN_IF_ERROR(ReadIndices(fb_op->inputs(), true, n_tensors, op_where, "input", op.inputs));
    ARENAPLAN_RETURN_IF_ERROR(ReadIndices(fb_op->outputs(), false, n_tensors, op_where, "output", op.outputs));
    ARENAPLAN_RETURN_IF_ERROR(
        ReadIndices(fb_op->intermediates(), false, n_tensors, op_where, "intermediate", op.intermediates));
    op.builtin_options_type = static_cast<uint8_t>(fb_op->builtin_options_type());
    if (const tfl::BatchMatMulOptions* bmm = fb_op->builtin_options_as_BatchMatMulOptions()) {
      op.adj_x = bmm->adj_x();
      op.adj_y = bmm->adj_y();
    }
    if (fb_op->custom_options() != nullptr && fb_op->custom_options()->size() > 0) {
      op.custom_options = fb_op->custom_options()->data();
      op.custom_options_size = fb_op->custom_options()->size();
    }
    ARENAPLAN_RETURN_IF_ERROR(ReadCalledSubgraphs(*fb_op, code.builtin_code, n_subgraphs, op_where, op));
    out.operators.push_back(std::move(op));
  }
  return out;
}

Status CheckModelLevelIndices(const tfl::Model& fb, const Model& model) {
  if (fb.metadata_buffer() != nullptr) {
    for (flatbuffers::uoffset_t i = 0; i < fb.metadata_buffer()->size(); ++i) {
      const int32_t b = fb.metadata_buffer()->Get(i);
      if (!InRange(b, model.buffers.size())) {
        return InvalidArgument("metadata_buffer[" + Str(i) + "]: buffer " + Str(b) + " out of range (" +
                               Str(uint64_t{model.buffers.size()}) + " buffers)");
      }
    }
  }
  for (size_t i = 0; i < model.metadata.size(); ++i) {
    if (!InRange(model.metadata[i].buffer, model.buffers.size())) {
      return InvalidArgument("metadata " + Str(uint64_t{i}) + " (" + model.metadata[i].name + "): buffer " +
                             Str(model.metadata[i].buffer) + " out of range (" +
                             Str(uint64_t{model.buffers.size()}) + " buffers)");
    }
  }
  if (fb.signature_defs() == nullptr) return Status::Ok();
  for (flatbuffers::uoffset_t i = 0; i < fb.signature_defs()->size(); ++i) {
    const tfl::SignatureDef* sig = fb.signature_defs()->Get(i);
    if (sig == nullptr) continue;
    const uint32_t s = sig->subgraph_index();
    const std::string where = "signature_def " + Str(i);
    if (!InRange(s, model.subgraphs.size())) {
      return InvalidArgument(where + ": subgraph " + Str(s) + " out of range (" +
                             Str(uint64_t{model.subgraphs.size()}) + " subgraphs)");
    }
    const size_t n = model.subgraphs[s].tensors.size();
    for (const auto* maps : {sig->inputs(), sig->outputs()}) {
      if (maps == nullptr) continue;
      for (flatbuffers::uoffset_t k = 0; k < maps->size(); ++k) {
        const tfl::TensorMap* m = maps->Get(k);
        if (m != nullptr && !InRange(m->tensor_index(), n)) {
          return InvalidArgument(where + ": tensor " + Str(m->tensor_index()) + " out of range (" +
                                 Str(uint64_t{n}) + " tensors in subgraph " + Str(s) + ")");
        }
      }
    }
  }
  return Status::Ok();
}

}  // namespace

size_t Model::total_tensors() const {
  size_t total = 0;
  for (const Subgraph& s : subgraphs) total += s.tensors.size();
  return total;
}

Result<Model> ReadModel(const uint8_t* bytes, size_t size) {
  ARENAPLAN_RETURN_IF_ERROR(VerifyFlatbuffer(bytes, size));
  const tfl::Model& fb = *tfl::GetModel(bytes);
  Model model;
  model.file_data = bytes;
  model.file_size = size;
  model.version = fb.version();
  if (fb.description() != nullptr) model.description = fb.description()->str();
  auto buffers = ReadBuffers(fb, bytes, size);
  if (!buffers.ok()) return buffers.status();
  model.buffers = std::move(buffers).value();
  auto codes = ReadOperatorCodes(fb);
  if (!codes.ok()) return codes.status();
  model.operator_codes = std::move(codes).value();
  if (fb.metadata() != nullptr) {
    for (flatbuffers::uoffset_t i = 0; i < fb.metadata()->size(); ++i) {
      const tfl::Metadata* m = fb.metadata()->Get(i);
      Metadata entry;
      if (m != nullptr && m->name() != nullptr) entry.name = m->name()->str();
      if (m != nullptr) entry.buffer = m->buffer();
      model.metadata.push_back(std::move(entry));
    }
  }
  const size_t n_subgraphs = fb.subgraphs() == nullptr ? 0 : fb.subgraphs()->size();
  if (n_subgraphs > static_cast<size_t>(INT32_MAX)) return InvalidArgument("too many subgraphs");
  model.subgraphs.reserve(n_subgraphs);
  for (size_t s = 0; s < n_subgraphs; ++s) {
    auto sg = ReadSubgraph(fb.subgraphs()->Get(static_cast<flatbuffers::uoffset_t>(s)), s, n_subgraphs, model);
    if (!sg.ok()) return sg.status();
    model.subgraphs.push_back(std::move(sg).value());
  }
  ARENAPLAN_RETURN_IF_ERROR(CheckModelLevelIndices(fb, model));
  if (const auto entry = FindOfflinePlanMetadata(model)) {
    const Buffer& b = model.buffers[model.metadata[*entry].buffer];
    auto plan = DecodeOfflinePlan(b.data, b.size);
    if (plan.ok()) model.offline_plan = std::move(plan).value();
  }
  return model;
}

}  // namespace arenaplan::model
