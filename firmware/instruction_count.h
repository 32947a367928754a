// Instructions executed on qemu, read from the Cortex-M SysTick timer. Under
// `qemu-system-arm -icount shift=0` the virtual clock advances exactly 1 ns per executed
// instruction; SysTick on the processor clock (mps2-an386: 25 MHz) then counts one tick per 40
// instructions, so a count has a resolution of 40 instructions. The 24-bit counter wraps every
// 2^24 ticks; the SysTick interrupt counts the wraps. Without -icount the figure is meaningless
// (time then follows the host). Calibrate() runs a loop of a known instruction count.
#pragma once

#include <cstdint>

namespace fw {

// Starts SysTick (processor clock, full 24-bit reload, wrap interrupt).
void StartInstructionCounter();
// Instructions (to 40) since StartInstructionCounter().
uint64_t InstructionsNow();
// Runs `iterations` two-instruction loop turns (subs + bne) and returns their measured count.
uint64_t Calibrate(uint32_t iterations);

}  // namespace fw

extern "C" void SysTick_Handler();
