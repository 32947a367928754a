// Export round trip on the corpus, and TFLM's plans (golden/tflm-x86_64/plans) reproduced row by
// row, scratch buffers included, from ScratchRequests + tflm-greedy.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "lifetime/lifetimes.h"
#include "model/model.h"
#include "model/offline_plan.h"
#include "model/writer.h"
#include "plan/planner.h"
#include "support/shared_dir.h"
#include "tflm/arena_size.h"
#include "tflm/export.h"
#include "tflm/sha256.h"

namespace arenaplan::tflm {
namespace {

using testing::CsvField;

std::vector<std::string> AllocatingModels() {
  std::vector<std::string> out;
  for (const auto& row : testing::ReadCsv(*testing::SharedDir() + "/golden/tflm-x86_64/arena.csv")) {
    if (CsvField(row, "alloc_ok") == "1") out.push_back(CsvField(row, "model"));
  }
  return out;
}

TEST(GoldenPlans, GreedyWithKernelScratchReproducesEveryRow) {
  REQUIRE_SHARED();
  const std::string dir = *testing::SharedDir();
  const Target* x86 = *FindTarget("tflm-x86_64");
  int rows_checked = 0;
  for (const std::string& name : AllocatingModels()) {
    SCOPED_TRACE(name);
    const auto bytes = testing::ReadFileBytes(dir + "/models/" + name);
    auto m = model::ReadModel(bytes.data(), bytes.size());
    ASSERT_TRUE(m.ok());
    auto scratch = ScratchRequests(*m, *x86);
    ASSERT_TRUE(scratch.ok()) << scratch.status().ToString();
    lifetime::Options opt;
    opt.scratch = *scratch;
    auto lt = lifetime::ComputeLifetimes(*m, opt);
    ASSERT_TRUE(lt.ok()) << lt.status().ToString();
    auto planned = plan::FindPlanner("tflm-greedy")->run(lifetime::ToProblem(*lt), {});
    ASSERT_TRUE(planned.ok());
    const auto golden = testing::ReadCsv(dir + "/golden/tflm-x86_64/plans/" + name.substr(0, name.size() - 7) + ".csv");
    ASSERT_EQ(golden.size(), lt->buffers.size());
    for (size_t b = 0; b < golden.size(); ++b) {
      const auto& row = golden[b];
      EXPECT_EQ(lt->buffers[b].id, CsvField(row, "id"));
      EXPECT_EQ(lt->buffers[b].size, std::stoull(CsvField(row, "size"))) << CsvField(row, "id");
      EXPECT_EQ(lt->buffers[b].first, std::stoll(CsvField(row, "first"))) << CsvField(row, "id");
      EXPECT_EQ(lt->buffers[b].last, std::stoll(CsvField(row, "last"))) << CsvField(row, "id");
      EXPECT_EQ(planned->plan.offsets[b], std::stoll(CsvField(row, "offset"))) << CsvField(row, "id");
      ++rows_checked;
    }
  }
  EXPECT_GE(rows_checked, 1648);  // 1554 tensors + 94 scratch (docs/tflm-arena.md §4)
}

TEST(ExportRoundTrip, BestPlanIsUsedByTflmAndNeverWorse) {
  REQUIRE_SHARED();
  const std::string dir = *testing::SharedDir();
  std::map<std::string, std::string> sha;
  for (const auto& row : testing::ReadCsv(dir + "/golden/models.csv"))
    sha[CsvField(row, "file")] = CsvField(row, "sha256");
  const Target* target = *FindTarget("tflm-x86_64");
  int exported = 0, smaller = 0;
  for (const std::string& name : AllocatingModels()) {
    if (name.rfind("tflm_ops/", 0) == 0) continue;  // single ops: nothing to reuse
    SCOPED_TRACE(name);
    const auto bytes = testing::ReadFileBytes(dir + "/models/" + name);
    auto r = ExportOfflinePlan(bytes.data(), bytes.size(), *target, "best");
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->input_sha256, sha[name]);
    EXPECT_LE(r->size.head_bytes, r->original_head_bytes);
    EXPECT_EQ(r->size.head_bytes, r->planned_head_bytes);
    smaller += r->size.head_bytes < r->original_head_bytes;

    // Re-read: same lifetimes, the fixed offsets are the plan, tflm-greedy keeps them.
    auto orig = model::ReadModel(bytes.data(), bytes.size());
    auto copy = model::ReadModel(r->model_bytes.data(), r->model_bytes.size());
    ASSERT_TRUE(orig.ok() && copy.ok());
    ASSERT_TRUE(model::ValidateOfflinePlan(*copy).ok());
    ASSERT_TRUE(copy->offline_plan.has_value());
    EXPECT_EQ(copy->offline_plan->offsets, r->offsets);
    lifetime::Options a, b;
    a.scratch = *ScratchRequests(*orig, *target);
    a.use_offline_plan = false;
    b.scratch = a.scratch;
    auto la = lifetime::ComputeLifetimes(*orig, a);
    auto lb = lifetime::ComputeLifetimes(*copy, b);
    ASSERT_TRUE(la.ok() && lb.ok());
    ASSERT_EQ(la->buffers.size(), lb->buffers.size());
    auto greedy = plan::FindPlanner("tflm-greedy")->run(lifetime::ToProblem(*lb), {});
    ASSERT_TRUE(greedy.ok());
    for (size_t i = 0; i < la->buffers.size(); ++i) {
      EXPECT_EQ(la->buffers[i].first, lb->buffers[i].first);
      EXPECT_EQ(la->buffers[i].last, lb->buffers[i].last);
      EXPECT_EQ(la->buffers[i].size, lb->buffers[i].size);
      if (lb->buffers[i].tensor >= 0) { EXPECT_EQ(greedy->plan.offsets[i], lb->buffers[i].offline_offset); }
    }
    ++exported;
  }
  EXPECT_GE(exported, 30);
  EXPECT_GE(smaller, 3);  // blazeface, vww, mobilenet_v1 (greedy is already optimal on many)
}

TEST(ExportRoundTrip, InvalidExistingPlanIsRepairedWithWarning) {
  REQUIRE_SHARED();
  const auto bytes = testing::ReadFileBytes(*testing::SharedDir() + "/models/tflm_person_detect_int8.tflite");
  const Target* target = *FindTarget("tflm-cortex-m");
  // Wrong count, and a negative offset other than -1.
  for (const std::vector<int32_t>& bad : {std::vector<int32_t>{0, 16}, std::vector<int32_t>(89, -7)}) {
    auto broken = model::WriteModelCopyWithMetadata(bytes.data(), bytes.size(), "OfflineMemoryAllocation",
                                                    model::EncodeOfflinePlan(bad));
    ASSERT_TRUE(broken.ok());
    auto m = model::ReadModel(broken->data(), broken->size());
    ASSERT_TRUE(m.ok());
    EXPECT_FALSE(model::ValidateOfflinePlan(*m).ok());
    auto r = ExportOfflinePlan(broken->data(), broken->size(), *target, "best");
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_FALSE(r->warnings.empty());
    EXPECT_NE(r->warnings[0].find("invalid"), std::string::npos) << r->warnings[0];
    auto fixed = model::ReadModel(r->model_bytes.data(), r->model_bytes.size());
    ASSERT_TRUE(fixed.ok());
    EXPECT_TRUE(model::ValidateOfflinePlan(*fixed).ok());
    EXPECT_EQ(fixed->offline_plan->offsets.size(), 89u);
  }
}

TEST(ExportRoundTrip, CHeaderCarriesSizeOffsetsAndHash) {
  REQUIRE_SHARED();
  const auto bytes = testing::ReadFileBytes(*testing::SharedDir() + "/models/tflm_hello_world_int8.tflite");
  auto r = ExportOfflinePlan(bytes.data(), bytes.size(), **FindTarget("tflm-cortex-m"), "best");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const std::string h = RenderCHeader(*r, "hello.tflite", "hello-world");
  EXPECT_NE(h.find("#define HELLO_WORLD_TENSOR_ARENA_SIZE " + std::to_string(r->size.min_arena_bytes) + "u"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("static const int32_t hello_world_tensor_offsets[10]"), std::string::npos) << h;
  EXPECT_NE(h.find(r->input_sha256), std::string::npos);
  EXPECT_NE(h.find("tflm-cortex-m"), std::string::npos);
}

}  // namespace
}  // namespace arenaplan::tflm
