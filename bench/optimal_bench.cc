// The optimal planner on the hard benchmark and on the golden model plans.
// Prints, per MiniMalloc challenging instance (shared/benchmarks/minimalloc/{A..K}.1048576.csv):
// buffers, lower bound, decision at capacity 1048576 (status, time, nodes), and minimisation
// (height, status, proven bound, time, nodes). Then per golden TFLM plan
// (shared/golden/tflm-x86_64/plans/**.csv): buffers, golden greedy head, our optimum, status, time.
// Every plan is checked with VerifyPlan. Also registers Google Benchmark cases for a few models.
//
// Usage: optimal_bench [--instances=ABC...] [--limit=SECONDS] [--skip-minimize] [--skip-models]
//                      [--skip-instances] [--skip-limits] [benchmark flags]
// Then the time limit's precision on a hard synthetic instance (limit vs wall time), and on the
// real allocation traces (shared/benchmarks/real-traces, up to 62k buffers) for `best` (the
// default of `solve`) and `optimal`: wall time of the whole call, status, height, bound.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "plan/best.h"
#include "plan/csv.h"
#include "plan/optimal.h"
#include "plan/planner.h"
#include "plan/verify.h"

namespace {

using arenaplan::plan::Buffer;
using arenaplan::plan::PlannerOptions;
using arenaplan::plan::PlanOptimal;
using arenaplan::plan::PlanStatusName;
using arenaplan::plan::Problem;
namespace fs = std::filesystem;

std::string SharedDir() {
  const char* env = std::getenv("ARENAPLAN_SHARED");
  return env != nullptr ? env : ARENAPLAN_DEFAULT_SHARED_DIR;
}

std::vector<std::vector<std::string>> ReadRows(const std::string& path, std::vector<std::string>* header) {
  std::ifstream in(path);
  std::string line;
  std::vector<std::vector<std::string>> rows;
  bool first = true;
  while (std::getline(in, line)) {
    if (line.empty()) break;
    std::vector<std::string> fields;
    std::stringstream ss(line);
    std::string f;
    while (std::getline(ss, f, ',')) fields.push_back(f);
    if (first) {
      *header = fields;
      first = false;
    } else {
      rows.push_back(fields);
    }
  }
  return rows;
}

int Column(const std::vector<std::string>& header, const std::string& name) {
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return static_cast<int>(i);
  }
  return -1;
}

// MiniMalloc CSV: [lower, upper) -> inclusive [lower, upper - 1].
Problem ReadMiniMalloc(const std::string& path, int64_t capacity) {
  std::vector<std::string> h;
  auto rows = ReadRows(path, &h);
  const int lo = Column(h, "lower"), up = Column(h, "upper"), sz = Column(h, "size");
  Problem p;
  p.capacity = capacity;
  for (auto& r : rows) {
    Buffer b;
    b.first = std::stoll(r[lo]);
    b.last = std::stoll(r[up]) - 1;
    b.size = std::stoll(r[sz]);
    p.buffers.push_back(b);
  }
  return p;
}

// Golden TFLM plan: size, first, last, offline_offset; returns the golden head too.
Problem ReadGoldenPlan(const std::string& path, int64_t* golden_head) {
  std::vector<std::string> h;
  auto rows = ReadRows(path, &h);
  const int sz = Column(h, "size"), fi = Column(h, "first"), la = Column(h, "last"), oo = Column(h, "offline_offset"),
            of = Column(h, "offset");
  Problem p;
  *golden_head = 0;
  for (auto& r : rows) {
    Buffer b;
    b.size = std::stoll(r[sz]);
    b.first = std::stoll(r[fi]);
    b.last = std::stoll(r[la]);
    const int64_t offline = std::stoll(r[oo]);
    if (offline >= 0) b.fixed_offset = offline;
    *golden_head = std::max<int64_t>(*golden_head, std::stoll(r[of]) + b.size);
    p.buffers.push_back(b);
  }
  return p;
}

int64_t LiveBound(const Problem& p) {
  int64_t best = 0;
  for (const Buffer& a : p.buffers) {
    int64_t sum = 0;
    for (const Buffer& b : p.buffers) {
      if (b.first <= a.first && a.first <= b.last) sum += b.size;
    }
    best = std::max(best, sum);
  }
  return best;
}

