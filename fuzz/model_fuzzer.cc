// libFuzzer entry: any bytes -> ReadModel -> offline-plan / static checks -> ComputeLifetimes ->
// ToProblem -> lower bound, TFLM greedy plan and its verification; then the TFLM arena size
// (kernel table formulas on hostile shapes and custom options). Must never crash, whatever the
// input; a plan that does not verify is a bug (abort).
//
// Build and run (-DARENAPLAN_FUZZ=ON instruments every library, so coverage and ASan reach the
// reader); scripts/test.sh does this in CI for a bounded time:
//   CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -G Ninja -DARENAPLAN_FUZZ=ON \
//     -DARENAPLAN_BUILD_TESTS=OFF -DARENAPLAN_BUILD_BENCH=OFF
//   ninja -C build-fuzz model_fuzzer
//   scripts/run-fuzzer.sh build-fuzz/fuzz/model_fuzzer 60
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "lifetime/lifetimes.h"
#include "model/model.h"
#include "model/offline_plan.h"
#include "model/static_problems.h"
#include "plan/lower_bound.h"
#include "plan/tflm_greedy.h"
#include "plan/verify.h"
#include "tflm/arena_size.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace arenaplan;
  // The reader expects flatbuffer-aligned bytes, as a file read into a vector is.
  std::vector<uint8_t> bytes(data, data + size);
  auto model = model::ReadModel(bytes.data(), bytes.size());
  if (!model.ok()) return 0;
  (void)model::ValidateOfflinePlan(*model);
  (void)model::StaticPlanningProblems(*model);
  lifetime::Options options;
  if (!model->subgraphs.empty() && !model->subgraphs[0].operators.empty()) {
    options.scratch.push_back({0, 0, size % 1000 + 1});
  }
  auto lifetimes = lifetime::ComputeLifetimes(*model, options);
  if (!lifetimes.ok()) return 0;
  const plan::Problem problem = lifetime::ToProblem(*lifetimes);
  if (!plan::ValidateProblem(problem).ok()) return 0;
  (void)plan::LiveBytesLowerBound(problem);
  auto planned = plan::PlanTflmGreedy(problem, {});
  if (planned.ok() && !plan::VerifyPlan(problem, planned->plan).ok()) std::abort();
  (void)tflm::ComputeArenaSize(*model, **tflm::FindTarget("tflm-cortex-m"));
  return 0;
}
