#include "semihost.h"

#include <cstdint>

namespace semihost {
namespace {

uint32_t Call(uint32_t op, const void* arg) {
  register uint32_t r0 __asm("r0") = op;
  register const void* r1 __asm("r1") = arg;
  __asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

}  // namespace

void Write(const char* text) { Call(0x04, text); }

bool CommandLine(char* buffer, unsigned size) {
  if (size == 0) return false;
  buffer[0] = '\0';
  uint32_t block[2] = {reinterpret_cast<uint32_t>(buffer), size};  // in: buffer, size; out: length
  return Call(0x15, block) == 0 && block[1] < size;
}

void Exit(bool success) {
  // ADP_Stopped_ApplicationExit / ADP_Stopped_RunTimeErrorUnknown, passed directly in r1 (AArch32).
  Call(0x18, reinterpret_cast<const void*>(success ? 0x20026u : 0x20023u));
  for (;;) {}
}

}  // namespace semihost
