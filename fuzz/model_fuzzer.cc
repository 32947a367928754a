// libFuzzer entry: any bytes -> ReadModel -> offline-plan / static checks -> ComputeLifetimes ->
// ToProblem -> lower bound, TFLM greedy plan and its verification; then the TFLM arena size
// (kernel table formulas on hostile shapes and custom options); then the editable graph: read ->
// write -> read must give the same graph (SameGraph: bit for bit, NaNs included), and the rewrite passes (PAD folding, int8 I/O, a 2x2
// patch of every prefix the analysis accepts) must give models the reader accepts. Must never
// crash, whatever the input; a plan that does not verify or a graph that does not round-trip is a
// bug (abort).
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

#include "graph/int8_io.h"
#include "graph/pad_fold.h"
#include "graph/patch.h"
#include "lifetime/lifetimes.h"
#include "model/graph.h"
#include "model/model.h"
#include "model/offline_plan.h"
#include "model/static_problems.h"
#include "plan/lower_bound.h"
#include "plan/tflm_greedy.h"
#include "plan/verify.h"
#include "tflm/arena_size.h"

namespace {

// The editable graph and the rewrites on a model the reader accepted.
void FuzzGraph(const std::vector<uint8_t>& bytes) {
  using namespace arenaplan;
  auto g = model::ReadGraph(bytes.data(), bytes.size());
  if (!g.ok()) return;
  auto written = model::WriteGraph(**g);
  if (!written.ok()) return;
  auto again = model::ReadGraph(written->data(), written->size());
  if (!again.ok() || !model::SameGraph(**again, **g)) std::abort();
  (void)graph::FoldPads(**again);
  (void)graph::QuantizedIo(**again);
  const size_t ops = (*again)->subgraphs.empty() ? 0 : (*again)->subgraphs[0]->operators.size();
  for (size_t k = 1; k < ops && k < 64; ++k) {
    auto p = graph::AnalyzePrefix(**again, static_cast<int32_t>(k));
    if (!p.ok()) continue;
    auto patched = graph::PatchPrefix(**again, *p, {2, 2});
    if (!patched.ok()) continue;
    auto out = model::WriteGraph(*patched->graph);
    if (out.ok()) (void)model::ReadModel(out->data(), out->size());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace arenaplan;
  // The reader expects flatbuffer-aligned bytes, as a file read into a vector is.
  std::vector<uint8_t> bytes(data, data + size);
  auto model = model::ReadModel(bytes.data(), bytes.size());
  if (!model.ok()) return 0;
  (void)model::ValidateOfflinePlan(*model);
  (void)model::StaticPlanningProblems(*model);
  FuzzGraph(bytes);
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
