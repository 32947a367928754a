// Several memories: for every .tflite under shared/models (tensors + x86-64 kernel scratch, 16-byte
// alignment, as model_plan_bench) and three realistic region sets, the placement of
// plan::PlanRegions: bytes per region, modelled cost (traffic x cost per byte, plan/region_problem.h),
// against everything in the largest region (naive) and ExecuTorch's banked greedy (fastest first),
// the gap to the cost lower bound and whether the exact search proved the placement optimal.
// Prints one Markdown table per region set (models that fit entirely in the fastest region are
// counted in the summary, not listed) and a summary. Not a timed test: the time limit per
// model is the planner's default (2 s) unless given.
// Run: ./build/bench/region_bench [SECONDS_PER_MODEL] [MODEL_SUBSTRING]   (ARENAPLAN_SHARED overrides ../shared)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "lifetime/lifetimes.h"
#include "lifetime/traffic.h"
#include "model/model.h"
#include "plan/region_planner.h"
#include "tflm/arena_size.h"
#include "tflm/target.h"

namespace {
namespace fs = std::filesystem;
using namespace arenaplan;

struct RegionSet {
  const char* name;
  std::vector<plan::Region> regions;
};

const std::vector<RegionSet>& Sets() {
  static const std::vector<RegionSet> kSets = {
      {"Cortex-M7: dtcm:128K:1 sram:1M:3", {{"dtcm", 128 << 10, 1}, {"sram", 1 << 20, 3}}},
      {"ESP32-S3: sram:320K:1 psram:8M:10", {{"sram", 320 << 10, 1}, {"psram", 8 << 20, 10}}},
      {"STM32H7: dtcm:128K:1 axi:512K:2 sdram:8M:10",
       {{"dtcm", 128 << 10, 1}, {"axi", 512 << 10, 2}, {"sdram", 8 << 20, 10}}},
  };
  return kSets;
}

std::string SharedDir() {
  const char* env = std::getenv("ARENAPLAN_SHARED");
  return (env && *env) ? env : ARENAPLAN_DEFAULT_SHARED_DIR;
}

struct Case {
  std::string name;
  plan::Problem problem;
  std::vector<int64_t> traffic;
};

std::vector<Case> LoadCases(const std::string& filter) {
  const fs::path models = fs::path(SharedDir()) / "models";
  std::vector<fs::path> files;
  if (fs::is_directory(models)) {
    for (const auto& e : fs::recursive_directory_iterator(models)) {
      if (e.path().extension() == ".tflite" && e.path().string().find(filter) != std::string::npos) {
        files.push_back(e.path());
      }
    }
  }
  std::sort(files.begin(), files.end());
  auto target = tflm::FindTarget("tflm-x86_64");
  std::vector<Case> cases;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto m = model::ReadModel(bytes.data(), bytes.size());
    if (!m.ok()) continue;
    auto for_target = tflm::LifetimeOptionsFor(*m, **target);  // without scratch where TFLM cannot size them
    lifetime::Options options = for_target.ok() ? std::move(for_target).value() : lifetime::Options();
    options.use_offline_plan = false;  // as plan --region: offline offsets are for one arena
    auto lt = lifetime::ComputeLifetimes(*m, options);
    if (!lt.ok()) continue;
    Case c{fs::relative(f, models).string(), lifetime::ToProblem(*lt, 16), lifetime::BufferTraffic(*m, *lt)};
    // A zero-byte scratch request cannot be planned (ValidateProblem); it moves nothing either.
    for (size_t i = c.problem.buffers.size(); i-- > 0;) {
      if (c.problem.buffers[i].size > 0) continue;
      c.problem.buffers.erase(c.problem.buffers.begin() + static_cast<std::ptrdiff_t>(i));
      c.traffic.erase(c.traffic.begin() + static_cast<std::ptrdiff_t>(i));
    }
    if (!c.problem.buffers.empty()) cases.push_back(std::move(c));
  }
  return cases;
}

std::string Delta(plan::Cost ours, const plan::RegionBaseline& b) {
  if (!b.fits) return "does not fit";
  char buf[64];
  std::snprintf(
      buf, sizeof buf, "%lld (%+.1f %%)", static_cast<long long>(b.plan.cost),
      b.plan.cost > 0 ? 100.0 * static_cast<double>(ours - b.plan.cost) / static_cast<double>(b.plan.cost) : 0.0);
  return buf;
}

