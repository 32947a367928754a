// Links the installed Cortex-M runtime: an interpreter over a static arena refuses a model that is
// not a flatbuffer with a clean status (no heap, no exceptions: the link pulls neither in).
#include <cstdint>

#include <arenaplan/runtime/interpreter.h>

alignas(16) static uint8_t g_arena[4096];
static const uint8_t kNotAModel[16] = {0};

int main() {
  arenaplan::rt::Interpreter interp(kNotAModel, sizeof kNotAModel, arenaplan::rt::AllOpsResolver(), g_arena,
                                    sizeof g_arena);
  return interp.AllocateTensors() == arenaplan::rt::StatusCode::kInvalidModel ? 0 : 1;
}
