// Shared pieces of the TFLM Signal-library custom ops (signal_*.cc): a tiny FlexBuffers map reader
// for their custom_options, and the integer helpers several of them use.
//
// The reader handles exactly what these ops store: a root map whose values are inline scalars
// (int / uint / bool / float) or indirect scalars, looked up by key. It never allocates, checks
// every offset against the buffer, and is O(keys x key length) per lookup. (flatbuffers'
// flexbuffers.h would do, but pulls in std::string/std::vector; this stays embedded-clean.)
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/kernel_api.h"

namespace arenaplan::rt {

struct FlexMap {
  const uint8_t* buf = nullptr;
  size_t size = 0;
  size_t values = 0;   // offset of value 0
  uint32_t width = 0;  // byte width of the values
  uint32_t count = 0;  // number of entries
  size_t keys = 0;     // offset of key offset 0
  uint32_t key_width = 0;
};

// Parses the root map; false when the buffer is not a well-formed FlexBuffer map.
bool FlexParseMap(const uint8_t* buf, size_t size, FlexMap* out);
// Value of `key` as an integer (ints, uints, bools, indirect ints). False when absent or not
// integral.
bool FlexGetInt(const FlexMap& map, const char* key, int64_t* value);
// Value of `key` as a float (floats, doubles, indirect floats, or integers converted).
bool FlexGetFloat(const FlexMap& map, const char* key, float* value);

// Reads the op's custom_options map and integer `key`; fails the op naming the key when missing.
StatusCode SignalOptionInt(KernelContext& ctx, const char* key, int32_t* value);

// A FIFO of int16 samples over caller memory, with the behaviour of TFLM's
// tflm_signal::CircularBuffer as the Signal ops use it (Framer, Delay, Stacker): append, append
// zeros, copy the oldest n, drop the oldest n, repeat the newest values. Operations that would
// overflow or underflow return false (TFLM only asserts). O(n) per call.
struct Int16Fifo {
  int16_t* data = nullptr;
  uint32_t capacity = 0;
  uint32_t read = 0;  // index of the oldest value
  uint32_t size = 0;  // values held
  void Reset() { read = size = 0; }
  bool Write(const int16_t* values, uint32_t n);
  bool WriteZeros(uint32_t n);
  bool Get(uint32_t n, int16_t* out) const;  // the oldest n, in order
  bool Discard(uint32_t n);
  bool Extend(uint32_t count, uint32_t times);  // append the newest `count` values `times` times
};

// Prepare: persistent memory for `rows` FIFOs of `capacity` samples each (*fifos points at them).
StatusCode AllocateFifos(KernelContext& ctx, uint32_t rows, uint32_t capacity, Int16Fifo** fifos);

// Position of the highest set bit, 1-based; 32 (resp. 64) for 0, as TFLM's GCC build returns.
inline uint32_t MostSignificantBit32(uint32_t x) { return x != 0 ? 32u - __builtin_clz(x) : 32u; }
inline uint32_t MostSignificantBit64(uint64_t x) { return x != 0 ? 64u - __builtin_clzll(x) : 64u; }

}  // namespace arenaplan::rt