struct Summary {
  int models = 0, fit = 0, proven = 0, all_fast = 0, below_ff = 0, ff_fails = 0, naive_fails = 0;
  double ratio_naive = 0, ratio_ff = 0;  // sums of ours / baseline where both fit
  int n_naive = 0, n_ff = 0;
};

void RunSet(const RegionSet& set, const std::vector<Case>& cases, double seconds) {
  std::printf("\n### %s\n\n", set.name);
  std::printf("| model | buffers | bytes per region | cost | naive | fastest first | gap to bound | proven |\n");
  std::printf("|---|---:|---|---:|---:|---:|---:|---|\n");
  Summary s;
  for (const Case& c : cases) {
    plan::RegionProblem rp{c.problem, c.traffic, set.regions};
    plan::PlannerOptions options;
    options.time_limit_seconds = seconds;
    auto r = plan::PlanRegions(rp, options);
    ++s.models;
    if (!r.ok()) {
      std::printf("| %s | %zu | error: %s |||||\n", c.name.c_str(), c.problem.buffers.size(),
                  r.status().message().c_str());
      continue;
    }
    s.naive_fails += !r->naive.fits;
    s.ff_fails += !r->fastest_first.fits;
    if (!r->fits) {
      std::printf("| %s | %zu | does not fit: %lld to %lld bytes short |||||\n", c.name.c_str(),
                  c.problem.buffers.size(), static_cast<long long>(r->shortfall_min),
                  static_cast<long long>(r->shortfall_max));
      continue;
    }
    ++s.fit;
    std::string used;
    for (size_t k = 0; k < rp.regions.size(); ++k) { used += (k ? " / " : "") + std::to_string(r->plan.used[k]); }
    const bool proven = r->status == plan::PlanStatus::kOptimal;
    s.proven += proven;
    const bool one_region = std::count(r->plan.used.begin(), r->plan.used.end(), 0) + 1 ==
                            static_cast<std::ptrdiff_t>(rp.regions.size());
    if (one_region && r->plan.used[plan::RegionsByCost(rp)[0]] > 0) {
      ++s.all_fast;  // everything in the fastest region: optimal, nothing to compare; no row
      continue;
    }
    if (r->naive.fits) {
      s.ratio_naive += static_cast<double>(r->plan.cost) / static_cast<double>(r->naive.plan.cost);
      ++s.n_naive;
    }
    if (r->fastest_first.fits) {
      s.ratio_ff += static_cast<double>(r->plan.cost) / static_cast<double>(r->fastest_first.plan.cost);
      ++s.n_ff;
      s.below_ff += r->plan.cost < r->fastest_first.plan.cost;
    }
    char gap[32];
    std::snprintf(gap, sizeof gap, "%.1f %%",
                  r->cost_lower_bound > 0 ? 100.0 * static_cast<double>(r->plan.cost - r->cost_lower_bound) /
                                                static_cast<double>(r->cost_lower_bound)
                                          : 0.0);
    std::printf(
        "| %s | %zu | %s | %lld | %s | %s | %s | %s |\n", c.name.c_str(), c.problem.buffers.size(), used.c_str(),
        static_cast<long long>(r->plan.cost), Delta(r->plan.cost, r->naive).c_str(),
        Delta(r->plan.cost, r->fastest_first).c_str(), gap,
        proven ? (r->exact_ran ? "yes (search)" : "yes (bound)") : (r->exact_ran ? "no (stopped)" : "no (large)"));
  }
  std::printf(
      "\nsummary %s: %d models, %d fit (%d entirely in the fastest region, not listed), %d proven optimal, "
      "naive fails %d, fastest-first fails %d, cheaper than fastest-first on %d; over the listed models, mean "
      "cost / naive %.3f, cost / fastest-first %.3f\n",
      set.name, s.models, s.fit, s.all_fast, s.proven, s.naive_fails, s.ff_fails, s.below_ff,
      s.n_naive ? s.ratio_naive / s.n_naive : 0.0, s.n_ff ? s.ratio_ff / s.n_ff : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 0;
  const std::string filter = argc > 2 ? argv[2] : "";
  const auto cases = LoadCases(filter);
  if (cases.empty()) {
    std::fprintf(stderr, "region_bench: no models under %s/models\n", SharedDir().c_str());
    return 1;
  }
  std::printf("region_bench: %zu models, %s s per model and region set\n", cases.size(),
              seconds > 0 ? std::to_string(seconds).c_str() : "2 (default)");
  for (const RegionSet& set : Sets()) RunSet(set, cases, seconds);
  return 0;
}
