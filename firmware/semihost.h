// Arm semihosting without newlib's stdio (which would allocate buffers on the heap): three calls.
#pragma once

namespace semihost {

// SYS_WRITE0: prints a NUL-terminated string on the host console.
void Write(const char* text);
// SYS_GET_CMDLINE: the command line qemu passes (-semihosting-config arg=...), NUL-terminated in
// `buffer`; false when there is none or it does not fit.
bool CommandLine(char* buffer, unsigned size);
// SYS_EXIT: ends the qemu run; success -> exit status 0, failure -> 1.
[[noreturn]] void Exit(bool success);

}  // namespace semihost