void RunInstances(const std::string& which, double limit, bool minimize) {
  std::printf("%-4s %7s %8s | %-11s %8s %10s %7s | %8s %-10s %8s %8s %10s %s\n", "inst", "buffers", "LB", "cap:status",
              "time_s", "nodes", "height", "min:h", "status", "bound", "time_s", "nodes", "verify");
  for (char c : which) {
    const std::string path = SharedDir() + "/benchmarks/minimalloc/" + std::string(1, c) + ".1048576.csv";
    if (!fs::exists(path)) continue;
    Problem p = ReadMiniMalloc(path, 1048576);
    PlannerOptions o;
    o.time_limit_seconds = limit;
    o.minimize = false;
    auto r = PlanOptimal(p, o);
    std::string st = r.ok() ? PlanStatusName(r->status) : r.status().ToString();
    bool ok = r.ok() && (r->plan.offsets.empty() || arenaplan::plan::VerifyPlan(p, r->plan).ok());
    std::printf("%-4c %7zu %8lld | %-11s %8.3f %10lld %7lld |", c, p.buffers.size(),
                static_cast<long long>(LiveBound(p)), st.c_str(), r.ok() ? r->seconds : 0.0,
                static_cast<long long>(r.ok() ? r->nodes : 0), static_cast<long long>(r.ok() ? r->plan.height : 0));
    std::fflush(stdout);
    if (minimize) {
      o.minimize = true;
      auto m = PlanOptimal(p, o);
      std::string mst = m.ok() ? PlanStatusName(m->status) : m.status().ToString();
      ok = ok && m.ok() && arenaplan::plan::VerifyPlan(p, m->plan).ok();
      std::printf(" %8lld %-10s %8lld %8.3f %10lld", static_cast<long long>(m.ok() ? m->plan.height : 0), mst.c_str(),
                  static_cast<long long>(m.ok() ? m->lower_bound : 0), m.ok() ? m->seconds : 0.0,
                  static_cast<long long>(m.ok() ? m->nodes : 0));
    }
    std::printf(" %s\n", ok ? "ok" : "FAILED");
    std::fflush(stdout);
  }
}

std::vector<std::string> GoldenPlans() {
  std::vector<std::string> out;
  const std::string root = SharedDir() + "/golden/tflm-x86_64/plans";
  if (!fs::exists(root)) return out;
  for (auto& e : fs::recursive_directory_iterator(root)) {
    if (e.path().extension() == ".csv") out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void RunModels(double limit) {
  std::printf("\n%-52s %7s %10s %10s %10s %-10s %8s %10s %s\n", "golden plan", "buffers", "greedy", "LB", "optimal",
              "status", "time_s", "nodes", "verify");
  double total = 0, worst = 0;
  int optimal = 0, count = 0;
  for (const std::string& path : GoldenPlans()) {
    int64_t head = 0;
    Problem p = ReadGoldenPlan(path, &head);
    PlannerOptions o;
    o.time_limit_seconds = limit;
    auto r = PlanOptimal(p, o);
    const bool ok = r.ok() && arenaplan::plan::VerifyPlan(p, r->plan).ok() && r->plan.height <= head;
    ++count;
    if (r.ok()) {
      total += r->seconds;
      worst = std::max(worst, r->seconds);
      if (r->status == arenaplan::plan::PlanStatus::kOptimal) ++optimal;
    }
    std::string name = fs::path(path).stem().string();
    std::printf("%-52s %7zu %10lld %10lld %10lld %-10s %8.4f %10lld %s\n", name.c_str(), p.buffers.size(),
                static_cast<long long>(head), static_cast<long long>(r.ok() ? r->lower_bound : 0),
                static_cast<long long>(r.ok() ? r->plan.height : 0),
                r.ok() ? PlanStatusName(r->status) : r.status().ToString().c_str(), r.ok() ? r->seconds : 0.0,
                static_cast<long long>(r.ok() ? r->nodes : 0), ok ? "ok" : "FAILED");
  }
  std::printf("models: %d, proven optimal: %d, total %.3f s, slowest %.3f s\n", count, optimal, total, worst);
}

// Zero-slack guillotine packing with five sizes bumped: too hard to prove in the limits below.
void Cut(std::mt19937& rng, int64_t lo, int64_t hi, int64_t t0, int64_t t1, int depth, Problem* p) {
  if (depth == 0 || (hi - lo < 2 && t1 - t0 < 1)) {
    p->buffers.push_back(Buffer{hi - lo, t0, t1});
    return;
  }
  if ((rng() % 2 == 0 && hi - lo >= 2) || t1 - t0 < 1) {
    const int64_t m = lo + 1 + static_cast<int64_t>(rng() % (hi - lo - 1));
    Cut(rng, lo, m, t0, t1, depth - 1, p);
    Cut(rng, m, hi, t0, t1, depth - 1, p);
  } else {
    const int64_t m = t0 + static_cast<int64_t>(rng() % (t1 - t0));
    Cut(rng, lo, hi, t0, m, depth - 1, p);
    Cut(rng, lo, hi, m + 1, t1, depth - 1, p);
  }
}

// How closely time_limit_seconds is honoured (wall clock around the whole call).
void RunTimeLimits() {
  std::printf("\n%-6s %-8s %10s %10s %-10s %8s %8s\n", "seed", "limit_s", "took_s", "over_ms", "status", "height",
              "bound");
  for (uint32_t seed : {1u, 2u, 4u}) {
    std::mt19937 rng(seed);
    Problem p;
    Cut(rng, 0, 1000, 0, 99, 8, &p);
    for (int i = 0; i < 5; ++i) p.buffers[rng() % p.buffers.size()].size += 1;
    for (double limit : {0.01, 0.05, 0.2, 1.0}) {
      PlannerOptions o;
      o.time_limit_seconds = limit;
      const auto t0 = std::chrono::steady_clock::now();
      auto r = PlanOptimal(p, o);
      const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::printf("%-6u %-8.2f %10.4f %10.2f %-10s %8lld %8lld\n", seed, limit, took, (took - limit) * 1e3,
                  r.ok() ? PlanStatusName(r->status) : "error", static_cast<long long>(r.ok() ? r->plan.height : 0),
                  static_cast<long long>(r.ok() ? r->lower_bound : 0));
    }
  }
}

// The same on the real traces. Both planners first compute TFLM's plan (best-fit's first run,
// optimal's seed), which always finishes: floor_s is what that takes alone (tflm-greedy), so a
// limit below it cannot hold, and over_ms beyond it is the limit's own error.
void RunTraceLimits() {
  std::printf("\n%-28s %7s %-8s %-6s %8s %10s %8s %-10s %14s %14s\n", "trace", "buffers", "planner", "limit", "floor_s",
              "took_s", "over_ms", "status", "height", "bound");
  std::vector<fs::path> traces;
  const fs::path dir = fs::path(SharedDir()) / "benchmarks" / "real-traces";
  if (fs::is_directory(dir)) {
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() == ".csv") traces.push_back(e.path());
    }
  }
  std::sort(traces.begin(), traces.end());
  for (const fs::path& path : traces) {
    auto csv = arenaplan::plan::ReadCsvFile(path.string());
    if (!csv.ok()) continue;
    const auto f0 = std::chrono::steady_clock::now();
    (void)arenaplan::plan::FindPlanner("tflm-greedy")->run(csv->problem, PlannerOptions{});
    const double floor = std::chrono::duration<double>(std::chrono::steady_clock::now() - f0).count();
    for (const char* planner : {"best", "optimal"}) {
      for (double limit : {0.1, 1.0, 3.0}) {
        PlannerOptions o;
        o.time_limit_seconds = limit;
        const auto t0 = std::chrono::steady_clock::now();
        auto r = std::string(planner) == "best" ? arenaplan::plan::PlanBest(csv->problem, o)
                                                : PlanOptimal(csv->problem, o);
        const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const bool valid = r.ok() && arenaplan::plan::VerifyPlan(csv->problem, r->plan).ok();
        std::printf("%-28s %7zu %-8s %-6.1f %8.3f %10.3f %8.1f %-10s %14lld %14lld\n", path.stem().string().c_str(),
                    csv->problem.buffers.size(), planner, limit, floor, took, (took - limit) * 1e3,
                    !r.ok() ? "error"
                    : valid ? PlanStatusName(r->status)
                            : "INVALID",
                    static_cast<long long>(r.ok() ? r->plan.height : 0),
                    static_cast<long long>(r.ok() ? r->lower_bound : 0));
      }
    }
  }
}

