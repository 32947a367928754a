// Reset and vector table for the qemu mps2-an386 board (Cortex-M4F): copy .data, zero .bss,
// enable the FPU, run static constructors (the runtime has none, but user code might), call main,
// and report the exit status through semihosting so that qemu ends with it.
#include <cstdint>

#include "semihost.h"

extern "C" {
extern uint32_t __data_load, __data_start, __data_end, __bss_start, __bss_end, __stack_top;
extern void (*__init_array_start[])();
extern void (*__init_array_end[])();
int main();
void Reset_Handler();
void Fault_Handler();
}

void Reset_Handler() {
  uint32_t* src = &__data_load;
  for (uint32_t* dst = &__data_start; dst < &__data_end;) *dst++ = *src++;
  for (uint32_t* dst = &__bss_start; dst < &__bss_end;) *dst++ = 0;
  // CPACR: full access to coprocessors 10 and 11 (the single-precision FPU).
  volatile uint32_t* cpacr = reinterpret_cast<volatile uint32_t*>(0xE000ED88u);
  *cpacr |= (0xFu << 20);
  __asm volatile("dsb\n isb" ::: "memory");
  for (void (**f)() = __init_array_start; f < __init_array_end; ++f) (*f)();
  const int rc = main();
  semihost::Exit(rc == 0);
}

void Fault_Handler() {
  semihost::Write("FAULT: hard fault or unexpected exception\n");
  semihost::Exit(false);
}

__attribute__((section(".vectors"), used)) void (*const g_vectors[16])() = {
    reinterpret_cast<void (*)()>(&__stack_top),
    Reset_Handler,
    Fault_Handler,  // NMI
    Fault_Handler,  // HardFault
    Fault_Handler,  // MemManage
    Fault_Handler,  // BusFault
    Fault_Handler,  // UsageFault
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    Fault_Handler,  // SVC
    Fault_Handler,  // DebugMon
    nullptr,
    Fault_Handler,  // PendSV
    Fault_Handler,  // SysTick
};
