// Arm semihosting without newlib's stdio (which would allocate buffers on the heap): two calls.
#pragma once

namespace semihost {

// SYS_WRITE0: prints a NUL-terminated string on the host console.
void Write(const char* text);
// SYS_EXIT: ends the qemu run; success -> exit status 0, failure -> 1.
[[noreturn]] void Exit(bool success);

}  // namespace semihost
