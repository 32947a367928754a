// Planning at scale: every planner on seeded random problems of 1k, 10k, 100k and 1M buffers, three
// classes (plan/random_problem.h): "uniform" (lifetimes 1..400 steps over 2n steps, sizes
// 16 B..64 KiB, ~100 buffers alive at a time), "trace" (inference-like: short lifetimes walking
// forward, a few long-lived buffers) and "chain" (a plain sequential network: 2-4 buffers alive at
// a time, one time-connected problem). One row per class, size and planner: planning time (the
// call only, no CSV; wall and CPU), height / lower bound, and whether the plan passed VerifyPlan; then, per
// class and size, whether best-fit is at or below tflm-greedy. `optimal` and `best` run under
// --limit (default 10 s) each. The stated cost of each planner is printed above the table; the
// time columns show how it grows (x10 buffers per row).
//
// Usage: scale_bench [--sizes=1000,10000,...] [--planners=linear,tflm-greedy,...] [--limit=SECONDS]
//                    [--classes=uniform,trace,chain]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "plan/lower_bound.h"
#include "plan/planner.h"
#include "plan/random_problem.h"
#include "plan/verify.h"

namespace {

using namespace arenaplan::plan;  // NOLINT: bench-local

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(item);
  return out;
}

// What each planner's header states (n buffers, k alive at a step, T distinct steps).
const std::map<std::string, std::string> kStatedCost = {
    {"linear", "O(n)"},
    {"tflm-greedy", "O(n log n + sum over buffers of k log k) with TimeIndex's merged ranges"},
    {"best-fit",
     "first-step run O(n log n + n f), f free blocks <= k; then TFLM's run (gives up once no better); "
     "up to 12 more (n > 20k: 5, n > 50k: 3, n > 65536: none)"},
    {"optimal", "exponential worst case; seeding = best-fit; bounded by --limit"},
    {"best",
     "the heuristics, then optimal, peak anchoring, target sweeps (per target O(n log n + n k) "
     "plus one exact search per hot window) and peak repair within --limit"},
};

struct Row {
  double seconds = 0;
  double cpu_seconds = 0;  // of this process during the call (the planners run on one thread)
  Bytes height = 0;
  bool verified = false;
  std::string chosen;
};

Row Run(const PlannerEntry& planner, const Problem& problem, double limit) {
  PlannerOptions o;
  if (planner.name == "optimal" || planner.name == "best") o.time_limit_seconds = limit;
  const std::clock_t cpu_start = std::clock();
  const auto start = std::chrono::steady_clock::now();
  auto r = planner.run(problem, o);
  Row row;
  row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  row.cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  if (!r.ok()) {
    row.chosen = r.status().ToString();
    return row;
  }
  row.height = r->plan.height;
  row.chosen = r->planner + " (" + PlanStatusName(r->status) + ")";
  row.verified = VerifyPlan(problem, r->plan).ok();
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> sizes{1000, 10000, 100000, 1000000};
  std::vector<std::string> planners{"linear", "tflm-greedy", "best-fit", "best"};
  std::vector<std::string> classes{"uniform", "trace", "chain"};
  double limit = 10;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--sizes=", 0) == 0) {
      sizes.clear();
      for (const std::string& s : Split(a.substr(8))) sizes.push_back(std::stoul(s));
    } else if (a.rfind("--planners=", 0) == 0) {
      planners = Split(a.substr(11));
    } else if (a.rfind("--classes=", 0) == 0) {
      classes = Split(a.substr(10));
    } else if (a.rfind("--limit=", 0) == 0) {
      limit = std::atof(a.c_str() + 8);
    } else {
      std::fprintf(stderr, "scale_bench: unknown argument '%s'\n", a.c_str());
      return 2;
    }
  }
  std::printf("stated cost per planner:\n");
  for (const std::string& name : planners) {
    const auto it = kStatedCost.find(name);
    std::printf("  %-12s %s\n", name.c_str(), it == kStatedCost.end() ? "?" : it->second.c_str());
  }
  std::printf("\n| class | buffers | planner | wall (s) | cpu (s) | height / LB | verified | chosen |\n");
  std::printf("|---|---:|---|---:|---:|---:|---|---|\n");
  std::vector<std::string> verdicts;
  int failures = 0;
  for (const std::string& cls : classes) {
    const RandomStyle style = cls == "trace"   ? RandomStyle::kTrace
                              : cls == "chain" ? RandomStyle::kChain
                                               : RandomStyle::kUniform;
    for (size_t n : sizes) {
      const Problem problem = RandomProblem({style, n, 42});
      const Bytes bound = LiveBytesLowerBound(problem);
      std::map<std::string, Bytes> heights;
      for (const std::string& name : planners) {
        const PlannerEntry* planner = FindPlanner(name);
        if (planner == nullptr) {
          std::fprintf(stderr, "scale_bench: unknown planner '%s'\n", name.c_str());
          return 2;
        }
        const Row row = Run(*planner, problem, limit);
        heights[name] = row.height;
        failures += !row.verified;
        std::printf("| %s | %zu | %s | %.3f | %.3f | %.4f | %s | %s |\n", cls.c_str(), n, name.c_str(), row.seconds,
                    row.cpu_seconds, bound > 0 ? static_cast<double>(row.height) / static_cast<double>(bound) : 1.0,
                    row.verified ? "yes" : "NO", row.chosen.c_str());
        std::fflush(stdout);
      }
      if (heights.count("best-fit") && heights.count("tflm-greedy")) {
        const bool ok = heights["best-fit"] <= heights["tflm-greedy"];
        failures += !ok;
        verdicts.push_back(cls + " " + std::to_string(n) + ": best-fit " + (ok ? "<=" : "WORSE THAN") + " tflm-greedy");
      }
    }
  }
  std::printf("\n");
  for (const std::string& v : verdicts) std::printf("%s\n", v.c_str());
  return failures == 0 ? 0 : 1;
}
