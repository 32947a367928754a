// TFLM's packed INT4 weights, the one copy of the rule (host and runtime):
//   * storage: a constant INT4 tensor of n elements holds ceil(n / 2) bytes, element 2i in the low
//     nibble of byte i and element 2i + 1 in its high nibble (row-major element order), each a
//     two's-complement value in -8..7; an odd last element sits in the low nibble of the last byte
//     (tensor_utils::UnpackDenseInt4IntoInt8);
//   * where TFLM unpacks: FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D with an INT4 filter
//     (input 1) request one scratch buffer of n bytes (RequestScratchBufferInArena of the filter's
//     FlatSize) in Prepare and unpack the filter into it on every Invoke; no other kernel reads
//     INT4 (TRANSPOSE_CONV and BATCH_MATMUL refuse it in Prepare).
// O(1) each, except UnpackInt4 (O(n)).
#pragma once

#include <cstdint>

#include "schema/tflite_generated.h"

namespace arenaplan::rules {

// Bytes a packed INT4 constant of `elements` values occupies in its buffer: ceil(elements / 2).
inline uint64_t PackedInt4Bytes(uint64_t elements) { return elements / 2 + elements % 2; }

// Bytes of the scratch buffer TFLM's kernel requests to unpack an INT4 filter of `elements` values
// into int8: one per element.
inline uint64_t Int4UnpackScratchBytes(uint64_t elements) { return elements; }

// True for the builtin ops whose TFLM kernel unpacks an INT4 filter (input 1) into a scratch buffer.
bool UnpacksInt4Filter(int32_t builtin_code);

// Unpacks `elements` values from `packed` (PackedInt4Bytes(elements) bytes) into out[0..elements),
// sign-extended; bit-exact with TFLM's UnpackDenseInt4IntoInt8.
void UnpackInt4(const uint8_t* packed, uint32_t elements, int8_t* out);

}  // namespace arenaplan::rules
