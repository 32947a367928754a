// Device-grade errors shared by rules/ and the runtime: a one-byte code returned everywhere, plus
// one fixed message buffer owned by the caller (the interpreter, a test's standalone context, or a
// host wrapper that turns it into an arenaplan::Status). Messages name the place ("subgraph 0,
// op 3 (CONV_2D): ..."). The formatter knows %d %u %x %s %c %% only, so it never pulls in the C
// library's float printing (which can allocate on newlib), and it prints every %s argument
// escaped (rules/text.h): a name taken from a model can never put a control byte or invalid
// UTF-8 into a message.
#pragma once

#include <cstdarg>
#include <cstdint>

namespace arenaplan::rules {

// One code per verdict. The host maps them to exit codes in one place (cli/model_file.h):
// kInvalidModel and kBadArgument are bad input (2); kUnsupported and kArenaFull "cannot" (1).
enum class StatusCode : uint8_t {
  kOk = 0,
  kInvalidModel,  // the flatbuffer is malformed or inconsistent (bad index, bad shape, ...)
  kUnsupported,   // a valid model we cannot run (op, dtype, feature, a limit of limits.h)
  kArenaFull,     // the arena is too small; the message gives requested and available bytes
  kBadState,      // an API call in the wrong order (Invoke before AllocateTensors, ...)
  kKernelError,   // a kernel rejected its tensors in Prepare or failed in Eval
  kBadArgument,   // a caller argument is out of range (input index, plan size, ...)
  kAborted,       // a kernel ended this Invoke early on purpose (TFLM's kTfLiteAbort: CIRCULAR_BUFFER
                  // between its periodic runs); the ops after it did not run
};

const char* StatusName(StatusCode s);

// A fixed-size message buffer. Writing truncates; it never allocates.
struct ErrorText {
  static constexpr uint32_t kCapacity = 192;
  char text[kCapacity] = {0};
  uint32_t length = 0;
};

// Replaces the message with prefix + formatted text. Returns nothing: callers return the code.
void SetError(ErrorText* out, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void SetErrorV(ErrorText* out, const char* prefix, const char* fmt, va_list args);

// Tiny vsnprintf subset: %d %i %u %x %s %c %% with optional 'l'/'ll'/'z' length; %s is escaped
// (EscapeText). Always NUL-terminates when cap > 0. Returns the number of characters written
// (excluding NUL).
uint32_t FormatV(char* buf, uint32_t cap, const char* fmt, va_list args);
uint32_t Format(char* buf, uint32_t cap, const char* fmt, ...) __attribute__((format(printf, 3, 4)));

}  // namespace arenaplan::rules

// Returns early from a function returning rules::StatusCode (or rt::StatusCode, the same type).
#define RT_RETURN_IF_ERROR(expr)                                      \
  do {                                                                \
    const ::arenaplan::rules::StatusCode _rt_st = (expr);             \
    if (_rt_st != ::arenaplan::rules::StatusCode::kOk) return _rt_st; \
  } while (0)
