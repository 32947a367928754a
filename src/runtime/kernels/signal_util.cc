#include "runtime/kernels/signal_util.h"

#include <cstring>

namespace arenaplan::rt {

namespace {

// FlexBuffers type codes used here.
constexpr uint32_t kFlexInt = 1, kFlexUInt = 2, kFlexIndirectInt = 6, kFlexIndirectUInt = 7,
                   kFlexMap = 9, kFlexBool = 26;

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
  if (!ReadUInt(buf, size, data - 3 * w, w, &keys_off) ||
      !ReadUInt(buf, size, data - 2 * w, w, &key_width) || !ReadUInt(buf, size, data - w, w, &count)) {
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

bool FlexGetInt(const FlexMap& m, const char* key, int64_t* value) {
  const size_t key_len = std::strlen(key);
  for (uint32_t i = 0; i < m.count; ++i) {
    const size_t kpos = m.keys + static_cast<size_t>(i) * m.key_width;
    uint64_t koff = 0;
    size_t str = 0;
    if (!ReadUInt(m.buf, m.size, kpos, m.key_width, &koff) || !Back(kpos, koff, &str)) return false;
    if (str + key_len >= m.size || std::memcmp(m.buf + str, key, key_len) != 0 ||
        m.buf[str + key_len] != 0) {
      continue;
    }
    const size_t vpos = m.values + static_cast<size_t>(i) * m.width;
    const uint8_t packed = m.buf[m.values + static_cast<size_t>(m.count) * m.width + i];
    const uint32_t type = packed >> 2;
    uint64_t raw = 0;
    if (!ReadUInt(m.buf, m.size, vpos, m.width, &raw)) return false;
    switch (type) {
      case kFlexInt: *value = SignExtend(raw, m.width); return true;
      case kFlexUInt:
      case kFlexBool: *value = static_cast<int64_t>(raw); return true;
      case kFlexIndirectInt:
      case kFlexIndirectUInt: {
        size_t target = 0;
        const uint32_t cw = 1u << (packed & 3u);
        uint64_t v = 0;
        if (!Back(vpos, raw, &target) || !ReadUInt(m.buf, m.size, target, cw, &v)) return false;
        *value = type == kFlexIndirectInt ? SignExtend(v, cw) : static_cast<int64_t>(v);
        return true;
      }
      default: return false;
    }
  }
  return false;
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

}  // namespace arenaplan::rt