void BM_OptimalGoldenPlan(benchmark::State& state, std::string path) {
  int64_t head = 0;
  Problem p = ReadGoldenPlan(path, &head);
  PlannerOptions o;
  o.time_limit_seconds = 10;
  for (auto _ : state) {
    auto r = PlanOptimal(p, o);
    benchmark::DoNotOptimize(r);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string which = "ABCDEFGHIJK";
  double limit = 60;
  bool minimize = true, models = true, instances = true, limits = true;
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--instances=", 0) == 0)
      which = a.substr(12);
    else if (a.rfind("--limit=", 0) == 0)
      limit = std::stod(a.substr(8));
    else if (a == "--skip-minimize")
      minimize = false;
    else if (a == "--skip-models")
      models = false;
    else if (a == "--skip-instances")
      instances = false;
    else if (a == "--skip-limits")
      limits = false;
    else
      rest.push_back(argv[i]);
  }
  if (instances) RunInstances(which, limit, minimize);
  if (models) RunModels(10);
  if (limits) {
    RunTimeLimits();
    RunTraceLimits();
  }
  int n = static_cast<int>(rest.size());
  bool any_filter = false;
  for (char* a : rest) any_filter = any_filter || std::string(a).rfind("--benchmark_filter", 0) == 0;
  if (any_filter) {
    for (const std::string& path : GoldenPlans()) {
      benchmark::RegisterBenchmark(("optimal/" + fs::path(path).stem().string()).c_str(), BM_OptimalGoldenPlan, path);
    }
    benchmark::Initialize(&n, rest.data());
    benchmark::RunSpecifiedBenchmarks();
  }
  return 0;
}
