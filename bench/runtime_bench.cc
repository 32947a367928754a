// Embedded runtime on the host: AllocateTensors (validation, prepare, in-arena planning) and Invoke
// for a few corpus models, greedy and best-fit. Models come from $ARENAPLAN_SHARED or the build's
// default shared dir; a missing model skips its benchmark.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "runtime/interpreter.h"
#include "runtime/test_inputs.h"
#include "util/aligned_bytes.h"

namespace {

using arenaplan::AlignedBytes;
using arenaplan::rt::AllOpsResolver;
using arenaplan::rt::Interpreter;
using arenaplan::rt::InterpreterOptions;
using arenaplan::rt::PlannerKind;
using arenaplan::rt::StatusCode;

std::vector<uint8_t> LoadModel(const std::string& name) {
  const char* env = std::getenv("ARENAPLAN_SHARED");
  const std::string dir = env != nullptr ? env : ARENAPLAN_DEFAULT_SHARED_DIR;
  std::ifstream f(dir + "/models/" + name, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

const char* const kModels[] = {"tflm_hello_world_int8.tflite", "mlperf_kws_dscnn_int8.tflite",
                               "tflm_person_detect_int8.tflite", "mlperf_ic_resnet8_int8.tflite"};
constexpr size_t kArenaBytes = 8u << 20;

void BM_AllocateTensors(benchmark::State& state) {
  const std::vector<uint8_t> model = LoadModel(kModels[state.range(0)]);
  if (model.empty()) {
    state.SkipWithError("model not found");
    return;
  }
  InterpreterOptions opts;
  opts.planner = state.range(1) ? PlannerKind::kTflmOrderBestFit : PlannerKind::kTflmGreedy;
  const AlignedBytes arena(kArenaBytes);
  for (auto _ : state) {
    Interpreter interp(model.data(), model.size(), AllOpsResolver(), arena.data(), kArenaBytes, opts);
    if (interp.AllocateTensors() != StatusCode::kOk) {
      state.SkipWithError(interp.error_message());
      return;
    }
    state.counters["arena_used_bytes"] = interp.arena_used_bytes();
    state.counters["min_arena_bytes"] = interp.memory_record().min_arena_bytes;
  }
  state.SetLabel(std::string(kModels[state.range(0)]) + (state.range(1) ? " best-fit" : " greedy"));
}
BENCHMARK(BM_AllocateTensors)->ArgsProduct({{0, 1, 2, 3}, {0, 1}})->Unit(benchmark::kMicrosecond);

void BM_Invoke(benchmark::State& state) {
  const std::vector<uint8_t> model = LoadModel(kModels[state.range(0)]);
  if (model.empty()) {
    state.SkipWithError("model not found");
    return;
  }
  const AlignedBytes arena(kArenaBytes);
  Interpreter interp(model.data(), model.size(), AllOpsResolver(), arena.data(), kArenaBytes);
  if (interp.AllocateTensors() != StatusCode::kOk) {
    state.SkipWithError(interp.error_message());
    return;
  }
  for (uint32_t k = 0; k < interp.inputs_size(); ++k) arenaplan::rt::FillGeneratedInput(interp.input(k), k, 0);
  for (auto _ : state) {
    if (interp.Invoke() != StatusCode::kOk) {
      state.SkipWithError(interp.error_message());
      return;
    }
  }
  state.SetLabel(kModels[state.range(0)]);
}
BENCHMARK(BM_Invoke)->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
