#include "rules/model_check.h"

#include <cstring>

#include "flatbuffers/flatbuffers.h"
#include "rules/call_graph.h"
#include "rules/int4.h"
#include "rules/limits.h"

namespace arenaplan::rules {
namespace {

using U64 = unsigned long long;

// Where a finding is: "subgraph 0, tensor 2 (mid)" / "subgraph 0, op 3 (CONV_2D)" / "subgraph 0".
struct Place {
  char text[96];
};

Place TensorPlace(uint32_t s, uint32_t t, const tfl::Tensor& tensor) {
  Place p;
  const char* name = tensor.name() != nullptr ? tensor.name()->c_str() : "";
  Format(p.text, sizeof(p.text), "subgraph %u, tensor %u (%.40s)", s, t, name);
  return p;
}

Place OpPlace(const tfl::Model& model, uint32_t s, uint32_t i, const tfl::Operator& op) {
  char name[48];
  OpName(*model.operator_codes()->Get(op.opcode_index()), name, sizeof(name));
  Place p;
  Format(p.text, sizeof(p.text), "subgraph %u, op %u (%.40s)", s, i, name);
  return p;
}

StatusCode CheckCounts(const tfl::Model& model, ModelCounts* c, ErrorText* error) {
  c->subgraphs = Size(model.subgraphs());
  c->operator_codes = Size(model.operator_codes());
  if (c->subgraphs == 0) {
    SetError(error, "model has no subgraphs");
    return StatusCode::kInvalidModel;
  }
  if (c->subgraphs > kMaxSubgraphs) {
    SetError(error, "model has %u subgraphs, more than %u", c->subgraphs, kMaxSubgraphs);
    return StatusCode::kUnsupported;
  }
  uint64_t tensors = 0, ops = 0;
  for (uint32_t s = 0; s < c->subgraphs; ++s) {
    tensors += Size(model.subgraphs()->Get(s)->tensors());
    ops += Size(model.subgraphs()->Get(s)->operators());
  }
  if (tensors > kMaxTensors) {
    SetError(error, "model has %llu tensors over all subgraphs, more than %u", static_cast<U64>(tensors), kMaxTensors);
    return StatusCode::kUnsupported;
  }
  if (ops > kMaxOperators) {
    SetError(error, "model has %llu operators over all subgraphs, more than %u", static_cast<U64>(ops), kMaxOperators);
    return StatusCode::kUnsupported;
  }
  c->tensors = static_cast<uint32_t>(tensors);
  c->operators = static_cast<uint32_t>(ops);
  return StatusCode::kOk;
}

StatusCode CheckBuffersAndCodes(const tfl::Model& model, const ModelFile& file, ErrorText* error) {
  for (uint32_t i = 0; i < Size(model.buffers()); ++i) {
    const tfl::Buffer& b = *model.buffers()->Get(i);
    if (b.offset() <= 1) continue;  // 0 and 1 mean "no external data"
    if (b.offset() > file.size || b.size() > file.size - b.offset()) {
      SetError(error, "buffer %u: offset %llu + size %llu lies outside the file (%llu bytes)", i,
               static_cast<U64>(b.offset()), static_cast<U64>(b.size()), static_cast<U64>(file.size));
      return StatusCode::kInvalidModel;
    }
  }
  for (uint32_t i = 0; i < Size(model.operator_codes()); ++i) {
    const int32_t code = BuiltinCode(*model.operator_codes()->Get(i));
    if (code < 0) {
      SetError(error, "operator code %u: negative builtin code %d", i, code);
      return StatusCode::kInvalidModel;
    }
  }
  return StatusCode::kOk;
}

// Bytes a constant's buffer must hold: INT4 is stored packed (rules/int4.h; TensorBytes counts
// one byte per INT4 element).
uint64_t StoredBytes(const tfl::Tensor& t) {
  const uint64_t bytes = TensorBytes(t);
  return t.type() == tfl::TensorType::INT4 ? PackedInt4Bytes(bytes) : bytes;
}

// A quantized tensor's zero points are values of its type: kernels compute (value - zero point) in
// int32 and multiply such terms, exactly as TFLM does; a zero point far outside the type (no
// converter writes one) would overflow them. Types without a range here are not checked.
StatusCode CheckZeroPoints(const tfl::Tensor& t, const Place& at, ErrorText* error) {
  const tfl::QuantizationParameters* q = t.quantization();
  if (q == nullptr || q->zero_point() == nullptr) return StatusCode::kOk;
  int64_t lo = 0, hi = 0;
  const char* type = nullptr;
  switch (t.type()) {
    case tfl::TensorType::INT4: lo = -8, hi = 7, type = "INT4"; break;
    case tfl::TensorType::INT8: lo = -128, hi = 127, type = "INT8"; break;
    case tfl::TensorType::UINT8: lo = 0, hi = 255, type = "UINT8"; break;
    case tfl::TensorType::INT16: lo = -32768, hi = 32767, type = "INT16"; break;
    default: return StatusCode::kOk;
  }
  for (uint32_t k = 0; k < q->zero_point()->size(); ++k) {
    const int64_t z = Int64At(*q->zero_point(), k);
    if (z < lo || z > hi) {
      SetError(error, "%s: zero point %lld (entry %u) outside %s's range [%lld, %lld]", at.text,
               static_cast<long long>(z), k, type, static_cast<long long>(lo), static_cast<long long>(hi));
      return StatusCode::kInvalidModel;
    }
  }
  return StatusCode::kOk;
}

StatusCode CheckTensor(const tfl::Model& model, const ModelFile& file, uint32_t s, uint32_t i, ErrorText* error) {
  const tfl::Tensor& t = *model.subgraphs()->Get(s)->tensors()->Get(i);
  const Place at = TensorPlace(s, i, t);
  const int type = static_cast<int>(t.type());
  if (type < static_cast<int>(tfl::TensorType::MIN) || type > static_cast<int>(tfl::TensorType::MAX)) {
    SetError(error, "%s: unknown tensor type %d", at.text, type);
    return StatusCode::kInvalidModel;
  }
  for (uint32_t d = 0; d < Size(t.shape()); ++d) {
    if (t.shape()->Get(d) < 0) {
      SetError(error, "%s: negative dimension %d at index %u", at.text, t.shape()->Get(d), d);
      return StatusCode::kInvalidModel;
    }
  }
  const uint64_t bytes = TensorBytes(t);
  if (bytes > kMaxBufferBytes) {
    if (bytes == UINT64_MAX) {
      SetError(error, "%s: byte size overflows 64 bits", at.text);
    } else {
      SetError(error, "%s: %llu bytes, more than the %u a buffer may have", at.text, static_cast<U64>(bytes),
               kMaxBufferBytes);
    }
    return StatusCode::kUnsupported;
  }
  const uint32_t num_buffers = Size(model.buffers());
  if (t.buffer() >= num_buffers && !(t.buffer() == 0 && num_buffers == 0)) {
    SetError(error, "%s: buffer %u out of range (%u buffers)", at.text, t.buffer(), num_buffers);
    return StatusCode::kInvalidModel;
  }
  const uint8_t* data = nullptr;
  uint64_t size = 0;
  BufferData(model, file, t.buffer(), &data, &size);
  if (data != nullptr && TypeBytes(t.type()) != 0 && size < StoredBytes(t)) {
    SetError(error, "%s: buffer %u holds %llu bytes, shape needs %llu", at.text, t.buffer(), static_cast<U64>(size),
             static_cast<U64>(StoredBytes(t)));
    return StatusCode::kInvalidModel;
  }
  return CheckZeroPoints(t, at, error);
}

// Tensor indices of a list: -1 allowed where `omitted_ok` (an omitted optional op input).
StatusCode CheckIndices(const flatbuffers::Vector<int32_t>* v, bool omitted_ok, uint32_t tensors, const Place& at,
                        const char* what, ErrorText* error) {
  for (uint32_t k = 0; k < Size(v); ++k) {
    const int32_t index = v->Get(k);
    if ((index == -1 && omitted_ok) || (index >= 0 && static_cast<uint32_t>(index) < tensors)) continue;
    SetError(error, "%s: %s tensor %d out of range (%u tensors)", at.text, what, index, tensors);
    return StatusCode::kInvalidModel;
  }
  return StatusCode::kOk;
}

// IF / WHILE / CALL_ONCE: the options exist and name subgraphs of the model.
StatusCode CheckCalls(const tfl::Model& model, const tfl::Operator& op, const Place& at, ErrorText* error) {
  const auto code = static_cast<tfl::BuiltinOperator>(BuiltinCode(*model.operator_codes()->Get(op.opcode_index())));
  const char* options = nullptr;
  bool present = false;
  if (code == tfl::BuiltinOperator::IF) {
    options = "IfOptions";
    present = op.builtin_options_as_IfOptions() != nullptr;
  } else if (code == tfl::BuiltinOperator::WHILE) {
    options = "WhileOptions";
    present = op.builtin_options_as_WhileOptions() != nullptr;
  } else if (code == tfl::BuiltinOperator::CALL_ONCE) {
    options = "CallOnceOptions";
    present = op.builtin_options_as_CallOnceOptions() != nullptr;
  } else {
    return StatusCode::kOk;
  }
  if (!present) {
    SetError(error, "%s: missing %s", at.text, options);
    return StatusCode::kInvalidModel;
  }
  int32_t called[2];
  const uint32_t n = CalledSubgraphs(model, op, called);
  for (uint32_t k = 0; k < n; ++k) {
    if (called[k] < 0 || static_cast<uint32_t>(called[k]) >= Size(model.subgraphs())) {
      SetError(error, "%s: %s subgraph %d out of range (%u subgraphs)", at.text, options, called[k],
               Size(model.subgraphs()));
      return StatusCode::kInvalidModel;
    }
  }
  return StatusCode::kOk;
}

StatusCode CheckSubgraph(const tfl::Model& model, const ModelFile& file, uint32_t s, ErrorText* error) {
  const tfl::SubGraph& sg = *model.subgraphs()->Get(s);
  const uint32_t tensors = Size(sg.tensors());
  for (uint32_t i = 0; i < tensors; ++i) RT_RETURN_IF_ERROR(CheckTensor(model, file, s, i, error));
  Place at;
  Format(at.text, sizeof(at.text), "subgraph %u", s);
  RT_RETURN_IF_ERROR(CheckIndices(sg.inputs(), false, tensors, at, "input", error));
  RT_RETURN_IF_ERROR(CheckIndices(sg.outputs(), false, tensors, at, "output", error));
  for (uint32_t i = 0; i < Size(sg.operators()); ++i) {
    const tfl::Operator& op = *sg.operators()->Get(i);
    if (op.opcode_index() >= Size(model.operator_codes())) {
      SetError(error, "subgraph %u, op %u: opcode_index %u out of range (%u operator codes)", s, i, op.opcode_index(),
               Size(model.operator_codes()));
      return StatusCode::kInvalidModel;
    }
    const Place op_at = OpPlace(model, s, i, op);
    RT_RETURN_IF_ERROR(CheckIndices(op.inputs(), true, tensors, op_at, "input", error));
    RT_RETURN_IF_ERROR(CheckIndices(op.outputs(), false, tensors, op_at, "output", error));
    RT_RETURN_IF_ERROR(CheckIndices(op.intermediates(), false, tensors, op_at, "intermediate", error));
    RT_RETURN_IF_ERROR(CheckCalls(model, op, op_at, error));
  }
  return StatusCode::kOk;
}

StatusCode CheckMetadataAndSignatures(const tfl::Model& model, ErrorText* error) {
  const uint32_t buffers = Size(model.buffers());
  for (uint32_t i = 0; i < Size(model.metadata_buffer()); ++i) {
    const int32_t b = model.metadata_buffer()->Get(i);
    if (b < 0 || static_cast<uint32_t>(b) >= buffers) {
      SetError(error, "metadata_buffer[%u]: buffer %d out of range (%u buffers)", i, b, buffers);
      return StatusCode::kInvalidModel;
    }
  }
  for (uint32_t i = 0; i < Size(model.metadata()); ++i) {
    const tfl::Metadata& m = *model.metadata()->Get(i);
    if (m.buffer() >= buffers) {
      SetError(error, "metadata %u (%.40s): buffer %u out of range (%u buffers)", i,
               m.name() != nullptr ? m.name()->c_str() : "", m.buffer(), buffers);
      return StatusCode::kInvalidModel;
    }
  }
  for (uint32_t i = 0; i < Size(model.signature_defs()); ++i) {
    const tfl::SignatureDef& sig = *model.signature_defs()->Get(i);
    const uint32_t s = sig.subgraph_index();
    if (s >= Size(model.subgraphs())) {
      SetError(error, "signature_def %u: subgraph %u out of range (%u subgraphs)", i, s, Size(model.subgraphs()));
      return StatusCode::kInvalidModel;
    }
    const uint32_t n = Size(model.subgraphs()->Get(s)->tensors());
    for (const auto* maps : {sig.inputs(), sig.outputs()}) {
      for (uint32_t k = 0; k < Size(maps); ++k) {
        const uint32_t t = maps->Get(k)->tensor_index();
        if (t >= n) {
          SetError(error, "signature_def %u: tensor %u out of range (%u tensors in subgraph %u)", i, t, n, s);
          return StatusCode::kInvalidModel;
        }
      }
    }
  }
  return StatusCode::kOk;
}

class NoVisitor final : public CallTreeVisitor {};

}  // namespace

StatusCode VerifyModel(const ModelFile& file, const tfl::Model** model, ErrorText* error) {
  *model = nullptr;
  if (file.data == nullptr || file.size < 8) {
    SetError(error, "not a TFLite flatbuffer: %llu bytes is too small", static_cast<U64>(file.size));
    return StatusCode::kInvalidModel;
  }
  // Large models keep buffer data after the flatbuffer; the flatbuffer itself stays below 2 GiB.
  const size_t verify_size = file.size < FLATBUFFERS_MAX_BUFFER_SIZE ? file.size : FLATBUFFERS_MAX_BUFFER_SIZE - 1;
  flatbuffers::Verifier verifier(file.data, verify_size, kMaxFlatbufferDepth, kMaxFlatbufferTables);
  if (verifier.VerifyBuffer<tfl::Model>(nullptr)) {
    *model = tfl::GetModel(file.data);
    return StatusCode::kOk;
  }
  if (std::memcmp(file.data + 4, "TFL3", 4) != 0) {
    static const char kHex[] = "0123456789ABCDEF";
    char start[24];
    uint32_t n = 0;
    for (uint32_t i = 0; i < 8 && i < file.size; ++i) {
      if (i > 0) start[n++] = ' ';
      start[n++] = kHex[file.data[i] >> 4];
      start[n++] = kHex[file.data[i] & 15];
    }
    start[n] = '\0';
    SetError(error, "not a TFLite flatbuffer (no \"TFL3\" identifier at byte 4; file starts %s)", start);
    return StatusCode::kInvalidModel;
  }
  SetError(error, "TFLite flatbuffer failed verification (truncated or corrupt, %llu bytes)",
           static_cast<U64>(file.size));
  return StatusCode::kInvalidModel;
}

StatusCode CheckModel(const tfl::Model& model, const ModelFile& file, ModelCounts* counts, ErrorText* error) {
  ModelCounts c;
  RT_RETURN_IF_ERROR(CheckCounts(model, &c, error));
  RT_RETURN_IF_ERROR(CheckBuffersAndCodes(model, file, error));
  for (uint32_t s = 0; s < c.subgraphs; ++s) RT_RETURN_IF_ERROR(CheckSubgraph(model, file, s, error));
  RT_RETURN_IF_ERROR(CheckMetadataAndSignatures(model, error));
  NoVisitor none;
  RT_RETURN_IF_ERROR(WalkCallTree(model, none, error, &c.operator_visits));
  if (counts != nullptr) *counts = c;
  return StatusCode::kOk;
}

}  // namespace arenaplan::rules
