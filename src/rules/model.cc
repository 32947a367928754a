#include "rules/model.h"

#include <cstring>

#include "rules/status.h"

namespace arenaplan::rules {

int32_t BuiltinCode(const tfl::OperatorCode& code) {
  const int32_t b = static_cast<int32_t>(code.builtin_code());
  return b > code.deprecated_builtin_code() ? b : code.deprecated_builtin_code();
}

const char* OpName(const tfl::OperatorCode& code, char* buf, uint32_t cap) {
  const int32_t builtin = BuiltinCode(code);
  if (builtin == static_cast<int32_t>(tfl::BuiltinOperator::CUSTOM)) {
    // Copied raw; Format's %s escapes it wherever it is printed.
    uint32_t n = Format(buf, cap, "CUSTOM:");
    const char* custom = code.custom_code() != nullptr ? code.custom_code()->c_str() : "";
    for (; *custom != '\0' && n + 1 < cap; ++custom) buf[n++] = *custom;
    if (cap > 0) buf[n < cap ? n : cap - 1] = '\0';
    return buf;
  }
  const char* name = nullptr;
  if (builtin >= static_cast<int32_t>(tfl::BuiltinOperator::MIN) &&
      builtin <= static_cast<int32_t>(tfl::BuiltinOperator::MAX)) {
    name = tfl::EnumNameBuiltinOperator(static_cast<tfl::BuiltinOperator>(builtin));
  }
  if (name != nullptr && name[0] != '\0') {
    Format(buf, cap, "%s", name);
  } else {
    Format(buf, cap, "UNKNOWN_%d", builtin);
  }
  return buf;
}

uint32_t TypeBytes(tfl::TensorType type) {
  using T = tfl::TensorType;
  switch (type) {
    case T::FLOAT32:
    case T::INT32:
    case T::UINT32:
    case T::RESOURCE: return 4;
    case T::FLOAT16:
    case T::BFLOAT16:
    case T::INT16:
    case T::UINT16: return 2;
    case T::INT8:
    case T::UINT8:
    case T::BOOL:
    case T::INT4:  // TFLM plans int4 unpacked, one byte per element
      return 1;
    case T::FLOAT64:
    case T::INT64:
    case T::UINT64:
    case T::COMPLEX64: return 8;
    case T::COMPLEX128: return 16;
    default:  // STRING, VARIANT, unknown
      return 0;
  }
}

uint64_t TensorBytes(const tfl::Tensor& tensor) {
  uint64_t n = TypeBytes(tensor.type());
  const auto* shape = tensor.shape();
  for (uint32_t d = 0; d < Size(shape); ++d) {
    const int32_t dim = shape->Get(d);
    if (dim <= 0) return 0;
    if (__builtin_mul_overflow(n, static_cast<uint64_t>(dim), &n)) return UINT64_MAX;
  }
  return n;
}

int32_t LittleEndianWord(const uint8_t* p) {
  const uint32_t v = uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
  int32_t out;
  std::memcpy(&out, &v, sizeof(out));
  return out;
}

int64_t Int64At(const flatbuffers::Vector<int64_t>& v, uint32_t k) {
  const uint8_t* p = v.Data() + 8u * k;
  uint64_t u = 0;
  for (int b = 7; b >= 0; --b) u = (u << 8) | p[b];
  int64_t out;
  std::memcpy(&out, &u, sizeof(out));
  return out;
}

void BufferData(const tfl::Model& model, const ModelFile& file, uint32_t index, const uint8_t** data, uint64_t* bytes) {
  *data = nullptr;
  *bytes = 0;
  if (index >= Size(model.buffers())) return;
  const tfl::Buffer* b = model.buffers()->Get(index);
  if (b == nullptr) return;
  if (b->data() != nullptr && b->data()->size() > 0) {
    *data = b->data()->data();
    *bytes = b->data()->size();
    return;
  }
  // External data of large models: offset from the file start (0 and 1 mean "none").
  if (b->offset() <= 1 || b->size() == 0) return;
  if (b->offset() > file.size || b->size() > file.size - b->offset()) return;
  *data = file.data + b->offset();
  *bytes = b->size();
}

uint32_t CalledSubgraphs(const tfl::Model& model, const tfl::Operator& op, int32_t out[2]) {
  const auto* codes = model.operator_codes();
  if (op.opcode_index() >= Size(codes)) return 0;
  switch (static_cast<tfl::BuiltinOperator>(BuiltinCode(*codes->Get(op.opcode_index())))) {
    case tfl::BuiltinOperator::WHILE: {
      const auto* o = op.builtin_options_as_WhileOptions();
      out[0] = o != nullptr ? o->cond_subgraph_index() : 0;
      out[1] = o != nullptr ? o->body_subgraph_index() : 0;
      return 2;
    }
    case tfl::BuiltinOperator::IF: {
      const auto* o = op.builtin_options_as_IfOptions();
      out[0] = o != nullptr ? o->then_subgraph_index() : 0;
      out[1] = o != nullptr ? o->else_subgraph_index() : 0;
      return 2;
    }
    case tfl::BuiltinOperator::CALL_ONCE: {
      const auto* o = op.builtin_options_as_CallOnceOptions();
      out[0] = o != nullptr ? o->init_subgraph_index() : 0;
      return 1;
    }
    default: return 0;
  }
}

uint32_t ModelIndex::SubgraphOfTensor(uint32_t t) const {
  uint32_t lo = 0, hi = num_subgraphs;  // tensor_base[lo] <= t < tensor_base[hi]
  while (hi - lo > 1) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (tensor_base[mid] <= t) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

const tfl::Tensor& ModelIndex::tensor(uint32_t global) const {
  const uint32_t s = SubgraphOfTensor(global);
  return *subgraph(s).tensors()->Get(global - tensor_base[s]);
}

void FillModelIndex(const tfl::Model& model, uint32_t* tensor_base, uint32_t* op_base) {
  const uint32_t n = Size(model.subgraphs());
  uint32_t tensors = 0, ops = 0;
  for (uint32_t s = 0; s < n; ++s) {
    tensor_base[s] = tensors;
    op_base[s] = ops;
    tensors += Size(model.subgraphs()->Get(s)->tensors());
    ops += Size(model.subgraphs()->Get(s)->operators());
  }
  tensor_base[n] = tensors;
  op_base[n] = ops;
}

}  // namespace arenaplan::rules
