// Cost of sizing and exporting for stock TFLM: ComputeArenaSize (kernel table + tail replay +
// tflm-greedy head) and ExportOfflinePlan (best planner, write, re-read, re-check) on a few corpus
// models of different sizes. Run: ./build/bench/tflm_bench   (ARENAPLAN_SHARED overrides ../shared)
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "model/model.h"
#include "tflm/arena_size.h"
#include "tflm/export.h"
#include "tflm/target.h"

namespace {
using namespace arenaplan;

std::string SharedDir() {
  const char* env = std::getenv("ARENAPLAN_SHARED");
  return env != nullptr ? env : ARENAPLAN_DEFAULT_SHARED_DIR;
}

std::vector<uint8_t> Read(const std::string& name) {
  std::ifstream f(SharedDir() + "/models/" + name, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

const char* kModels[] = {"tflm_hello_world_int8.tflite", "tflm_person_detect_int8.tflite",
                         "tflm_retinaface_int8.tflite", "coral_movenet_lightning_ptq.tflite"};

void BM_ComputeArenaSize(benchmark::State& state) {
  const auto bytes = Read(kModels[state.range(0)]);
  auto m = model::ReadModel(bytes.data(), bytes.size());
  if (!m.ok()) {
    state.SkipWithError("model not found or unreadable (set ARENAPLAN_SHARED)");
    return;
  }
  const tflm::Target* target = *tflm::FindTarget("tflm-cortex-m");
  for (auto _ : state) {
    auto s = tflm::ComputeArenaSize(*m, *target);
    benchmark::DoNotOptimize(s);
  }
  state.SetLabel(kModels[state.range(0)]);
}
BENCHMARK(BM_ComputeArenaSize)->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);

void BM_ExportBest(benchmark::State& state) {
  const auto bytes = Read(kModels[state.range(0)]);
  if (bytes.empty()) {
    state.SkipWithError("model not found (set ARENAPLAN_SHARED)");
    return;
  }
  const tflm::Target* target = *tflm::FindTarget("tflm-cortex-m");
  for (auto _ : state) {
    auto r = tflm::ExportOfflinePlan(bytes.data(), bytes.size(), *target, "best");
    benchmark::DoNotOptimize(r);
  }
  state.SetLabel(kModels[state.range(0)]);
}
BENCHMARK(BM_ExportBest)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
