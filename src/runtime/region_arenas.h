// Several memories for one interpreter: a compiled plan (interpreter.h, CompiledPlan::regions) may
// put each planned buffer in a region. Region 0 is the main arena's head (as without regions);
// region r >= 1 is the application's buffer InterpreterOptions::regions[r - 1], 16-aligned, holding
// only planned buffers (tensors and scratch). The tail, the tables, temp and everything unplanned
// stay in the main arena. Inside the runtime a planned buffer of region r >= 1 is kept as one
// "virtual" uint32 offset past the main arena: arena.size + bytes of regions 1..r-1 + its offset,
// so the offset tables keep one 32-bit entry per tensor and cost no extra tail bytes. Resolving an
// offset is O(regions); checking the regions is O(regions).
#pragma once

#include <cstdint>

#include "runtime/arena.h"
#include "runtime/status.h"

namespace arenaplan::rt {

// One memory region given by the application (region r >= 1 of a compiled plan).
struct RegionArena {
  uint8_t* base;   // 16-aligned (kArenaAlignment)
  uint32_t bytes;  // usable bytes from base
};

inline constexpr uint32_t kMaxRegionArenas = 63;  // regions 1..63 (plan/region_problem.h: 64 in all)

// kBadArgument naming the region: a null or misaligned base, too many regions, or regions whose
// bytes do not fit the 32-bit virtual offsets past the main arena.
StatusCode CheckRegionArenas(const Arena& arena, const RegionArena* regions, uint32_t count, ErrorText* error);

// The virtual offset where region r (1..count) starts; r = 0 gives 0. Valid after CheckRegionArenas.
uint32_t RegionStart(const Arena& arena, const RegionArena* regions, uint32_t r);

// The address of (virtual) offset `off`: the main arena below arena.size, else the region it falls
// in; nullptr past the last region.
uint8_t* RegionPtr(const Arena& arena, const RegionArena* regions, uint32_t count, uint32_t off);

}  // namespace arenaplan::rt
