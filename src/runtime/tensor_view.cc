#include "runtime/tensor_view.h"

namespace arenaplan::rt {

uint32_t TypeSize(TensorType type) {
  switch (type) {
    case TensorType::FLOAT32:
    case TensorType::INT32:
    case TensorType::UINT32:
    case TensorType::RESOURCE: return 4;
    case TensorType::FLOAT16:
    case TensorType::BFLOAT16:
    case TensorType::INT16:
    case TensorType::UINT16: return 2;
    case TensorType::INT8:
    case TensorType::UINT8:
    case TensorType::BOOL:
    case TensorType::INT4: return 1;
    case TensorType::FLOAT64:
    case TensorType::INT64:
    case TensorType::UINT64:
    case TensorType::COMPLEX64: return 8;
    case TensorType::COMPLEX128: return 16;
    default: return 0;
  }
}

const char* TypeName(TensorType type) {
  const char* name = tfl::EnumNameTensorType(type);
  return (name != nullptr && name[0] != '\0') ? name : "UNKNOWN_TYPE";
}

int64_t ElementCount(const TensorView& t) {
  int64_t n = 1;
  for (int32_t i = 0; i < t.rank; ++i) n *= t.dims[i];
  return n;
}

bool CheckedElementCount(const int32_t* dims, int32_t rank, uint32_t* count) {
  uint64_t n = 1;
  for (int32_t i = 0; i < rank; ++i) {
    if (dims[i] < 0) return false;
    n *= static_cast<uint64_t>(dims[i]);
    if (n > 0x7fffffffu) return false;
  }
  *count = static_cast<uint32_t>(n);
  return true;
}

int32_t Dim(const TensorView& t, int32_t i) {
  if (i < 0) i += t.rank;
  if (i < 0 || i >= t.rank || t.dims == nullptr) return 0;
  return t.dims[i];
}

bool SameShape(const TensorView& a, const TensorView& b) {
  if (a.rank != b.rank) return false;
  for (int32_t i = 0; i < a.rank; ++i) {
    if (a.dims[i] != b.dims[i]) return false;
  }
  return true;
}

TensorView MakeView(void* data, TensorType type, const int32_t* dims, int32_t rank, float scale, int32_t zero_point) {
  TensorView v;
  v.data = data;
  v.type = type;
  v.dims = dims;
  v.rank = rank;
  uint32_t count = 0;
  v.bytes = CheckedElementCount(dims, rank, &count) ? count * TypeSize(type) : 0;
  v.scale = scale;
  v.zero_point = zero_point;
  v.num_channels = scale != 0.0f ? 1 : 0;
  return v;
}

}  // namespace arenaplan::rt
