#include "runtime/shared_arena.h"

namespace arenaplan::rt {

StatusCode SharedArenaInit(SharedArena* shared, void* buffer, size_t bytes, ErrorText* error) {
  *shared = SharedArena{};
  Arena whole;
  RT_RETURN_IF_ERROR(ArenaInit(&whole, buffer, bytes, error));
  shared->base = whole.base;
  shared->size = whole.size;
  shared->lost_at_start = whole.lost_at_start;
  return StatusCode::kOk;
}

StatusCode SharedArenaWindow(const SharedArena& s, Arena* window, ErrorText* error) {
  *window = Arena{};
  if (s.base == nullptr) {
    SetError(error, "shared arena not initialised");
    return StatusCode::kBadState;
  }
  const uint32_t room = s.size - s.tails;  // tails <= size (SharedArenaAdd)
  if (room < kArenaAlignment || room < s.max_head) {
    SetError(error, "arena full: %u bytes left (%u of %u taken by the tails of %u earlier models, whose head needs %u)",
             room, s.tails, s.size, s.models, s.max_head);
    return StatusCode::kArenaFull;
  }
  RT_RETURN_IF_ERROR(ArenaInit(window, s.base, room, error));  // base is 16-aligned: nothing skipped
  window->lost_at_start = s.lost_at_start;
  // Earlier heads lie in [0, max_head): this model's tail stays above them (and the window's
  // smallest size counts them from the start).
  window->floor = s.max_head;
  window->peak = s.max_head;
  return StatusCode::kOk;
}

void SharedArenaAdd(SharedArena* s, const Arena& window, uint32_t* share, uint32_t* needed) {
  // The next window ends at this tail's start rounded down to 16: window.size is a multiple of 16
  // and tail <= size, so share <= window.size = s->size - s->tails, and the sums stay <= s->size.
  const uint32_t start = window.tail & ~(kArenaAlignment - 1u);
  *share = window.size - start;
  const uint32_t window_min = ArenaMinimumBytes(window);  // <= window.size: the window held the model
  *needed = s->tails + (window_min < window.size ? window_min : window.size);
  if (*needed > s->min_bytes) s->min_bytes = *needed;
  s->tails += *share;
  if (window.head > s->max_head) s->max_head = window.head;
  s->models += 1;
}

}  // namespace arenaplan::rt
