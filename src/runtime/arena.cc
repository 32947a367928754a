#include "runtime/arena.h"

namespace arenaplan::rt {

namespace {

// The lowest offset the tail may reach.
uint32_t TailLimit(const Arena* a) { return a->temp > a->floor ? a->temp : a->floor; }

void NotePeak(Arena* a) {
  const uint32_t used = TailLimit(a) + (a->size - a->tail);
  if (used > a->peak) a->peak = used;
}

StatusCode Full(ErrorText* error, const char* what, uint32_t requested, uint32_t available) {
  SetError(error, "arena full: %s needs %u bytes, %u available", what != nullptr ? what : "allocation", requested,
           available);
  return StatusCode::kArenaFull;
}

}  // namespace

StatusCode ArenaInit(Arena* arena, void* buffer, size_t bytes, ErrorText* error) {
  *arena = Arena{};
  if (buffer == nullptr) {
    SetError(error, "arena buffer is null");
    return StatusCode::kBadArgument;
  }
  const uintptr_t start = reinterpret_cast<uintptr_t>(buffer);
  const uintptr_t skip = (kArenaAlignment - start % kArenaAlignment) % kArenaAlignment;
  if (bytes <= skip) return Full(error, "arena alignment", static_cast<uint32_t>(skip), 0);
  size_t usable = (bytes - skip) & ~static_cast<size_t>(kArenaAlignment - 1);
  if (usable > 0xFFFFFFF0u) usable = 0xFFFFFFF0u;  // offsets are 32-bit
  arena->base = static_cast<uint8_t*>(buffer) + skip;
  arena->size = static_cast<uint32_t>(usable);
  arena->tail = arena->size;
  arena->lost_at_start = static_cast<uint32_t>(skip);
  return StatusCode::kOk;
}

StatusCode ArenaAllocTail(Arena* a, uint32_t bytes, uint32_t align, uint32_t* offset, ErrorText* error,
                          const char* what) {
  const uint32_t limit = TailLimit(a);  // temp >= head, so this checks head, temp and floor
  const uint32_t room = a->tail > limit ? a->tail - limit : 0;
  if (bytes > room) return Full(error, what, bytes, room);
  const uint32_t start = (a->tail - bytes) & ~(align - 1u);
  if (start < limit) return Full(error, what, bytes + ((a->tail - bytes) - start), room);
  a->tail = start;
  *offset = start;
  NotePeak(a);
  return StatusCode::kOk;
}

StatusCode ArenaAllocTemp(Arena* a, uint32_t bytes, uint32_t align, uint32_t* offset, ErrorText* error,
                          const char* what) {
  const uint32_t room = a->tail - a->temp;
  const uint32_t pad = (align - a->temp % align) % align;
  if (pad > room || bytes > room - pad) return Full(error, what, bytes + pad, room);
  *offset = a->temp + pad;
  a->temp += pad + bytes;
  NotePeak(a);
  return StatusCode::kOk;
}

void ArenaResetTemp(Arena* a) { a->temp = a->head; }

StatusCode ArenaSetHead(Arena* a, uint32_t bytes, ErrorText* error, const char* what) {
  if (a->temp != a->head) {
    SetError(error, "internal: head resized while temp memory is live (%s)", what);
    return StatusCode::kBadState;
  }
  if (bytes > a->tail || AlignUp(bytes, kArenaAlignment) > a->tail) return Full(error, what, bytes, a->tail);
  a->head = AlignUp(bytes, kArenaAlignment);
  a->temp = a->head;
  NotePeak(a);
  return StatusCode::kOk;
}

}  // namespace arenaplan::rt
