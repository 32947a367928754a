#include "rules/int4.h"

namespace arenaplan::rules {

bool UnpacksInt4Filter(int32_t builtin_code) {
  using B = tfl::BuiltinOperator;
  return builtin_code == static_cast<int32_t>(B::FULLY_CONNECTED) ||
         builtin_code == static_cast<int32_t>(B::CONV_2D) ||
         builtin_code == static_cast<int32_t>(B::DEPTHWISE_CONV_2D);
}

namespace {
// The nibble's 4-bit two's-complement value: 0..7 stay, 8..15 become -8..-1.
inline int8_t SignExtend(uint32_t nibble) { return static_cast<int8_t>(static_cast<int32_t>(nibble ^ 8u) - 8); }
}  // namespace

void UnpackInt4(const uint8_t* packed, uint32_t elements, int8_t* out) {
  for (uint32_t i = 0; i < elements / 2; ++i) {
    const uint32_t byte = packed[i];
    out[2 * i] = SignExtend(byte & 0xFu);
    out[2 * i + 1] = SignExtend(byte >> 4);
  }
  if (elements % 2 != 0) out[elements - 1] = SignExtend(packed[elements / 2] & 0xFu);
}

}  // namespace arenaplan::rules
