// libFuzzer entry for the CSV problem reader (`solve`'s input, MiniMalloc's format): any bytes ->
// ParseCsv -> ValidateProblem -> capacity check -> lower bound, TFLM's greedy and best-fit, each
// plan verified -> WriteCsv, whose text must read back as the same problem; then, for problems of
// at most kMaxSearched buffers, the exact planners (`optimal` and `best`, kSearchSeconds each):
// their plans must verify and never go below their own proven bound. Must never crash, whatever
// the input; a plan that does not verify or a round trip that changes the problem is a bug
// (abort). Problems above kMaxPlanned buffers are only read and validated, so every input runs in
// milliseconds.
//
// Build and run as model_fuzzer.cc says; scripts/test.sh runs it in CI for a bounded time, seeded
// with the shared benchmark instances:
//   scripts/run-fuzzer.sh build-fuzz/fuzz/csv_fuzzer 60 benchmarks '*.csv'
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "plan/best.h"
#include "plan/best_fit.h"
#include "plan/csv.h"
#include "plan/lower_bound.h"
#include "plan/optimal.h"
#include "plan/tflm_greedy.h"
#include "plan/verify.h"

namespace {

constexpr size_t kMaxPlanned = 2000;
// The exact planners search hostile problems too (the gravity, skyline and block searches, window
// refutations, peak anchoring), briefly: most inputs are tiny and finish in microseconds.
constexpr size_t kMaxSearched = 300;
constexpr double kSearchSeconds = 0.01;

bool SameBuffers(const arenaplan::plan::Problem& a, const arenaplan::plan::Problem& b) {
  if (a.buffers.size() != b.buffers.size()) return false;
  for (size_t i = 0; i < a.buffers.size(); ++i) {
    const auto &x = a.buffers[i], &y = b.buffers[i];
    if (x.first != y.first || x.last != y.last || x.size != y.size || x.alignment != y.alignment ||
        x.fixed_offset != y.fixed_offset) {
      return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace arenaplan;
  auto csv = plan::ParseCsv(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv");
  if (!csv.ok()) return 0;
  const plan::Problem& problem = csv->problem;
  if (!plan::ValidateProblem(problem).ok()) return 0;
  plan::Problem bounded = problem;
  bounded.capacity = plan::Bytes{1} << 20;
  (void)plan::CheckCapacity(bounded, &csv->ids);
  if (problem.buffers.size() > kMaxPlanned) return 0;
  (void)plan::LiveBytesLowerBound(problem);
  for (auto planner : {plan::PlanTflmGreedy, plan::PlanBestFit}) {
    auto planned = planner(problem, {});
    if (!planned.ok()) continue;
    if (!plan::VerifyPlan(problem, planned->plan, 1).ok()) std::abort();
    const std::string text = plan::WriteCsv(csv->ids, problem, planned->plan);
    auto again = plan::ParseCsv(text, "written.csv");
    if (!again.ok() || again->ids != csv->ids) std::abort();
    // Written back, the planned offsets become fixed ones: compare lifetimes, sizes, alignments.
    plan::Problem unfixed = again->problem;
    for (size_t i = 0; i < unfixed.buffers.size(); ++i) {
      if (unfixed.buffers[i].fixed_offset != planned->plan.offsets[i]) std::abort();
      unfixed.buffers[i].fixed_offset = problem.buffers[i].fixed_offset;
    }
    if (!SameBuffers(unfixed, problem)) std::abort();
  }
  if (problem.buffers.size() > kMaxSearched) return 0;
  plan::PlannerOptions options;
  options.time_limit_seconds = kSearchSeconds;
  for (auto planner : {plan::PlanOptimal, plan::PlanBest}) {
    auto planned = planner(problem, options);
    if (!planned.ok() || planned->status == plan::PlanStatus::kInfeasible) continue;
    if (!plan::VerifyPlan(problem, planned->plan, 1).ok()) std::abort();
    if (planned->plan.height < planned->lower_bound) std::abort();
  }
  return 0;
}
