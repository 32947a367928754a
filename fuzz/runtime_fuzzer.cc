// libFuzzer entry for the embedded runtime's parser of untrusted bytes, the code that reads models
// on a device: any bytes -> Interpreter (rules/ checks, kernel prepare, planning) ->
// AllocateTensors in a fixed 512 KiB arena -> one Invoke with the golden generator's inputs. Must
// never crash, hang or touch memory outside the model and the arena, whatever the input. An
// Invoke is capped at 100,000 op evaluations (InterpreterOptions::max_ops_per_invoke): a WHILE
// whose condition never turns false is a valid model that runs forever, on TFLM too.
//
// Built with -DARENAPLAN_FUZZ=ON beside model_fuzzer (see there); scripts/test.sh runs both.
#include <cstdint>
#include <vector>

#include "runtime/interpreter.h"
#include "runtime/test_inputs.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace arenaplan::rt;
  // The runtime reads models in place; flash images are aligned, so the copy is too.
  std::vector<uint8_t> model(data, data + size);
  alignas(16) static uint8_t arena[512 * 1024];
  InterpreterOptions options;
  options.max_ops_per_invoke = 100'000;
  Interpreter interp(model.data(), model.size(), AllOpsResolver(), arena, sizeof(arena), options);
  if (interp.AllocateTensors() != StatusCode::kOk) return 0;
  for (uint32_t k = 0; k < interp.inputs_size(); ++k) FillGeneratedInput(interp.input(k), k, 0);
  (void)interp.Invoke();
  return 0;
}
