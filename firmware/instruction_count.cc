#include "instruction_count.h"

namespace fw {
namespace {

volatile uint32_t* const kSystCsr = reinterpret_cast<volatile uint32_t*>(0xE000E010u);
volatile uint32_t* const kSystRvr = reinterpret_cast<volatile uint32_t*>(0xE000E014u);
volatile uint32_t* const kSystCvr = reinterpret_cast<volatile uint32_t*>(0xE000E018u);
constexpr uint32_t kReload = 0xFFFFFFu;
constexpr uint64_t kInstructionsPerTick = 1000000000ull / 25000000ull;  // 1 GHz virtual / 25 MHz

volatile uint32_t g_wraps = 0;

}  // namespace

void StartInstructionCounter() {
  *kSystCsr = 0;
  *kSystRvr = kReload;
  *kSystCvr = 0;  // any write clears the counter; it reloads on the next tick
  g_wraps = 0;
  *kSystCsr = 7;  // ENABLE | TICKINT | CLKSOURCE (processor clock)
  while (*kSystCvr == 0) {
  }  // the first tick loads the reload value; before it the count would read as a full period
}

uint64_t InstructionsNow() {
  uint32_t wraps = 0, count = 0;
  do {  // a wrap between the two reads would pair a new count with an old wrap total
    wraps = g_wraps;
    count = *kSystCvr;
  } while (wraps != g_wraps);
  const uint64_t ticks = uint64_t{wraps} * (uint64_t{kReload} + 1) + (kReload - count);
  return ticks * kInstructionsPerTick;
}

uint64_t Calibrate(uint32_t iterations) {
  const uint64_t start = InstructionsNow();
  uint32_t n = iterations;
  __asm volatile("1: subs %0, %0, #1\n bne 1b" : "+r"(n) : : "cc");
  return InstructionsNow() - start;
}

}  // namespace fw

void SysTick_Handler() { fw::g_wraps = fw::g_wraps + 1; }
