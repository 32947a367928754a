// Several models in one caller-supplied arena, run one at a time (TFLM's multi-tenant use, with
// the runtime's layout). Heads overlaid, tails stacked from the end in allocation order:
//
//   [ HEAD (shared; the largest head) | planning temp ... | tail n | ... | tail 2 | tail 1 ]
//   0                                                                                   size
//
//   SharedArena shared;
//   SharedArenaInit(&shared, arena, sizeof(arena), &error);
//   Interpreter a(model_a, size_a, AllOpsResolver(), &shared), b(model_b, size_b, AllOpsResolver(), &shared);
//   a.AllocateTensors(); b.AllocateTensors();      // in this order: a's tail at the end, b's below it
//   fill a's inputs; a.Invoke(); read a's outputs;  // then the same for b, a, ... in any order
//
// Rules:
//  - Model k's AllocateTensors gets the window [0, size - tails of the models allocated before) as
//    its own arena (arena.h): its head from 0, its tail at the window's end, its planning temp in
//    between. Its tail may not grow below the largest earlier head (Arena::floor), so no model's
//    head ever reaches another model's tail.
//  - The head is common: every Invoke, and every later AllocateTensors, overwrites the other
//    models' heads (inputs, outputs, intermediates). Write a model's inputs right before its
//    Invoke and read its outputs right after, before another model runs. An output a model leaves
//    untouched on some Invoke (CIRCULAR_BUFFER between its runs) then holds another model's bytes.
//  - The tails are separate and survive every other model's AllocateTensors and Invoke: tables,
//    kernels' op data (state of stateful ops), variable tensors, resource variables; Reset() of a
//    model touches only its own. A variable tensor that the model's offline plan puts in the head
//    would not survive: such a model is refused (kUnsupported) in a shared arena.
//  - One model at a time (no threads). A failed AllocateTensors adds nothing: the next model gets
//    the same window.
//  - Exact size: with P(k) the tails of the models before k (each rounded up to 16, so that every
//    window ends 16-aligned and each model's layout is that of a 16-byte multiple arena of its
//    own) and m(k) model k's smallest window (its own planning peak, floor included), the arena
//    fits iff size >= max over k of P(k) + m(k); `min_bytes` is that figure, and at one byte less
//    the first model k where it fails does not fit (kArenaFull from its AllocateTensors).
// No heap; O(1) per call; every sum is bounded by the arena's size (< 2^32).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/arena.h"
#include "runtime/status.h"

namespace arenaplan::rt {

struct SharedArena {
  uint8_t* base = nullptr;     // 16-aligned start of the usable region (null until a successful init)
  uint32_t size = 0;           // usable bytes (multiple of 16)
  uint32_t lost_at_start = 0;  // bytes skipped to align the caller's start
  uint32_t tails = 0;          // bytes at the end taken by the allocated models' tails (multiple of 16)
  uint32_t max_head = 0;       // largest head of the allocated models
  uint32_t min_bytes = 0;      // smallest arena (16-aligned start) that holds them all, exact
  uint32_t models = 0;         // models allocated
};

// Sets up an empty shared arena over [buffer, buffer + bytes); errors as ArenaInit.
StatusCode SharedArenaInit(SharedArena* shared, void* buffer, size_t bytes, ErrorText* error);

// The window of the next model to allocate (Interpreter::AllocateTensors calls these two).
// kArenaFull when no 16 bytes are left below the earlier tails.
StatusCode SharedArenaWindow(const SharedArena& shared, Arena* window, ErrorText* error);
// Adds a model allocated in `window`: its tail becomes part of `tails`. *share = bytes of the
// shared arena its tail takes; *needed = the smallest shared arena holding it and every earlier
// model.
void SharedArenaAdd(SharedArena* shared, const Arena& window, uint32_t* share, uint32_t* needed);

// head + tails: the bytes in use once every model is allocated (temp is free then).
inline uint32_t SharedArenaUsedBytes(const SharedArena& s) { return s.max_head + s.tails; }

}  // namespace arenaplan::rt
