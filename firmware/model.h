// What main.cc needs from the files build.sh generates for one model (never committed): the model
// bytes in flash (model_data.S, .incbin of the .tflite), the static arena and expected digests
// (model_config.cc), and the op resolver with only the kernels the model uses (resolver.cc,
// written by gen_resolver.py from the kernel tables).
#pragma once

#include <cstdint>

#include "runtime/op_resolver.h"

extern "C" {
extern const unsigned char g_model[];  // 16-aligned
extern const uint32_t g_model_len;
}
extern uint8_t g_arena[];  // 16-aligned, g_arena_bytes long
extern const uint32_t g_arena_bytes;
extern const char g_model_name[];
extern const char g_expected_fnv[];  // golden FNV-1a digests of the outputs, space-separated hex

namespace arenaplan::rt {
const OpResolver& FirmwareOpResolver();
}  // namespace arenaplan::rt
