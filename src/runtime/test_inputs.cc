#include "runtime/test_inputs.h"

#include <cstring>

namespace arenaplan::rt {

void FillGeneratedInput(const TensorView& t, uint32_t k, uint32_t seed) {
  if (t.data == nullptr) return;
  const uint32_t size = TypeSize(t.type);
  auto* out = static_cast<uint8_t*>(t.data);
  if (size == 0) {
    std::memset(out, 0, t.bytes);
    return;
  }
  const uint32_t n = t.bytes / size;
  for (uint32_t i = 0; i < n; ++i) {
    const int32_t v = static_cast<int32_t>((static_cast<uint64_t>(i) * 37 + static_cast<uint64_t>(k) * 101 + seed) %
                                           251);
    uint8_t* p = out + static_cast<uint64_t>(i) * size;
    switch (t.type) {
      case TensorType::INT8: {
        const int8_t x = static_cast<int8_t>(v - 125);
        std::memcpy(p, &x, 1);
        break;
      }
      case TensorType::UINT8: {
        const uint8_t x = static_cast<uint8_t>(v);
        std::memcpy(p, &x, 1);
        break;
      }
      case TensorType::INT16: {
        const int16_t x = static_cast<int16_t>((v - 125) * 64);
        std::memcpy(p, &x, 2);
        break;
      }
      case TensorType::INT32: {
        const int32_t x = v;
        std::memcpy(p, &x, 4);
        break;
      }
      case TensorType::INT64: {
        const int64_t x = v;
        std::memcpy(p, &x, 8);
        break;
      }
      case TensorType::FLOAT32: {
        const float x = static_cast<float>(v - 125) / 125.0f;
        std::memcpy(p, &x, 4);
        break;
      }
      case TensorType::FLOAT64: {
        const double x = static_cast<double>(v - 125) / 125.0;
        std::memcpy(p, &x, 8);
        break;
      }
      case TensorType::BOOL: {
        const uint8_t x = static_cast<uint8_t>(v & 1);
        std::memcpy(p, &x, 1);
        break;
      }
      default: std::memset(p, 0, size); break;
    }
  }
}

uint64_t Fnv1a64(const void* data, uint32_t bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  const auto* p = static_cast<const uint8_t*>(data);
  for (uint32_t i = 0; i < bytes; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace arenaplan::rt
