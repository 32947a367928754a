// Every plan real TFLM made (shared/golden/tflm-x86_64/plans/**.csv: the greedy planner's input
// rows in add order and the offsets it chose) must come out of PlanTflmGreedy offset for offset,
// and the head size must equal arena.csv's head_bytes.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "plan/tflm_greedy.h"
#include "plan/verify.h"
#include "support/shared_dir.h"

namespace arenaplan::plan {
namespace {
namespace fs = std::filesystem;
using arenaplan::testing::CsvField;
using arenaplan::testing::ReadCsv;

int64_t ToInt(const std::string& s) { return std::stoll(s); }

TEST(TflmGreedyCorpus, MatchesEveryGoldenPlan) {
  REQUIRE_SHARED();
  const fs::path golden = fs::path(*arenaplan::testing::SharedDir()) / "golden" / "tflm-x86_64";
  std::map<std::string, std::string> head_bytes;  // model path without .tflite -> head_bytes
  for (const auto& row : ReadCsv((golden / "arena.csv").string())) {
    std::string model = CsvField(row, "model");
    model = model.substr(0, model.size() - std::string(".tflite").size());
    head_bytes[model] = CsvField(row, "head_bytes");
  }
  size_t files = 0, buffers = 0, with_fixed = 0;
  for (const auto& entry : fs::recursive_directory_iterator(golden / "plans")) {
    if (!entry.is_regular_file() || entry.path().extension() != ".csv") continue;
    std::string model = fs::relative(entry.path(), golden / "plans").string();
    model = model.substr(0, model.size() - 4);
    SCOPED_TRACE(model);
    const auto rows = ReadCsv(entry.path().string());
    Problem problem;
    std::vector<Offset> expected;
    for (const auto& row : rows) {
      Buffer b;
      b.size = ToInt(CsvField(row, "size"));
      b.first = ToInt(CsvField(row, "first"));
      b.last = ToInt(CsvField(row, "last"));
      b.fixed_offset = ToInt(CsvField(row, "offline_offset"));  // -1 == kUnfixed
      problem.buffers.push_back(b);
      expected.push_back(ToInt(CsvField(row, "offset")));
    }
    Result<PlanResult> r = PlanTflmGreedy(problem, {});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_EQ(r->plan.offsets.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(r->plan.offsets[i], expected[i]) << "buffer " << i << " (" << CsvField(rows[i], "id") << ")";
    }
    ASSERT_TRUE(head_bytes.count(model)) << "no arena.csv row";
    EXPECT_EQ(r->plan.height, ToInt(head_bytes[model]));
    EXPECT_TRUE(VerifyPlan(problem, r->plan).ok());
    ++files;
    buffers += expected.size();
    for (const Buffer& b : problem.buffers) with_fixed += b.fixed();
  }
  // The README promises plans for 159 models; the corpus may grow but never shrink to nothing.
  EXPECT_GE(files, 159u);
  std::printf("golden plans: %zu files, %zu buffers (%zu fixed) all matched\n", files, buffers, with_fixed);
}

}  // namespace
}  // namespace arenaplan::plan
