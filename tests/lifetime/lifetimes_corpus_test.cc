// For every model TFLM allocated (golden/tflm-x86_64/arena.csv alloc_ok=1), every tensor row
// (s<X>t<Y>) of golden/tflm-x86_64/plans/<model>.csv is reproduced: same buffers in the same order,
// same 16-aligned size, same first/last, same offline offset. Scratch rows come from kernels and
// are skipped here.
#include <gtest/gtest.h>

#include <string>

#include "lifetime/lifetimes.h"
#include "model/model.h"
#include "support/shared_dir.h"

namespace arenaplan::lifetime {
namespace {

using testing::CsvField;

TEST(LifetimesCorpus, TensorRowsOfEveryGoldenPlanAreReproduced) {
  REQUIRE_SHARED();
  const std::string shared = *testing::SharedDir();
  const auto arena = testing::ReadCsv(shared + "/golden/tflm-x86_64/arena.csv");
  ASSERT_GT(arena.size(), 100u);
  size_t models = 0, rows_checked = 0;
  for (const auto& row : arena) {
    if (CsvField(row, "alloc_ok") != "1") continue;
    const std::string file = CsvField(row, "model");
    SCOPED_TRACE(file);
    const auto bytes = testing::ReadFileBytes(shared + "/models/" + file);
    ASSERT_FALSE(bytes.empty());
    auto model = model::ReadModel(bytes.data(), bytes.size());
    ASSERT_TRUE(model.ok()) << model.status().ToString();
    auto lifetimes = ComputeLifetimes(*model);
    ASSERT_TRUE(lifetimes.ok()) << lifetimes.status().ToString();
    const std::string stem = file.substr(0, file.size() - std::string(".tflite").size());
    const auto plan = testing::ReadCsv(shared + "/golden/tflm-x86_64/plans/" + stem + ".csv");
    ASSERT_FALSE(plan.empty());
    size_t k = 0;
    for (const auto& golden : plan) {
      const std::string id = CsvField(golden, "id");
      if (id.rfind("scratch", 0) == 0) continue;
      ASSERT_LT(k, lifetimes->buffers.size()) << "missing buffer " << id;
      const BufferLifetime& b = lifetimes->buffers[k++];
      EXPECT_EQ(b.id, id);
      EXPECT_EQ(std::to_string(b.size), CsvField(golden, "size")) << id;
      EXPECT_EQ(std::to_string(b.first), CsvField(golden, "first")) << id;
      EXPECT_EQ(std::to_string(b.last), CsvField(golden, "last")) << id;
      EXPECT_EQ(std::to_string(b.offline_offset), CsvField(golden, "offline_offset")) << id;
      ++rows_checked;
    }
    EXPECT_EQ(k, lifetimes->buffers.size()) << "extra buffers after the golden rows";
    ++models;
  }
  EXPECT_EQ(models, 159u);
  EXPECT_GT(rows_checked, 1500u);
  std::printf("checked %zu tensor rows of %zu models\n", rows_checked, models);
}

}  // namespace
}  // namespace arenaplan::lifetime
