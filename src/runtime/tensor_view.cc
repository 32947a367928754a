#include "runtime/tensor_view.h"

#include "rules/model.h"

namespace arenaplan::rt {

// TFLM's bytes per element, from rules/ (the one copy of that rule).
uint32_t TypeSize(TensorType type) { return rules::TypeBytes(type); }

const char* TypeName(TensorType type) {
  const char* name = tfl::EnumNameTensorType(type);
  return (name != nullptr && name[0] != '\0') ? name : "UNKNOWN_TYPE";
}

int32_t TfLiteTypeCode(TensorType type) {
  // The schema numbers FLOAT32 0, FLOAT16 1, INT32 2 ... INT8 9, FLOAT64 10 ...; TfLiteType counts
  // kTfLiteNoType 0, then the same order with FLOAT16 moved after INT8.
  const int32_t t = static_cast<int32_t>(type);
  if (t == 0) return 1;
  if (t == 1) return 10;
  return t <= 9 ? t : t + 1;
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
