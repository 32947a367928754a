#include "rules/status.h"

#include <cstddef>

#include "rules/text.h"

namespace arenaplan::rules {

const char* StatusName(StatusCode s) {
  switch (s) {
    case StatusCode::kOk: return "ok";
    case StatusCode::kInvalidModel: return "invalid model";
    case StatusCode::kUnsupported: return "unsupported";
    case StatusCode::kArenaFull: return "arena full";
    case StatusCode::kBadState: return "bad state";
    case StatusCode::kKernelError: return "kernel error";
    case StatusCode::kBadArgument: return "bad argument";
    case StatusCode::kAborted: return "aborted";
  }
  return "unknown";
}

namespace {

struct Sink {
  char* buf;
  uint32_t cap;
  uint32_t len;
  void Put(char c) {
    if (len + 1 < cap) buf[len] = c;
    ++len;
  }
  // Escaped (rules/text.h): model strings reach messages through %s. At most `max` characters
  // of escaped text, whole pieces only, "..." marking a cut.
  void PutStr(const char* s, uint32_t max) {
    if (s == nullptr) return;
    uint32_t n = 0;
    while (s[n] != '\0') ++n;
    const bool cut = EscapeText(s, n, nullptr, 0) > max;
    const uint32_t room = cut ? (max >= 3 ? max - 3 : 0) : max;
    uint32_t shown = 0;
    for (uint32_t i = 0; i < n;) {
      char piece[4];
      uint32_t consumed = 0;
      const uint32_t k = NextEscapedPiece(reinterpret_cast<const uint8_t*>(s) + i, n - i, piece, &consumed);
      if (shown + k > room) break;
      i += consumed;
      shown += k;
      PutPiece(piece, k);
    }
    if (cut) PutPiece("...", 3);
  }
  void PutPiece(const char* piece, uint32_t k) {
    if (len + k >= cap) {
      len += k;  // counts as written, as Put does: the text is truncated here
      return;
    }
    for (uint32_t c = 0; c < k; ++c) Put(piece[c]);
  }
  void PutUnsigned(uint64_t v, uint32_t base) {
    char digits[24];
    uint32_t n = 0;
    do {
      const uint32_t d = static_cast<uint32_t>(v % base);
      digits[n++] = static_cast<char>(d < 10 ? '0' + d : 'a' + d - 10);
      v /= base;
    } while (v != 0 && n < sizeof(digits));
    while (n > 0) Put(digits[--n]);
  }
  void PutSigned(int64_t v) {
    if (v < 0) {
      Put('-');
      PutUnsigned(static_cast<uint64_t>(0) - static_cast<uint64_t>(v), 10);
    } else {
      PutUnsigned(static_cast<uint64_t>(v), 10);
    }
  }
};

}  // namespace

uint32_t FormatV(char* buf, uint32_t cap, const char* fmt, va_list args) {
  Sink s{buf, cap, 0};
  for (const char* p = fmt; *p != '\0'; ++p) {
    if (*p != '%') {
      s.Put(*p);
      continue;
    }
    ++p;
    uint32_t precision = 0xFFFFFFFFu;  // %.Ns: at most N characters of the escaped string
    if (*p == '.') {
      precision = 0;
      for (++p; *p >= '0' && *p <= '9'; ++p) precision = precision * 10 + static_cast<uint32_t>(*p - '0');
    }
    int longs = 0;
    bool size_t_arg = false;
    while (*p == 'l' || *p == 'z') {
      if (*p == 'l') ++longs;
      if (*p == 'z') size_t_arg = true;
      ++p;
    }
    switch (*p) {
      case 'd':
      case 'i':
        if (size_t_arg)
          s.PutSigned(static_cast<int64_t>(va_arg(args, long)));
        else if (longs >= 2)
          s.PutSigned(va_arg(args, long long));
        else if (longs == 1)
          s.PutSigned(va_arg(args, long));
        else
          s.PutSigned(va_arg(args, int));
        break;
      case 'u':
      case 'x': {
        const uint32_t base = *p == 'u' ? 10 : 16;
        if (size_t_arg)
          s.PutUnsigned(va_arg(args, size_t), base);
        else if (longs >= 2)
          s.PutUnsigned(va_arg(args, unsigned long long), base);
        else if (longs == 1)
          s.PutUnsigned(va_arg(args, unsigned long), base);
        else
          s.PutUnsigned(va_arg(args, unsigned), base);
        break;
      }
      case 's': s.PutStr(va_arg(args, const char*), precision); break;
      case 'c': s.Put(static_cast<char>(va_arg(args, int))); break;
      case '%': s.Put('%'); break;
      case '\0': --p; break;  // trailing '%': stop at the terminator
      default: s.Put('?'); break;
    }
  }
  if (cap > 0) buf[s.len < cap ? s.len : cap - 1] = '\0';
  return s.len < cap ? s.len : (cap > 0 ? cap - 1 : 0);
}

uint32_t Format(char* buf, uint32_t cap, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  const uint32_t n = FormatV(buf, cap, fmt, args);
  va_end(args);
  return n;
}

void SetErrorV(ErrorText* out, const char* prefix, const char* fmt, va_list args) {
  if (out == nullptr) return;
  uint32_t n = prefix != nullptr ? Format(out->text, ErrorText::kCapacity, "%s", prefix) : 0;
  n += FormatV(out->text + n, ErrorText::kCapacity - n, fmt, args);
  out->length = n;
}

void SetError(ErrorText* out, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  SetErrorV(out, nullptr, fmt, args);
  va_end(args);
}

}  // namespace arenaplan::rules
