// Planner benchmarks. Google Benchmark cases: every registered planner (except the exact
// "optimal" and the "best" portfolio, which has its own bench) on seeded synthetic traces of 1k,
// 10k and 100k buffers and on every CSV in shared/benchmarks/{minimalloc,real-traces}/ (skipped
// when ../shared is missing; $ARENAPLAN_SHARED overrides the compiled-in path). Counters: height,
// lower bound (max live bytes) and their ratio. Also the verifier on a 200k-buffer staircase.
// Before the cases, a table of each planner's height / lower bound (min / median / max) over
// 10,000 seeded random problems.
//
// Usage: plan_bench [--table-only] [benchmark flags, e.g. --benchmark_filter=best-fit]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "plan/csv.h"
#include "plan/lower_bound.h"
#include "plan/planner.h"
#include "plan/random_problem.h"
#include "plan/verify.h"

namespace {

using namespace arenaplan::plan;  // NOLINT: bench-local
using arenaplan::Result;
namespace fs = std::filesystem;

std::string SharedDir() {
  const char* env = std::getenv("ARENAPLAN_SHARED");
  return env != nullptr && *env != '\0' ? env : ARENAPLAN_DEFAULT_SHARED_DIR;
}

bool Benchmarked(const PlannerEntry& e) { return e.name != "optimal" && e.name != "best"; }

void RunPlanner(benchmark::State& state, const PlannerEntry* planner, std::shared_ptr<const Problem> problem) {
  const Bytes bound = LiveBytesLowerBound(*problem);
  Bytes height = 0;
  for (auto _ : state) {
    Result<PlanResult> r = planner->run(*problem, PlannerOptions{});
    if (!r.ok()) {
      state.SkipWithError(r.status().ToString().c_str());
      return;
    }
    height = r->plan.height;
    benchmark::DoNotOptimize(height);
  }
  // Checked once, outside the timed loop.
  Result<PlanResult> r = planner->run(*problem, PlannerOptions{});
  if (!r.ok() || !VerifyPlan(*problem, r->plan).ok()) {
    state.SkipWithError("plan failed verification");
    return;
  }
  state.counters["buffers"] = static_cast<double>(problem->buffers.size());
  state.counters["height"] = static_cast<double>(height);
  state.counters["lower_bound"] = static_cast<double>(bound);
  state.counters["height/LB"] = bound > 0 ? static_cast<double>(height) / static_cast<double>(bound) : 1.0;
}

void Register(const std::string& label, std::shared_ptr<const Problem> problem) {
  for (const PlannerEntry& e : Planners()) {
    if (!Benchmarked(e)) continue;
    benchmark::RegisterBenchmark((e.name + "/" + label).c_str(), RunPlanner, &e, problem)
        ->Unit(benchmark::kMillisecond)
        ->MinTime(0.05);
  }
}

void RegisterSynthetic() {
  for (size_t n : {1000, 10000, 100000}) {
    auto p = std::make_shared<const Problem>(RandomProblem({RandomStyle::kTrace, n, 42}));
    Register("synthetic-" + std::to_string(n / 1000) + "k", p);
  }
}

// The independent verifier on a 200k-buffer staircase (every buffer overlaps three others).
void RegisterVerify() {
  auto p = std::make_shared<Problem>();
  auto plan = std::make_shared<Plan>();
  for (int i = 0; i < 200000; ++i) {
    p->buffers.push_back({64, i, i + 3});
    plan->offsets.push_back((i % 4) * 64);
  }
  plan->height = 256;
  benchmark::RegisterBenchmark("verify/staircase-200k", [p, plan](benchmark::State& state) {
    for (auto _ : state) {
      const bool ok = VerifyPlan(*p, *plan).ok();
      if (!ok) state.SkipWithError("staircase plan rejected");
      benchmark::DoNotOptimize(ok);
    }
  })->Unit(benchmark::kMillisecond);
}

void RegisterCsvFiles() {
  const fs::path bench = fs::path(SharedDir()) / "benchmarks";
  std::error_code ec;
  if (!fs::is_directory(bench, ec)) {
    std::fprintf(stderr, "plan_bench: %s not found, CSV benchmarks skipped (set ARENAPLAN_SHARED)\n",
                 bench.string().c_str());
    return;
  }
  for (const char* dir : {"minimalloc", "real-traces"}) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(bench / dir, ec)) {
      if (e.path().extension() == ".csv") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      Result<CsvProblem> csv = ReadCsvFile(f.string());
      if (!csv.ok()) {
        std::fprintf(stderr, "plan_bench: skipping %s\n", csv.status().ToString().c_str());
        continue;
      }
      Register(std::string(dir) + "/" + f.stem().string(), std::make_shared<const Problem>(std::move(csv->problem)));
    }
  }
}

// height / lower bound of each planner over 10,000 seeded random problems (the property-test
// generator), printed as min / median / max.
void PrintRandomTable() {
  constexpr int kProblems = 10000;
  std::vector<const PlannerEntry*> planners;
  for (const PlannerEntry& e : Planners()) planners.push_back(&e);
  std::vector<std::vector<double>> ratios(planners.size());
  PlannerOptions options;
  options.time_limit_seconds = 0.002;  // exact search, if registered: a quick best effort
  size_t invalid = 0;
  for (int seed = 0; seed < kProblems; ++seed) {
    const Problem p = RandomProblem({RandomStyle::kAdversarial, 20, static_cast<uint64_t>(seed)});
    const double bound = static_cast<double>(LiveBytesLowerBound(p));
    for (size_t k = 0; k < planners.size(); ++k) {
      Result<PlanResult> r = planners[k]->run(p, options);
      if (!r.ok() || r->status == PlanStatus::kInfeasible) continue;
      if (!VerifyPlan(p, r->plan, 1).ok()) ++invalid;
      ratios[k].push_back(static_cast<double>(r->plan.height) / bound);
    }
  }
  std::printf("height / lower bound over %d random problems (<= 20 buffers, seeds 0..%d)\n", kProblems, kProblems - 1);
  std::printf("%-14s %8s %8s %8s %8s %8s %7s\n", "planner", "min", "median", "p90", "max", "mean", "=LB");
  for (size_t k = 0; k < planners.size(); ++k) {
    std::vector<double>& v = ratios[k];
    if (v.empty()) continue;
    std::sort(v.begin(), v.end());
    double sum = 0;
    size_t at_bound = 0;
    for (double x : v) sum += x, at_bound += x <= 1.0;
    std::printf("%-14s %8.4f %8.4f %8.4f %8.4f %8.4f %6.1f%%\n", planners[k]->name.c_str(), v.front(), v[v.size() / 2],
                v[v.size() * 9 / 10], v.back(), sum / v.size(), 100.0 * at_bound / v.size());
  }
  if (invalid > 0) std::printf("WARNING: %zu plans failed verification\n", invalid);
  std::printf("\n");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  bool table_only = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--table-only") == 0) table_only = true;
  }
  PrintRandomTable();
  if (table_only) return 0;
  RegisterSynthetic();
  RegisterVerify();
  RegisterCsvFiles();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
