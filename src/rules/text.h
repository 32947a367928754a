// Printing what a model says: tensor, op, subgraph and metadata names, custom codes and the
// description are bytes from the file, so they are escaped before they reach a terminal or a log.
// Kept as is: printable ASCII and valid UTF-8 outside the C1 range. Written as \xNN: C0 controls
// (ESC, BEL, CR, NUL, ...), DEL, C1 controls (U+0080..U+009F, which some terminals obey as
// escapes) and every byte that is not part of a valid UTF-8 sequence (overlong forms, surrogates,
// > U+10FFFF, truncated sequences). A backslash stays a backslash, so escaping is idempotent:
// escaped text escapes to itself, and a message built from escaped pieces can be escaped again at
// the output without change. O(n), no allocation.
#pragma once

#include <cstdint>

namespace arenaplan::rules {

// Length of the valid, printable UTF-8 sequence starting at s[0] (1 for printable ASCII, 2..4 for
// a multi-byte character), or 0 when s[0] must be escaped. `available` bytes may be read.
uint32_t PrintableSequence(const uint8_t* s, uint32_t available);

// The next piece of the escaped form of s[0, available) (available > 0): writes 1..4 characters
// to piece and returns how many; *consumed is the number of input bytes they stand for.
uint32_t NextEscapedPiece(const uint8_t* s, uint32_t available, char piece[4], uint32_t* consumed);

// Writes the escaped form of in[0, n) into out (NUL-terminated, truncated to cap - 1 characters,
// never splitting an escape or a UTF-8 sequence). Returns the full escaped length, so a caller
// can size its buffer: at most 4 * n.
uint32_t EscapeText(const char* in, uint32_t n, char* out, uint32_t cap);

}  // namespace arenaplan::rules
