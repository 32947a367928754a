#include "rules/text.h"

namespace arenaplan::rules {

uint32_t PrintableSequence(const uint8_t* s, uint32_t available) {
  if (available == 0) return 0;
  const uint8_t b = s[0];
  if (b < 0x80) return (b >= 0x20 && b != 0x7F) ? 1 : 0;
  uint32_t len = 0;
  uint32_t cp = 0;
  if ((b & 0xE0) == 0xC0) {
    len = 2;
    cp = b & 0x1F;
  } else if ((b & 0xF0) == 0xE0) {
    len = 3;
    cp = b & 0x0F;
  } else if ((b & 0xF8) == 0xF0) {
    len = 4;
    cp = b & 0x07;
  } else {
    return 0;  // a continuation byte or 0xF8..0xFF where a sequence should start
  }
  if (len > available) return 0;
  for (uint32_t k = 1; k < len; ++k) {
    if ((s[k] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (s[k] & 0x3Fu);
  }
  constexpr uint32_t kMinForLength[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMinForLength[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  if (cp <= 0x9F) return 0;  // C1 controls (U+0080..U+009F)
  return len;
}

uint32_t NextEscapedPiece(const uint8_t* s, uint32_t available, char piece[4], uint32_t* consumed) {
  static const char kHex[] = "0123456789abcdef";
  const uint32_t len = PrintableSequence(s, available);
  if (len == 0) {
    piece[0] = '\\';
    piece[1] = 'x';
    piece[2] = kHex[s[0] >> 4];
    piece[3] = kHex[s[0] & 15];
    *consumed = 1;
    return 4;
  }
  for (uint32_t k = 0; k < len; ++k) piece[k] = static_cast<char>(s[k]);
  *consumed = len;
  return len;
}

uint32_t EscapeText(const char* in, uint32_t n, char* out, uint32_t cap) {
  const auto* s = reinterpret_cast<const uint8_t*>(in);
  uint32_t written = 0;  // characters in out (always < cap)
  uint32_t total = 0;    // characters the whole escaped text needs
  bool full = cap == 0;
  for (uint32_t i = 0; i < n;) {
    char piece[4];
    uint32_t consumed = 0;
    const uint32_t len = NextEscapedPiece(s + i, n - i, piece, &consumed);
    i += consumed;
    total += len;
    if (!full && written + len < cap) {
      for (uint32_t k = 0; k < len; ++k) out[written++] = piece[k];
    } else {
      full = true;  // never a partial escape or sequence
    }
  }
  if (cap > 0) out[written] = '\0';
  return total;
}

}  // namespace arenaplan::rules
