// Every corpus model with golden TFLM io files, optimized for stock TFLM and for arenaplan's
// runtime (default options): where optimize changed the model, the rewritten model runs in the
// runtime on the golden inputs and gives TFLM's golden outputs byte for byte (or, where the
// original model's runtime outputs already differ from TFLM's in the last bit of a libm call, the
// original model's runtime outputs), its smallest arena is below the input's, and unchanged
// models are written back byte for byte. Each rewritten model is run once.
#include <gtest/gtest.h>

#include <cstring>

#include "golden_testutil.h"
#include "graph/runtime_evaluator.h"
#include "graph/tflm_evaluator.h"
#include "support/shared_dir.h"

namespace arenaplan::testing {
namespace {

constexpr size_t kArena = 64u << 20;

std::vector<std::vector<uint8_t>> Outputs(const std::vector<uint8_t>& bytes, const GoldenModel& m, std::string* error) {
  auto run = MakeRun(bytes, kArena);
  std::vector<std::vector<uint8_t>> out;
  if (run->interp->AllocateTensors() != rt::Status::kOk) return *error = run->interp->error_message(), out;
  for (uint32_t k = 0; k < run->interp->inputs_size(); ++k) {
    const rt::TensorView in = run->interp->input(k);
    const auto data = ReadFileBytes(IoPath(m, "in" + std::to_string(k)));
    if (data.size() != in.bytes) return *error = "input size differs", out;
    std::memcpy(in.data, data.data(), data.size());
  }
  if (run->interp->Invoke() != rt::Status::kOk) return *error = run->interp->error_message(), out;
  for (uint32_t k = 0; k < run->interp->outputs_size(); ++k) {
    const auto* p = static_cast<const uint8_t*>(run->interp->output(k).data);
    out.emplace_back(p, p + run->interp->output(k).bytes);
  }
  return out;
}

void CheckChanged(const GoldenModel& m, const std::vector<uint8_t>& original, const graph::OptimizeResult& r) {
  EXPECT_LT(r.after.min_arena, r.before.min_arena);
  std::string error;
  const auto got = Outputs(r.bytes, m, &error);
  ASSERT_FALSE(got.empty()) << error;
  std::vector<std::vector<uint8_t>> golden;
  for (uint32_t k = 0; k < m.num_outputs; ++k) golden.push_back(ReadFileBytes(IoPath(m, "out" + std::to_string(k))));
  if (got == golden) return;
  const auto before = Outputs(original, m, &error);
  ASSERT_NE(before, golden) << "the optimized model's outputs differ from TFLM's";
  EXPECT_EQ(got, before) << "the optimized model's outputs differ from the original's";
}

TEST(OptimizeCorpus, RewrittenModelsGiveGoldenOutputs) {
  REQUIRE_SHARED();
  auto target = tflm::FindTarget(tflm::kDefaultTarget);
  ASSERT_TRUE(target.ok());
  size_t changed[2] = {0, 0};
  for (const auto& m : GoldenIoModels()) {
    const auto bytes = ReadFileBytes(ModelPath(m));
    for (int mode = 0; mode < 2; ++mode) {
      SCOPED_TRACE(m.model + (mode == 0 ? " --for tflm" : " --for arenaplan"));
      graph::OptimizeOptions o;
      auto r = mode == 0 ? graph::Optimize(bytes, o, graph::TflmEvaluator(**target), graph::TflmFinish(**target))
                         : graph::OptimizeForRuntime(bytes, o);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      if (!r->changed) {
        EXPECT_EQ(r->bytes, bytes);
        continue;
      }
      ++changed[mode];
      CheckChanged(m, bytes, *r);
    }
  }
  std::printf("optimize corpus: %zu models rewritten for tflm, %zu for arenaplan, outputs checked\n", changed[0], changed[1]);
  EXPECT_GT(changed[0], 5u);
  EXPECT_GT(changed[1], 5u);
}

}  // namespace
}  // namespace arenaplan::testing
