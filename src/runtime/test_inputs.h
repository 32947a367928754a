// The deterministic input generator of golden/tflm-x86_64/README.md ("Input generator (exact)")
// and the 64-bit FNV-1a digest used for golden outputs. Shared by the CLI, tests and firmware so
// that all three feed models exactly what TFLM was fed. O(bytes), no allocation.
#pragma once

#include <cstdint>

#include "runtime/tensor_view.h"

namespace arenaplan::rt {

// Fills input tensor k: v = (i*37 + k*101 + seed) mod 251 per element i, stored per type
// (int8 v-125, uint8 v, int16 (v-125)*64, int32/int64 v, float (v-125)/125.0f, double, bool v&1,
// other types zero), little-endian.
void FillGeneratedInput(const TensorView& t, uint32_t k, uint32_t seed);

uint64_t Fnv1a64(const void* data, uint32_t bytes);

}  // namespace arenaplan::rt
