// Firmware main: runs one embedded corpus model (model_data.cc, generated from ../shared at build
// time) in a static arena with arenaplan's runtime, feeds the golden deterministic inputs, and
// prints every output's bytes and FNV-1a digest; compares them with the golden TFLM digests baked
// in at build time (FW_EXPECTED_FNV, space-separated hex) and exits through semihosting.
#include <cstdarg>
#include <cstdint>
#include <cstring>

#include "runtime/interpreter.h"
#include "runtime/test_inputs.h"
#include "semihost.h"

#ifndef FW_ARENA_BYTES
#error "FW_ARENA_BYTES must be defined (the arena size, from `arenaplan run --format json`)"
#endif
#ifndef FW_EXPECTED_FNV
#define FW_EXPECTED_FNV ""
#endif
#ifndef FW_MODEL_NAME
#define FW_MODEL_NAME "model"
#endif

extern const unsigned char g_model[];
extern const unsigned int g_model_len;

namespace {

alignas(16) uint8_t g_arena[FW_ARENA_BYTES];

using arenaplan::rt::Format;

void Print(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void Print(const char* fmt, ...) {
  char line[256];
  va_list args;
  va_start(args, fmt);
  arenaplan::rt::FormatV(line, sizeof(line), fmt, args);
  va_end(args);
  semihost::Write(line);
}

void Hex64(uint64_t v, char* out) {
  for (int i = 15; i >= 0; --i, v >>= 4) out[i] = "0123456789abcdef"[v & 15];
  out[16] = '\0';
}

// The k-th space-separated word of FW_EXPECTED_FNV, or "" when absent.
void ExpectedFnv(uint32_t k, char* out) {
  const char* p = FW_EXPECTED_FNV;
  for (uint32_t i = 0; i < k && *p; ++i) {
    while (*p && *p != ' ') ++p;
    while (*p == ' ') ++p;
  }
  uint32_t n = 0;
  while (p[n] && p[n] != ' ' && n < 16) {
    out[n] = p[n];
    ++n;
  }
  out[n] = '\0';
}

void PrintBytes(const uint8_t* data, uint32_t bytes) {
  char line[3 * 32 + 2];
  for (uint32_t i = 0; i < bytes && i < 64; i += 32) {
    uint32_t n = 0;
    for (uint32_t j = i; j < bytes && j < i + 32; ++j) {
      line[n++] = "0123456789abcdef"[data[j] >> 4];
      line[n++] = "0123456789abcdef"[data[j] & 15];
      line[n++] = ' ';
    }
    line[n++] = '\n';
    line[n] = '\0';
    semihost::Write("  ");
    semihost::Write(line);
  }
}

}  // namespace

int main() {
  using namespace arenaplan::rt;
  Print("arenaplan firmware: %s (%u bytes of model in flash, arena %u bytes)\n", FW_MODEL_NAME, g_model_len,
        static_cast<unsigned>(sizeof(g_arena)));
  Interpreter interp(g_model, g_model_len, AllOpsResolver(), g_arena, sizeof(g_arena));
  StatusCode s = interp.AllocateTensors();
  if (s != StatusCode::kOk) {
    Print("AllocateTensors failed (%s): %s\nRESULT FAIL\n", StatusName(s), interp.error_message());
    return 1;
  }
  const MemoryRecord& rec = interp.memory_record();
  Print("head %u tail %u arena_used_bytes %u min_arena_bytes %u\n", rec.head_bytes, rec.tail_bytes,
        interp.arena_used_bytes(), rec.min_arena_bytes);
  for (uint32_t k = 0; k < interp.inputs_size(); ++k) FillGeneratedInput(interp.input(k), k, 0);
  s = interp.Invoke();
  if (s != StatusCode::kOk) {
    Print("Invoke failed (%s): %s\nRESULT FAIL\n", StatusName(s), interp.error_message());
    return 1;
  }
  bool pass = interp.outputs_size() > 0;
  for (uint32_t k = 0; k < interp.outputs_size(); ++k) {
    const TensorView out = interp.output(k);
    char got[17], want[17];
    Hex64(Fnv1a64(out.data, out.bytes), got);
    ExpectedFnv(k, want);
    const bool same = std::strcmp(got, want) == 0;
    pass = pass && same;
    Print("output %u: %s %u bytes fnv1a64 %s (golden %s) %s\n", k, TypeName(out.type), out.bytes, got,
          want[0] ? want : "?", same ? "match" : "MISMATCH");
    PrintBytes(static_cast<const uint8_t*>(out.data), out.bytes);
  }
  Print("RESULT %s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
