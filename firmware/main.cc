// Firmware main: runs one embedded corpus model (model.h: the files build.sh generates from
// ../shared) in a static arena with arenaplan's runtime and the model's own op resolver, feeds the
// golden deterministic inputs, Invokes N times (N from the semihosting command line, default 1:
// instruction counts per Invoke are differences between runs; RunCounts), prints every output's bytes and
// FNV-1a digest, compares them with the golden TFLM digests and exits through semihosting.
#include <cstdarg>
#include <cstdint>
#include <cstring>

#include "model.h"
#include "runtime/interpreter.h"
#include "runtime/test_inputs.h"
#include "semihost.h"

namespace {

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

// The k-th space-separated word of g_expected_fnv, or "" when absent.
void ExpectedFnv(uint32_t k, char* out) {
  const char* p = g_expected_fnv;
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

// The numbers on the semihosting command line after the program name: Invokes to run (default 1)
// and how often to fill the inputs (default: before each Invoke; more fills than Invokes are done
// first, so that two runs with the same fill count differ by Invokes only). Each in [1, 1000].
void RunCounts(uint32_t* invokes, uint32_t* fills) {
  *invokes = 0;
  *fills = 0;
  char line[64];
  if (!semihost::CommandLine(line, sizeof(line))) line[0] = '\0';
  uint32_t values[2] = {0, 0}, count = 0;
  for (const char* p = line; *p && count < 2;) {
    while (*p == ' ') ++p;
    uint32_t n = 0;
    bool digits = *p >= '0' && *p <= '9';
    for (; *p >= '0' && *p <= '9' && n <= 1000; ++p) n = n * 10 + static_cast<uint32_t>(*p - '0');
    digits = digits && (*p == ' ' || *p == '\0');
    while (*p && *p != ' ') ++p;
    if (digits && n >= 1 && n <= 1000) values[count++] = n;
  }
  *invokes = values[0] != 0 ? values[0] : 1;
  *fills = values[1] > *invokes ? values[1] : *invokes;
}

}  // namespace

int main() {
  using namespace arenaplan::rt;
  uint32_t invokes = 1, fills = 1;
  RunCounts(&invokes, &fills);
  Print("arenaplan firmware: %s (%u bytes of model in flash, arena %u bytes, %u Invoke%s)\n", g_model_name,
        static_cast<unsigned>(g_model_len), static_cast<unsigned>(g_arena_bytes), static_cast<unsigned>(invokes),
        invokes == 1 ? "" : "s");
  Interpreter interp(g_model, g_model_len, FirmwareOpResolver(), g_arena, g_arena_bytes);
  StatusCode s = interp.AllocateTensors();
  if (s != StatusCode::kOk) {
    Print("AllocateTensors failed (%s): %s\nRESULT FAIL\n", StatusName(s), interp.error_message());
    return 1;
  }
  const MemoryRecord& rec = interp.memory_record();
  Print("head %u tail %u arena_used_bytes %u min_arena_bytes %u\n", rec.head_bytes, rec.tail_bytes,
        interp.arena_used_bytes(), rec.min_arena_bytes);
  for (uint32_t i = 0; i < fills; ++i) {
    for (uint32_t k = 0; k < interp.inputs_size(); ++k) FillGeneratedInput(interp.input(k), k, 0);
    if (i + invokes < fills) continue;  // the extra fills come first
    s = interp.Invoke();
    if (s != StatusCode::kOk) {
      Print("Invoke failed (%s): %s\nRESULT FAIL\n", StatusName(s), interp.error_message());
      return 1;
    }
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
