// Per-model planning benchmark: for every .tflite under shared/models, the arena (head) each
// planner finds for the buffers stock TFLM plans on x86-64 (tensors + kernel scratch), against the
// lower bound, plus the time each planner takes. Prints a Markdown table after the timings.
// Run: ./build/bench/model_plan_bench [--benchmark_filter=...]   (ARENAPLAN_SHARED overrides ../shared)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>

#include "lifetime/lifetimes.h"
#include "model/model.h"
#include "plan/lower_bound.h"
#include "plan/planner.h"
#include "plan/verify.h"
#include "tflm/arena_size.h"
#include "tflm/target.h"

namespace {
namespace fs = std::filesystem;
using namespace arenaplan;

const char* kPlanners[] = {"tflm-greedy", "best-fit", "optimal", "best"};

struct ModelCase {
  std::string name;
  plan::Problem problem;
  plan::Bytes lower_bound = 0;
  std::map<std::string, plan::PlanResult> results;
};

std::vector<std::unique_ptr<ModelCase>>& Cases() {
  static std::vector<std::unique_ptr<ModelCase>> cases;
  return cases;
}

std::string SharedDir() {
  const char* env = std::getenv("ARENAPLAN_SHARED");
  return (env && *env) ? env : ARENAPLAN_DEFAULT_SHARED_DIR;
}

void LoadCases() {
  const fs::path models = fs::path(SharedDir()) / "models";
  if (!fs::is_directory(models)) return;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(models)) {
    if (e.path().extension() == ".tflite") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  auto target = tflm::FindTarget("tflm-x86_64");
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto m = model::ReadModel(bytes.data(), bytes.size());
    if (!m.ok()) continue;
    lifetime::Options options;
    if (target.ok()) {  // without scratch where TFLM cannot size them
      auto for_target = tflm::LifetimeOptionsFor(*m, **target);
      if (for_target.ok()) options = std::move(for_target).value();
    }
    auto lt = lifetime::ComputeLifetimes(*m, options);
    if (!lt.ok()) continue;
    auto c = std::make_unique<ModelCase>();
    c->name = fs::relative(f, models).string();
    c->problem = lifetime::ToProblem(*lt, 16);
    c->lower_bound = plan::LiveBytesLowerBound(c->problem);
    Cases().push_back(std::move(c));
  }
}

void BM_Plan(benchmark::State& state, ModelCase* c, std::string planner_name) {
  const plan::PlannerEntry* planner = plan::FindPlanner(planner_name);
  if (!planner) {
    state.SkipWithError("planner not registered");
    return;
  }
  plan::PlannerOptions options;
  options.time_limit_seconds = 10;
  plan::PlanResult last;
  for (auto _ : state) {
    auto r = planner->run(c->problem, options);
    if (!r.ok()) {
      state.SkipWithError(r.status().ToString().c_str());
      return;
    }
    last = std::move(r).value();
  }
  if (!plan::VerifyPlan(c->problem, last.plan).ok()) {
    state.SkipWithError("invalid plan");
    return;
  }
  state.counters["height"] = static_cast<double>(last.plan.height);
  state.counters["lower_bound"] = static_cast<double>(c->lower_bound);
  c->results[planner_name] = std::move(last);
}

std::string Pct(int64_t v, int64_t lb) {
  if (lb <= 0) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f %%", 100.0 * (v - lb) / lb);
  return buf;
}

void PrintTable() {
  std::printf(
      "\n| model | buffers | lower bound | TFLM greedy | best-fit | optimal | best | greedy vs LB | best vs LB |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  int64_t sum_greedy = 0, sum_best = 0, sum_lb = 0;
  int above = 0;
  for (const auto& c : Cases()) {
    auto h = [&](const char* p) -> std::string {
      auto it = c->results.find(p);
      if (it == c->results.end()) return "-";
      std::string s = std::to_string(it->second.plan.height);
      if (std::string(p) == "optimal" && it->second.status != plan::PlanStatus::kOptimal) s += " (not proven)";
      return s;
    };
    auto get = [&](const char* p) {
      auto it = c->results.find(p);
      return it == c->results.end() ? int64_t{0} : it->second.plan.height;
    };
    if (c->results.empty()) continue;
    std::printf("| %s | %zu | %lld | %s | %s | %s | %s | %s | %s |\n", c->name.c_str(), c->problem.buffers.size(),
                static_cast<long long>(c->lower_bound), h("tflm-greedy").c_str(), h("best-fit").c_str(),
                h("optimal").c_str(), h("best").c_str(), Pct(get("tflm-greedy"), c->lower_bound).c_str(),
                Pct(get("best"), c->lower_bound).c_str());
    sum_greedy += get("tflm-greedy");
    sum_best += get("best");
    sum_lb += c->lower_bound;
    above += get("tflm-greedy") > c->lower_bound;
  }
  std::printf(
      "\nTotal over %zu models: TFLM greedy %lld B, best %lld B, lower bound %lld B; "
      "greedy above the bound on %d models.\n",
      Cases().size(), static_cast<long long>(sum_greedy), static_cast<long long>(sum_best),
      static_cast<long long>(sum_lb), above);
}

}  // namespace

int main(int argc, char** argv) {
  LoadCases();
  if (Cases().empty()) std::fprintf(stderr, "model_plan_bench: no models under %s/models\n", SharedDir().c_str());
  for (const auto& c : Cases()) {
    for (const char* p : kPlanners) {
      benchmark::RegisterBenchmark(("plan/" + std::string(p) + "/" + c->name).c_str(), BM_Plan, c.get(), std::string(p))
          ->Unit(benchmark::kMillisecond)
          ->MinTime(0.02);
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  PrintTable();
  return 0;
}
