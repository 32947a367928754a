#include "runtime/kernels/signal_util.h"

#include <cstring>

namespace arenaplan::rt {

namespace {

// FlexBuffers type codes used here.
constexpr uint32_t kFlexInt = 1, kFlexUInt = 2, kFlexFloat = 3, kFlexIndirectInt = 6, kFlexIndirectUInt = 7,
                   kFlexIndirectFloat = 8, kFlexMap = 9, kFlexBool = 26;

bool ReadUInt(const uint8_t* buf, size_t size, size_t pos, uint32_t width, uint64_t* out) {
  if (width != 1 && width != 2 && width != 4 && width != 8) return false;
  if (pos > size || size - pos < width) return false;
  uint64_t v = 0;
  for (uint32_t i = 0; i < width; ++i) v |= static_cast<uint64_t>(buf[pos + i]) << (8 * i);
  *out = v;
  return true;
}

int64_t SignExtend(uint64_t v, uint32_t width) {
  if (width >= 8) return static_cast<int64_t>(v);
  const uint64_t sign = 1ull << (8 * width - 1);
  return static_cast<int64_t>((v ^ sign) - sign);
}

// pos - offset, checked.
bool Back(size_t pos, uint64_t offset, size_t* out) {
  if (offset > pos) return false;
  *out = pos - static_cast<size_t>(offset);
  return true;
}

}  // namespace

bool FlexParseMap(const uint8_t* buf, size_t size, FlexMap* out) {
  if (buf == nullptr || size < 3) return false;
  const uint32_t root_width = buf[size - 1];
  const uint8_t packed = buf[size - 2];
  if (size < 2u + root_width) return false;
  const size_t root_pos = size - 2 - root_width;
  if ((packed >> 2) != kFlexMap) return false;
  uint64_t off = 0;
  if (!ReadUInt(buf, size, root_pos, root_width, &off)) return false;
  size_t data = 0;
  if (!Back(root_pos, off, &data)) return false;
  const uint32_t w = 1u << (packed & 3u);
  if (data < 3u * w) return false;
  uint64_t keys_off = 0, key_width = 0, count = 0;
  if (!ReadUInt(buf, size, data - 3 * w, w, &keys_off) || !ReadUInt(buf, size, data - 2 * w, w, &key_width) ||
      !ReadUInt(buf, size, data - w, w, &count)) {
    return false;
  }
  size_t keys = 0;
  if (!Back(data - 3 * w, keys_off, &keys)) return false;
  // values, then one type byte per value, must fit
  if (count > size || data + count * w + count > size) return false;
  if (key_width != 1 && key_width != 2 && key_width != 4 && key_width != 8) return false;
  if (keys + count * key_width > size) return false;
  out->buf = buf;
  out->size = size;
  out->values = data;
  out->width = w;
  out->count = static_cast<uint32_t>(count);
  out->keys = keys;
  out->key_width = static_cast<uint32_t>(key_width);
  return true;
}

namespace {

// The value slot of `key`: its position, packed type byte and raw bits. False when absent.
bool FindValue(const FlexMap& m, const char* key, size_t* vpos, uint8_t* packed, uint64_t* raw) {
  const size_t key_len = std::strlen(key);
  for (uint32_t i = 0; i < m.count; ++i) {
    const size_t kpos = m.keys + static_cast<size_t>(i) * m.key_width;
    uint64_t koff = 0;
    size_t str = 0;
    if (!ReadUInt(m.buf, m.size, kpos, m.key_width, &koff) || !Back(kpos, koff, &str)) return false;
    if (str + key_len >= m.size || std::memcmp(m.buf + str, key, key_len) != 0 || m.buf[str + key_len] != 0) {
      continue;
    }
    *vpos = m.values + static_cast<size_t>(i) * m.width;
    *packed = m.buf[m.values + static_cast<size_t>(m.count) * m.width + i];
    return ReadUInt(m.buf, m.size, *vpos, m.width, raw);
  }
  return false;
}

// An indirect scalar's bits (its own byte width from the packed type).
bool ReadIndirect(const FlexMap& m, size_t vpos, uint8_t packed, uint64_t raw, uint64_t* v, uint32_t* width) {
  size_t target = 0;
  *width = 1u << (packed & 3u);
  return Back(vpos, raw, &target) && ReadUInt(m.buf, m.size, target, *width, v);
}

float BitsToFloat(uint64_t bits, uint32_t width) {
  if (width == 8) {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return static_cast<float>(d);
  }
  const uint32_t b = static_cast<uint32_t>(bits);
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

}  // namespace

bool FlexGetInt(const FlexMap& m, const char* key, int64_t* value) {
  size_t vpos = 0;
  uint8_t packed = 0;
  uint64_t raw = 0;
  if (!FindValue(m, key, &vpos, &packed, &raw)) return false;
  const uint32_t type = packed >> 2;
  switch (type) {
    case kFlexInt: *value = SignExtend(raw, m.width); return true;
    case kFlexUInt:
    case kFlexBool: *value = static_cast<int64_t>(raw); return true;
    case kFlexIndirectInt:
    case kFlexIndirectUInt: {
      uint64_t v = 0;
      uint32_t cw = 0;
      if (!ReadIndirect(m, vpos, packed, raw, &v, &cw)) return false;
      *value = type == kFlexIndirectInt ? SignExtend(v, cw) : static_cast<int64_t>(v);
      return true;
    }
    default: return false;
  }
}

bool FlexGetFloat(const FlexMap& m, const char* key, float* value) {
  size_t vpos = 0;
  uint8_t packed = 0;
  uint64_t raw = 0;
  if (!FindValue(m, key, &vpos, &packed, &raw)) return false;
  const uint32_t type = packed >> 2;
  if (type == kFlexFloat) {
    *value = BitsToFloat(raw, m.width);
    return true;
  }
  if (type == kFlexIndirectFloat) {
    uint64_t v = 0;
    uint32_t cw = 0;
    if (!ReadIndirect(m, vpos, packed, raw, &v, &cw)) return false;
    *value = BitsToFloat(v, cw);
    return true;
  }
  int64_t i = 0;
  if (!FlexGetInt(m, key, &i)) return false;
  *value = static_cast<float>(i);  // flexbuffers' AsFloat of an integer
  return true;
}

StatusCode SignalOptionInt(KernelContext& ctx, const char* key, int32_t* value) {
  const tfl::Operator* op = ctx.op();
  const auto* opts = op != nullptr ? op->custom_options() : nullptr;
  FlexMap map;
  if (opts == nullptr || !FlexParseMap(opts->data(), opts->size(), &map)) {
    return ctx.Fail(StatusCode::kInvalidModel, "custom_options are not a FlexBuffer map");
  }
  int64_t v = 0;
  if (!FlexGetInt(map, key, &v)) {
    return ctx.Fail(StatusCode::kInvalidModel, "custom option '%s' missing or not an integer", key);
  }
  if (v < INT32_MIN || v > INT32_MAX) {
    return ctx.Fail(StatusCode::kInvalidModel, "custom option '%s' out of int32 range", key);
  }
  *value = static_cast<int32_t>(v);
  return StatusCode::kOk;
}

bool Int16Fifo::Write(const int16_t* values, uint32_t n) {
  if (n > capacity - size) return false;
  for (uint32_t k = 0; k < n; ++k) data[(read + size + k) % capacity] = values[k];
  size += n;
  return true;
}

bool Int16Fifo::WriteZeros(uint32_t n) {
  if (n > capacity - size) return false;
  for (uint32_t k = 0; k < n; ++k) data[(read + size + k) % capacity] = 0;
  size += n;
  return true;
}

bool Int16Fifo::Get(uint32_t n, int16_t* out) const {
  if (n > size) return false;
  for (uint32_t k = 0; k < n; ++k) out[k] = data[(read + k) % capacity];
  return true;
}

bool Int16Fifo::Discard(uint32_t n) {
  if (n > size) return false;
  read = (read + n) % capacity;
  size -= n;
  return true;
}

bool Int16Fifo::Extend(uint32_t count, uint32_t times) {
  if (count > size || (times > 0 && count > 0 && static_cast<uint64_t>(count) * times > capacity - size)) return false;
  for (uint32_t t = 0; t < times; ++t) {
    const uint32_t start = read + size - count;
    for (uint32_t k = 0; k < count; ++k) data[(read + size + k) % capacity] = data[(start + k) % capacity];
    size += count;
  }
  return true;
}

StatusCode AllocateFifos(KernelContext& ctx, uint32_t rows, uint32_t capacity, Int16Fifo** fifos) {
  *fifos = nullptr;
  if (rows == 0) return StatusCode::kOk;  // an empty input keeps no state
  if (capacity == 0 || rows > (1u << 16) || capacity > (1u << 24)) {
    return ctx.Fail(StatusCode::kInvalidModel, "%u rows of %u samples of state are out of range", rows, capacity);
  }
  void* table = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(rows * static_cast<uint32_t>(sizeof(Int16Fifo)), &table));
  *fifos = static_cast<Int16Fifo*>(table);
  for (uint32_t r = 0; r < rows; ++r) {
    void* mem = nullptr;
    RT_RETURN_IF_ERROR(ctx.AllocatePersistent(capacity * 2u, &mem));
    (*fifos)[r] = Int16Fifo{static_cast<int16_t*>(mem), capacity, 0, 0};
  }
  return StatusCode::kOk;
}

}  // namespace arenaplan::rt
