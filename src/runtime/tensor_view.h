// What a kernel sees of one tensor: a plain struct that points at data (flatbuffer weights in
// flash, or arena memory) and at dims (usually the flatbuffer's shape vector). The interpreter
// builds views on the fly from the model, so they cost no arena memory; tests build them on the
// stack over their own arrays. Quantization: `scale`/`zero_point` hold the first (per-tensor)
// parameters; per-channel tensors also point at the full vectors.
#pragma once

#include <cstdint>

#include "schema/tflite_generated.h"

namespace arenaplan::rt {

using tfl::TensorType;

struct TensorView {
  void* data = nullptr;           // element 0; nullptr for an unplanned / omitted tensor
  const int32_t* dims = nullptr;  // `rank` entries (may be nullptr when rank == 0)
  int32_t rank = 0;
  TensorType type = TensorType::FLOAT32;
  uint32_t bytes = 0;  // element count x element size
  // Quantization (all zero when the tensor is not quantized).
  float scale = 0.0f;             // scale[0]
  int32_t zero_point = 0;         // zero_point[0]
  const float* scales = nullptr;  // per-channel scales (count = num_channels), or nullptr
  int32_t num_channels = 0;       // 0 = not quantized, 1 = per-tensor
  int32_t quantized_dimension = 0;

  template <typename T>
  T* As() const {
    return static_cast<T*>(data);
  }
};

// Element size in bytes as TFLM counts it (docs/tflm-arena.md §3); 0 for unsupported types
// (STRING, RESOURCE is 4, ...).
uint32_t TypeSize(TensorType type);
const char* TypeName(TensorType type);
// TFLM's TfLiteType number of a schema type (kTfLiteFloat32 = 1, kTfLiteInt4 = 18, ...), as TFLM's
// "type %s (%d)" messages print it.
int32_t TfLiteTypeCode(TensorType type);

// Product of dims (1 for rank 0). Saturates to INT64 max never: dims come verified, and every
// caller that sizes memory uses CheckedElementCount instead.
int64_t ElementCount(const TensorView& t);
// Overflow-checked element count; false if any dim < 0 or the product exceeds 2^31 - 1.
bool CheckedElementCount(const int32_t* dims, int32_t rank, uint32_t* count);

// Dimension `i` counted from the front; negative `i` counts from the back (-1 = last). 0 if out
// of range.
int32_t Dim(const TensorView& t, int32_t i);
// True when both views have the same rank and dims.
bool SameShape(const TensorView& a, const TensorView& b);

// Builds a view over caller memory (tests, kernels making sub-views). `dims` must outlive it.
TensorView MakeView(void* data, TensorType type, const int32_t* dims, int32_t rank, float scale = 0.0f,
                    int32_t zero_point = 0);

}  // namespace arenaplan::rt
