// One caller-supplied byte arena split into three regions, all tracked as offsets from the
// 16-aligned start (never as raw pointers, so nothing can wrap):
//
//   [ HEAD (planned tensors, scratch) | TEMP (grows up) ... free ... | TAIL (persistent, grows down) ]
//   0                              head                temp        tail                          size
//
// Invariant: head <= temp <= tail <= size, and floor <= tail once the tail holds anything (floor
// is 0 except in a shared arena, shared_arena.h, where other models' heads lie below it; temp may
// cover them, the tail may not). Every allocation is checked against all of them. The
// usable size is rounded down to 16 so that the layout never depends on where the caller's buffer
// ends; `peak` records the largest max(temp, floor) + tail footprint ever reached, which makes the smallest
// working arena exact: AlignUp(peak, 16) (for a 16-aligned start). All operations are O(1).
#pragma once

#include <cstddef>
#include <cstdint>

#include "rules/limits.h"
#include "runtime/status.h"

namespace arenaplan::rt {

inline constexpr uint32_t kArenaAlignment = rules::kBufferAlignment;

struct Arena {
  uint8_t* base = nullptr;     // 16-aligned start of the usable region
  uint32_t size = 0;           // usable bytes from base (multiple of 16)
  uint32_t head = 0;           // end of the head region
  uint32_t temp = 0;           // end of live temp allocations
  uint32_t tail = 0;           // start of the persistent region
  uint32_t peak = 0;           // max over time of max(temp, floor) + (size - tail)
  uint32_t floor = 0;          // the tail never grows below this offset (a shared arena's other heads)
  uint32_t lost_at_start = 0;  // bytes skipped to align the caller's start
};

// Sets up an empty arena over [buffer, buffer + bytes). Fails (kArenaFull) when nothing usable
// remains, or kBadArgument for a null buffer.
StatusCode ArenaInit(Arena* arena, void* buffer, size_t bytes, ErrorText* error);

// Persistent allocation from the tail, aligned to `align` (a power of two <= 16).
StatusCode ArenaAllocTail(Arena* arena, uint32_t bytes, uint32_t align, uint32_t* offset, ErrorText* error,
                          const char* what);
// Temporary allocation above the head; freed all at once by ArenaResetTemp.
StatusCode ArenaAllocTemp(Arena* arena, uint32_t bytes, uint32_t align, uint32_t* offset, ErrorText* error,
                          const char* what);
void ArenaResetTemp(Arena* arena);
// Resizes the head to `bytes` (rounded up to 16). Only while no temp allocation is live.
StatusCode ArenaSetHead(Arena* arena, uint32_t bytes, ErrorText* error, const char* what);

inline uint32_t ArenaTailBytes(const Arena& a) { return a.size - a.tail; }
inline uint32_t ArenaUsedBytes(const Arena& a) { return a.temp + (a.size - a.tail); }
// Smallest arena (16-aligned start) that reproduces every allocation made so far.
inline uint32_t ArenaMinimumBytes(const Arena& a) { return AlignUp(a.peak, kArenaAlignment); }
inline uint8_t* ArenaPtr(const Arena& a, uint32_t offset) { return a.base + offset; }

}  // namespace arenaplan::rt
