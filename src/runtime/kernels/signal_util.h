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
  size_t values = 0;      // offset of value 0
  uint32_t width = 0;     // byte width of the values
  uint32_t count = 0;     // number of entries
  size_t keys = 0;        // offset of key offset 0
  uint32_t key_width = 0;
};

// Parses the root map; false when the buffer is not a well-formed FlexBuffer map.
bool FlexParseMap(const uint8_t* buf, size_t size, FlexMap* out);
// Value of `key` as an integer (ints, uints, bools, indirect ints). False when absent or not
// integral.
bool FlexGetInt(const FlexMap& map, const char* key, int64_t* value);

// Reads the op's custom_options map and integer `key`; fails the op naming the key when missing.
StatusCode SignalOptionInt(KernelContext& ctx, const char* key, int32_t* value);

// Position of the highest set bit, 1-based; 32 (resp. 64) for 0, as TFLM's GCC build returns.
inline uint32_t MostSignificantBit32(uint32_t x) { return x != 0 ? 32u - __builtin_clz(x) : 32u; }
inline uint32_t MostSignificantBit64(uint64_t x) { return x != 0 ? 64u - __builtin_clzll(x) : 64u; }

}  // namespace arenaplan::rt
