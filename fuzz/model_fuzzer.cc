// libFuzzer entry for the host tools: any bytes -> ReadModel (rules/ checks) -> offline-plan /
// static checks -> ComputeLifetimes -> ToProblem -> lower bound, TFLM's greedy plan twice (the
// host's O(n log n) plan/tflm_greedy.h and the device's O(n^2) rules/greedy.h, which must agree
// offset for offset) and its verification; then the TFLM arena size (kernel table formulas on
// hostile shapes and custom options); then the editable graph: read -> write -> read must give the
// same graph (SameGraph: bit for bit, NaNs included), and the rewrite passes (PAD folding, int8
// I/O, a 2x2 patch of every prefix the analysis accepts) must give models the reader accepts. Must
// never crash, whatever the input; a plan that does not verify, the two greedy planners
// disagreeing, or a graph that does not round-trip is a bug (abort). runtime_fuzzer.cc covers the
// runtime.
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
#include "rules/greedy.h"
#include "rules/limits.h"
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

// rules::PlaceBuffers on the same problem gives the same offsets (problems from ToProblem have one
// alignment for online buffers, as the device's).
bool SameAsDeviceGreedy(const arenaplan::plan::Problem& problem, const arenaplan::plan::Plan& plan) {
  using namespace arenaplan;
  if (problem.buffers.size() > rules::kMaxPlanBuffers) return true;
  std::vector<rules::PlanBuffer> bufs;
  for (const plan::Buffer& b : problem.buffers) {
    if (b.size > INT32_MAX || b.fixed_offset > INT32_MAX || b.first > INT32_MAX || b.last > INT32_MAX) return true;
    bufs.push_back({static_cast<uint32_t>(b.size), static_cast<int32_t>(b.first), static_cast<int32_t>(b.last),
                    b.fixed() ? static_cast<int32_t>(b.fixed_offset) : rules::kOnline});
  }
  std::vector<uint16_t> order(bufs.size()), next(bufs.size());
  uint32_t head = 0;
  rules::ErrorText error;
  if (rules::PlaceBuffers(bufs.data(), static_cast<uint32_t>(bufs.size()), 16, rules::GapRule::kFirstFit, order.data(),
                          next.data(), &head, &error) != rules::StatusCode::kOk) {
    return true;  // beyond 2 GiB: the host plans it, the device refuses it
  }
  for (size_t i = 0; i < bufs.size(); ++i) {
    if (bufs[i].offset != plan.offsets[i]) return false;
  }
  return true;
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
    options.scratch.push_back({static_cast<uint32_t>(size % 1000 + 1), 0});
  }
  auto lifetimes = lifetime::ComputeLifetimes(*model, options);
  if (!lifetimes.ok()) return 0;
  const plan::Problem problem = lifetime::ToProblem(*lifetimes);
  if (!plan::ValidateProblem(problem).ok()) return 0;
  (void)plan::LiveBytesLowerBound(problem);
  auto planned = plan::PlanTflmGreedy(problem, {});
  if (planned.ok() && !plan::VerifyPlan(problem, planned->plan).ok()) std::abort();
  if (planned.ok() && !SameAsDeviceGreedy(problem, planned->plan)) std::abort();
  (void)tflm::ComputeArenaSize(*model, **tflm::FindTarget("tflm-cortex-m"));
  return 0;
}
