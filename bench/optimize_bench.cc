// The memory table of `arenaplan optimize` (README): for every top-level corpus model, head and
// smallest total arena before / after for stock TFLM (target tflm-cortex-m, default 20 % extra
// MACs) and for arenaplan's runtime, the extra MACs, the smallest head with 0 % extra MACs, and
// the Invoke time ratio (optimized / original, runtime on the host, best of 3). Also times one
// optimize run per model as a Google Benchmark. Usage: optimize_bench [--int8-io] [--models=a,b]
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "graph/runtime_evaluator.h"
#include "graph/tflm_evaluator.h"
#include "runtime/interpreter.h"
#include "runtime/op_resolver.h"
#include "runtime/test_inputs.h"
#include "util/aligned_bytes.h"

namespace {

namespace fs = std::filesystem;
using arenaplan::graph::OptimizeOptions;
using arenaplan::graph::OptimizeResult;

std::string SharedDir() {
  const char* env = std::getenv("ARENAPLAN_SHARED");
  return env != nullptr ? env : ARENAPLAN_DEFAULT_SHARED_DIR;
}

std::vector<uint8_t> ReadBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// Best-of-3 Invoke seconds in the runtime (best-fit plan), or -1 when the runtime cannot run it.
double InvokeSeconds(const std::vector<uint8_t>& model) {
  constexpr size_t kArena = 64u << 20;
  const arenaplan::AlignedBytes arena(kArena);
  arenaplan::rt::InterpreterOptions opts;
  opts.planner = arenaplan::rt::PlannerKind::kTflmOrderBestFit;
  arenaplan::rt::Interpreter interp(model.data(), model.size(), arenaplan::rt::AllOpsResolver(), arena.data(), kArena,
                                    opts);
  if (interp.AllocateTensors() != arenaplan::rt::StatusCode::kOk) return -1;
  for (uint32_t k = 0; k < interp.inputs_size(); ++k) arenaplan::rt::FillGeneratedInput(interp.input(k), k, 0);
  double best = 1e30;
  for (int i = 0; i < 3; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    if (interp.Invoke() != arenaplan::rt::StatusCode::kOk) return -1;
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

std::string Ratio(const std::vector<uint8_t>& before, const OptimizeResult& r) {
  if (!r.changed) return "1.00";
  const double a = InvokeSeconds(before), b = InvokeSeconds(r.bytes);
  if (a <= 0 || b <= 0) return "-";
  char s[32];
  std::snprintf(s, sizeof s, "%.2f", b / a);
  return s;
}

void PrintRow(const std::string& name, const std::vector<uint8_t>& bytes, const OptimizeOptions& o) {
  auto target = arenaplan::tflm::FindTarget(arenaplan::tflm::kDefaultTarget);
  auto t = arenaplan::graph::Optimize(bytes, o, arenaplan::graph::TflmEvaluator(**target),
                                      arenaplan::graph::TflmFinish(**target));
  auto a = arenaplan::graph::OptimizeForRuntime(bytes, o);
  if (!t.ok() || !a.ok()) {
    std::printf("| %s | error: %s |\n", name.c_str(), (!t.ok() ? t.status() : a.status()).message().c_str());
    return;
  }
  // A model the target cannot run (its evaluator refused it) has no figures: "-".
  auto cols = [](const OptimizeResult& r) {
    if (r.before.min_arena == 0) return std::string("- | - | - | - | - | -");
    char s[160];
    std::snprintf(s, sizeof s, "%llu | %llu | %llu | %llu | %+.1f %% | %llu",
                  static_cast<unsigned long long>(r.before.head), static_cast<unsigned long long>(r.after.head),
                  static_cast<unsigned long long>(r.before.min_arena),
                  static_cast<unsigned long long>(r.after.min_arena), r.extra_macs_pct,
                  static_cast<unsigned long long>(r.zero_extra_head));
    return std::string(s);
  };
  std::printf("| %s | %s | %s | %s |\n", name.c_str(), cols(*t).c_str(), cols(*a).c_str(),
              a->before.min_arena == 0 ? "-" : Ratio(bytes, *a).c_str());
  std::fflush(stdout);
}

void BM_OptimizeTflm(benchmark::State& state, std::string path) {
  const auto bytes = ReadBytes(path);
  auto target = arenaplan::tflm::FindTarget(arenaplan::tflm::kDefaultTarget);
  for (auto _ : state) {
    auto r = arenaplan::graph::Optimize(bytes, OptimizeOptions(), arenaplan::graph::TflmEvaluator(**target),
                                        arenaplan::graph::TflmFinish(**target));
    benchmark::DoNotOptimize(r);
  }
}

}  // namespace

int main(int argc, char** argv) {
  OptimizeOptions o;
  std::string only;
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--int8-io") == 0)
      o.int8_io = true;
    else if (std::strncmp(argv[i], "--models=", 9) == 0)
      only = argv[i] + 9;
    else
      rest.push_back(argv[i]);
  }
  std::vector<std::string> models;
  for (const auto& e : fs::directory_iterator(SharedDir() + "/models")) {
    const std::string n = e.path().filename().string();
    if (e.path().extension() == ".tflite" &&
        (only.empty() || only.find(n.substr(0, n.size() - 7)) != std::string::npos))
      models.push_back(n);
  }
  std::sort(models.begin(), models.end());
  int bargc = static_cast<int>(rest.size());
  benchmark::Initialize(&bargc, rest.data());
  if (!models.empty()) {
    benchmark::RegisterBenchmark("optimize_tflm/tflm_person_detect_int8", BM_OptimizeTflm,
                                 SharedDir() + "/models/tflm_person_detect_int8.tflite")
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::RunSpecifiedBenchmarks();
  std::printf("\n%s, --max-extra-macs %.0f\n\n", o.int8_io ? "--int8-io" : "I/O as stored", o.max_extra_macs_pct);
  std::printf(
      "| model | TFLM head | optimized | TFLM total | optimized | extra MACs | head at 0 %% | runtime head | optimized "
      "| runtime total | optimized | extra MACs | head at 0 %% | Invoke ratio |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const auto& m : models) PrintRow(m.substr(0, m.size() - 7), ReadBytes(SharedDir() + "/models/" + m), o);
  return 0;
}
