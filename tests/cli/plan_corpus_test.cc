// The `plan` command over every corpus model: TFLM's greedy with the target's kernel scratch
// reproduces every golden row (ids, sizes, lifetimes, offsets) through the CLI's JSON, and `best`
// is never worse than TFLM's greedy; the op suite's plans the same way. Models TFLM could not
// allocate are planned too (tensors only).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include <nlohmann/json.hpp>

#include "cli/cli_testutil.h"
#include "support/shared_dir.h"

namespace arenaplan::testing {
namespace {

std::string Stem(const std::string& rel) { return rel.substr(0, rel.size() - std::string(".tflite").size()); }

// Every model of `root` (a corpus folder under shared/) TFLM allocated; returns how many.
int CheckGoldenPlans(const std::string& root) {
  int checked = 0;
  for (const auto& row : ReadCsv(root + "/golden/tflm-x86_64/arena.csv")) {
    if (CsvField(row, "alloc_ok") != "1") continue;
    const std::string rel = CsvField(row, "model");
    SCOPED_TRACE(rel);
    const CliRun r = RunCli(
        {"plan", root + "/models/" + rel, "--target", "tflm-x86_64", "--planner", "tflm-greedy", "--format", "json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    if (r.exit_code != 0) continue;
    const auto j = nlohmann::json::parse(r.out);
    const auto golden = ReadCsv(root + "/golden/tflm-x86_64/plans/" + Stem(rel) + ".csv");
    EXPECT_EQ(j["buffers"].size(), golden.size());
    for (size_t i = 0; i < golden.size() && i < j["buffers"].size(); ++i) {
      const auto& b = j["buffers"][i];
      EXPECT_EQ(b["id"].get<std::string>(), CsvField(golden[i], "id"));
      EXPECT_EQ(b["size"].get<int64_t>(), std::stoll(CsvField(golden[i], "size")));
      EXPECT_EQ(b["first"].get<int64_t>(), std::stoll(CsvField(golden[i], "first")));
      EXPECT_EQ(b["last"].get<int64_t>(), std::stoll(CsvField(golden[i], "last")));
      EXPECT_EQ(b["offset"].get<int64_t>(), std::stoll(CsvField(golden[i], "offset")));
      EXPECT_EQ(b["fixed"].get<bool>(), CsvField(golden[i], "offline_offset") != "-1");
    }
    EXPECT_EQ(j["arena_bytes"].get<int64_t>(), std::stoll(CsvField(row, "head_bytes")));
    ++checked;
  }
  return checked;
}

TEST(PlanCorpus, TflmGreedyWithTargetScratchReproducesGoldenPlans) {
  REQUIRE_SHARED();
  EXPECT_GT(CheckGoldenPlans(*SharedDir()), 100);
}

// The op suite (one model per operator TFLM has, op-suite/README.md) the same way.
TEST(PlanCorpus, OpSuiteReproducesGoldenPlans) {
  REQUIRE_SHARED();
  EXPECT_GT(CheckGoldenPlans(*SharedDir() + "/op-suite"), 70);
}

TEST(PlanCorpus, BestIsNeverWorseThanTflmGreedy) {
  REQUIRE_SHARED();
  const std::string shared = *SharedDir();
  for (const auto& rel : CorpusModels()) {
    SCOPED_TRACE(rel);
    const std::string path = shared + "/models/" + rel;
    const CliRun greedy = RunCli({"plan", path, "--planner", "tflm-greedy", "--format", "json"});
    const CliRun best = RunCli({"plan", path, "--planner", "best", "--format", "json"});
    ASSERT_EQ(greedy.exit_code, best.exit_code) << greedy.err << best.err;
    if (greedy.exit_code != 0) {
      // Only models a static planner cannot handle may fail, with one clear line.
      EXPECT_EQ(greedy.exit_code, 1) << greedy.err;
      continue;
    }
    const auto g = nlohmann::json::parse(greedy.out), b = nlohmann::json::parse(best.out);
    EXPECT_LE(b["arena_bytes"].get<int64_t>(), g["arena_bytes"].get<int64_t>());
    EXPECT_GE(b["arena_bytes"].get<int64_t>(), b["lower_bound_bytes"].get<int64_t>());
  }
}

}  // namespace
}  // namespace arenaplan::testing
