// Every corpus model with golden TFLM io files, optimized for stock TFLM and for arenaplan's
// runtime (default options): where optimize changed the model, the rewritten model runs in the
// runtime on the golden inputs and gives TFLM's golden outputs byte for byte (or, where the
// original model's runtime outputs already differ from TFLM's in the last bit of a libm call, the
// original model's runtime outputs), its smallest arena is below the input's, and unchanged
// models are written back byte for byte. Each rewritten model is run once. For arenaplan's runtime
// the rewritten models carry explicit convolution padding in place of PADs and in-place depthwise
// convolutions and elementwise ops and stream segments (arenaplan_schedule): those are run the
// same way, and they must be among the models checked; also with --max-extra-macs 0, where the
// streams (no recomputation) are what lowers the arena.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "golden_testutil.h"
#include "graph/edit.h"
#include "graph/runtime_evaluator.h"
#include "graph/schedule.h"
#include "graph/tflm_evaluator.h"
#include "lifetime/lifetimes.h"
#include "plan/best_fit.h"
#include "plan/verify.h"
#include "runtime/kernels/dsp/registrations.h"
#include "support/shared_dir.h"

namespace arenaplan::testing {
namespace {

constexpr size_t kArena = 64u << 20;

using Tensors = std::vector<std::vector<uint8_t>>;

Tensors RunWith(const std::vector<uint8_t>& bytes, const Tensors& inputs, std::string* error,
                const rt::OpResolver& kernels = rt::AllOpsResolver()) {
  auto run = MakeRun(bytes, kArena, rt::InterpreterOptions(), kernels);
  Tensors out;
  if (run->interp->AllocateTensors() != rt::StatusCode::kOk) return *error = run->interp->error_message(), out;
  for (uint32_t k = 0; k < run->interp->inputs_size(); ++k) {
    const rt::TensorView in = run->interp->input(k);
    if (k >= inputs.size() || inputs[k].size() != in.bytes) return *error = "input size differs", out;
    std::memcpy(in.data, inputs[k].data(), in.bytes);
  }
  if (run->interp->Invoke() != rt::StatusCode::kOk) return *error = run->interp->error_message(), out;
  for (uint32_t k = 0; k < run->interp->outputs_size(); ++k) {
    const auto* p = static_cast<const uint8_t*>(run->interp->output(k).data);
    out.emplace_back(p, p + run->interp->output(k).bytes);
  }
  return out;
}

Tensors GoldenInputs(const GoldenModel& m) {
  Tensors in;
  for (uint32_t k = 0; k < m.num_inputs; ++k) in.push_back(ReadFileBytes(IoPath(m, "in" + std::to_string(k))));
  return in;
}

Tensors Outputs(const std::vector<uint8_t>& bytes, const GoldenModel& m, std::string* error,
                const rt::OpResolver& kernels = rt::AllOpsResolver()) {
  return RunWith(bytes, GoldenInputs(m), error, kernels);
}

// Op `i` of `g` alone as a model: its non-constant inputs in, its outputs out.
std::vector<uint8_t> SingleOp(const model::Graph& g, size_t i) {
  model::Graph one(g);
  auto& sg = *one.subgraphs[0];
  auto op = std::move(sg.operators[i]);
  sg.operators.clear();
  sg.inputs.clear();
  for (int32_t t : op->inputs) {
    if (t >= 0 && !graph::IsConstant(one, sg, t)) sg.inputs.push_back(t);
  }
  sg.outputs = op->outputs;
  sg.operators.push_back(std::move(op));
  one.signature_defs.clear();
  one.metadata.clear();
  graph::PruneUnused(one);
  auto bytes = model::WriteGraph(one);
  return bytes.ok() ? *bytes : std::vector<uint8_t>{};
}

// The rewritten model passes the reader's verifier, its lifetimes follow TFLM's rules like any
// model's, and a plan around its offline offsets (if any) passes the plan verifier with no two
// offline buffers sharing bytes while alive.
void CheckPlans(const std::vector<uint8_t>& bytes) {
  auto view = model::ReadModel(bytes.data(), bytes.size());
  ASSERT_TRUE(view.ok()) << view.status().ToString();
  auto lifetimes = lifetime::ComputeLifetimes(*view);
  ASSERT_TRUE(lifetimes.ok()) << lifetimes.status().ToString();
  const plan::Problem problem = lifetime::ToProblem(*lifetimes);
  auto planned = plan::PlanBestFit(problem, plan::PlannerOptions());
  ASSERT_TRUE(planned.ok()) << planned.status().ToString();
  const plan::VerifyReport report = plan::VerifyPlan(problem, planned->plan);
  EXPECT_TRUE(report.ok()) << report.errors[0].message;
  EXPECT_TRUE(report.fixed_overlaps.empty());
}

// dsp: also run the rewritten model on the Cortex-M fast kernels (emulated here), which must
// stream its segments row by row as the portable ones do and give the same bytes.
void CheckChanged(const GoldenModel& m, const std::vector<uint8_t>& original, const graph::OptimizeResult& r,
                  bool dsp = false) {
  EXPECT_LT(r.after.min_arena, r.before.min_arena);
  CheckPlans(r.bytes);
  std::string error;
  const auto got = Outputs(r.bytes, m, &error);
  ASSERT_FALSE(got.empty()) << error;
  if (dsp) {
    EXPECT_EQ(Outputs(r.bytes, m, &error, rt::DspOpsResolver()), got) << "on the fast kernels: " << error;
  }
  std::vector<std::vector<uint8_t>> golden;
  for (uint32_t k = 0; k < m.num_outputs; ++k) golden.push_back(ReadFileBytes(IoPath(m, "out" + std::to_string(k))));
  if (got == golden) return;
  const auto before = Outputs(original, m, &error);
  ASSERT_NE(before, golden) << "the optimized model's outputs differ from TFLM's";
  EXPECT_EQ(got, before) << "the optimized model's outputs differ from the original's";
}

// One plain TEST per mode, not a TEST_P: ctest runs a TEST_P's parameters in one process
// (tests/CMakeLists.txt), and these are the longest tests of the suite under the sanitizers, so
// they should run side by side.
enum class Mode { kTflm, kArenaplan, kArenaplanNoExtraMacs };

void CheckRewrittenModels(Mode mode) {
  auto target = tflm::FindTarget(tflm::kDefaultTarget);
  ASSERT_TRUE(target.ok());
  size_t changed = 0, scheduled = 0, in_place = 0, streamed = 0, overlapped = 0, dsp_checked = 0;
  for (const auto& m : GoldenIoModels()) {
    const auto bytes = ReadFileBytes(ModelPath(m));
    SCOPED_TRACE(m.model);
    graph::OptimizeOptions o;
    if (mode == Mode::kArenaplanNoExtraMacs) o.max_extra_macs_pct = 0;
    auto r = mode == Mode::kTflm
                 ? graph::Optimize(bytes, o, graph::TflmEvaluator(**target), graph::TflmFinish(**target))
                 : graph::OptimizeForRuntime(bytes, o);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    if (!r->changed) {
      EXPECT_EQ(r->bytes, bytes);
      continue;
    }
    ++changed;
    auto g = model::ReadGraph(r->bytes.data(), r->bytes.size());
    ASSERT_TRUE(g.ok());
    const size_t streamed_before = streamed;
    if (graph::HasSchedule(**g)) {
      EXPECT_NE(mode, Mode::kTflm) << "a model for stock TFLM must not depend on arenaplan's schedule";
      ++scheduled;
      const auto records = graph::ReadSchedule(**g);
      streamed += std::any_of(records.begin(), records.end(), [](const auto& p) { return p.stream_ops > 0; });
      if (mode == Mode::kArenaplanNoExtraMacs) { EXPECT_LE(r->macs_after, r->macs_before); }
      auto run = MakeRun(r->bytes, kArena);
      ASSERT_EQ(run->interp->AllocateTensors(), rt::StatusCode::kOk) << run->interp->error_message();
      in_place += run->interp->memory_record().in_place_ops > 0;
      overlapped += run->interp->memory_record().stream_overlaps > 0;
    }
    // Streams writing their output over their input's read rows bring this MobileNet to half
    // its original 73,728-byte head (and below: 28,800 B).
    if (m.model == "mlperf_vww_mobilenet_int8" && mode != Mode::kTflm) { EXPECT_LE(r->after.head, 36864u); }
    // Models that stream, on the fast kernels too (only in one mode: it doubles their run time).
    const bool dsp = mode == Mode::kArenaplanNoExtraMacs && streamed > streamed_before;
    dsp_checked += dsp;
    CheckChanged(m, bytes, *r, dsp);
  }
  std::printf(
      "optimize corpus: %zu models rewritten (%zu with a schedule, %zu running ops in place, %zu streaming, "
      "%zu writing a stream's output over its input), outputs checked (%zu also on the fast kernels)\n",
      changed, scheduled, in_place, streamed, overlapped, dsp_checked);
  EXPECT_GT(changed, 5u);
  if (mode == Mode::kArenaplan) {
    EXPECT_GT(scheduled, 3u);
    EXPECT_GT(in_place, 1u);
  }
  if (mode == Mode::kArenaplanNoExtraMacs) {
    EXPECT_GT(streamed, 3u);
    EXPECT_EQ(dsp_checked, streamed);
    EXPECT_GT(scheduled, 3u);
    EXPECT_GT(overlapped, 3u);
  }
}

TEST(OptimizeCorpus, ForTflmRewrittenModelsGiveGoldenOutputs) {
  REQUIRE_SHARED();
  CheckRewrittenModels(Mode::kTflm);
}
TEST(OptimizeCorpus, ForArenaplanRewrittenModelsGiveGoldenOutputs) {
  REQUIRE_SHARED();
  CheckRewrittenModels(Mode::kArenaplan);
}
TEST(OptimizeCorpus, ForArenaplanNoExtraMacsRewrittenModelsGiveGoldenOutputs) {
  REQUIRE_SHARED();
  CheckRewrittenModels(Mode::kArenaplanNoExtraMacs);
}

// --int8-io: fed with what the model's own QUANTIZE makes of the golden input, the rewritten model
// gives int8 outputs that the model's own DEQUANTIZE turns into TFLM's golden bytes.
TEST(OptimizeCorpusInt8Io, ModelsGiveGoldenOutputsThroughTheirOwnQuantizers) {
  REQUIRE_SHARED();
  auto target = tflm::FindTarget(tflm::kDefaultTarget);
  ASSERT_TRUE(target.ok());
  size_t checked = 0;
  for (const auto& m : GoldenIoModels()) {
    if (m.model.find('/') != std::string::npos || !m.ops.count("QUANTIZE")) continue;
    SCOPED_TRACE(m.model);
    const auto bytes = ReadFileBytes(ModelPath(m));
    auto g = model::ReadGraph(bytes.data(), bytes.size());
    ASSERT_TRUE(g.ok());
    graph::OptimizeOptions o;
    o.int8_io = true;
    auto r = graph::Optimize(bytes, o, graph::TflmEvaluator(**target), graph::TflmFinish(**target));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    const bool io_rewritten = std::any_of(r->rewrites.begin(), r->rewrites.end(), [](const std::string& l) {
      return l.rfind("input ", 0) == 0 || l.rfind("output ", 0) == 0;
    });
    if (!r->changed || !io_rewritten) continue;
    const auto& sg = *(*g)->subgraphs[0];
    Tensors inputs = GoldenInputs(m);
    std::string error;
    for (size_t k = 0; k < sg.inputs.size(); ++k) {
      for (size_t i = 0; i < sg.operators.size(); ++i) {
        if (graph::OpCode(**g, *sg.operators[i]) == tflo::BuiltinOperator::QUANTIZE &&
            sg.operators[i]->inputs[0] == sg.inputs[k]) {
          const auto q = RunWith(SingleOp(**g, i), {inputs[k]}, &error);
          ASSERT_EQ(q.size(), 1u) << error;
          inputs[k] = q[0];
        }
      }
    }
    Tensors got = RunWith(r->bytes, inputs, &error);
    ASSERT_EQ(got.size(), sg.outputs.size()) << error;
    for (size_t k = 0; k < sg.outputs.size(); ++k) {
      for (size_t i = 0; i < sg.operators.size(); ++i) {
        const auto& op = *sg.operators[i];
        if (graph::OpCode(**g, op) == tflo::BuiltinOperator::DEQUANTIZE && op.outputs[0] == sg.outputs[k] &&
            got[k].size() != ReadFileBytes(IoPath(m, "out" + std::to_string(k))).size()) {
          const auto f = RunWith(SingleOp(**g, i), {got[k]}, &error);
          ASSERT_EQ(f.size(), 1u) << error;
          got[k] = f[0];
        }
      }
      EXPECT_EQ(got[k], ReadFileBytes(IoPath(m, "out" + std::to_string(k)))) << "output " << k;
    }
    ++checked;
  }
  std::printf("int8 I/O: %zu models checked against TFLM through their own QUANTIZE / DEQUANTIZE\n", checked);
  EXPECT_GE(checked, 3u);
}

}  // namespace
}  // namespace arenaplan::testing
