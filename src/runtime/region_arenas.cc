#include "runtime/region_arenas.h"

namespace arenaplan::rt {

StatusCode CheckRegionArenas(const Arena& arena, const RegionArena* regions, uint32_t count, ErrorText* error) {
  if (count > kMaxRegionArenas || (count > 0 && regions == nullptr)) {
    SetError(error, "%u region arenas (at most %u, non-null)", count, kMaxRegionArenas);
    return StatusCode::kBadArgument;
  }
  uint64_t end = arena.size;
  for (uint32_t k = 0; k < count; ++k) {
    const uintptr_t base = reinterpret_cast<uintptr_t>(regions[k].base);
    if (base == 0 || base % kArenaAlignment != 0) {
      SetError(error, "region %u: base %s (must be %u-byte aligned)", k + 1, base == 0 ? "is null" : "misaligned",
               kArenaAlignment);
      return StatusCode::kBadArgument;
    }
    end += regions[k].bytes;
    if (end >= 0xFFFFFFFFull) {  // kNoData and above are not offsets
      SetError(error, "region %u: the regions and the main arena together exceed 4 GiB", k + 1);
      return StatusCode::kBadArgument;
    }
  }
  return StatusCode::kOk;
}

uint32_t RegionStart(const Arena& arena, const RegionArena* regions, uint32_t r) {
  if (r == 0) return 0;
  uint32_t start = arena.size;
  for (uint32_t k = 0; k + 1 < r; ++k) start += regions[k].bytes;  // < 4 GiB: CheckRegionArenas
  return start;
}

uint8_t* RegionPtr(const Arena& arena, const RegionArena* regions, uint32_t count, uint32_t off) {
  if (off < arena.size) return ArenaPtr(arena, off);
  uint32_t rest = off - arena.size;
  for (uint32_t k = 0; k < count; ++k) {
    if (rest < regions[k].bytes) return regions[k].base + rest;
    rest -= regions[k].bytes;
  }
  return nullptr;
}

}  // namespace arenaplan::rt
