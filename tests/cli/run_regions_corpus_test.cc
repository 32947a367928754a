// `arenaplan run MODEL --region A --region B` on every corpus model with golden io: the runtime
// runs a two-region plan (the first region half the model's single-arena head, the second large),
// so most models are split across both memories, and every output byte equals TFLM's golden bytes.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli/cli_testutil.h"
#include "support/shared_dir.h"

namespace arenaplan::testing {
namespace {
namespace fs = std::filesystem;

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

TEST(RunRegionsCorpus, TwoRegionPlansGiveTheGoldenOutputs) {
  REQUIRE_SHARED();
  const std::string io = *SharedDir() + "/golden/tflm-x86_64/io";
  int checked = 0, split = 0, offline = 0;
  for (const auto& e : fs::directory_iterator(io)) {
    const std::string file = e.path().filename().string();
    if (!EndsWith(file, ".out0.bin") || file.find(".seq") != std::string::npos) continue;
    const std::string name = file.substr(0, file.size() - std::string(".out0.bin").size());
    const std::string model = *SharedDir() + "/models/" + name + ".tflite";
    SCOPED_TRACE(name);
    const CliRun one = RunCli({"run", model, "--format", "json"});
    ASSERT_EQ(one.exit_code, 0) << one.err;
    const auto single = nlohmann::json::parse(one.out);
    const uint64_t head = single["head_bytes"].get<uint64_t>();
    const uint64_t first = std::max<uint64_t>(16, head / 2 / 16 * 16);
    const std::string out = TempDir() + "/o";
    const CliRun r = RunCli({"run", model, "--region", "fast:" + std::to_string(first) + ":1", "--region", "big:256M:4",
                             "--format", "json", "--outputs-to", out});
    if (single["plan_source"] == "offline") {  // the model's own plan is for one arena
      EXPECT_EQ(r.exit_code, 2);
      EXPECT_NE(r.err.find("has an offline plan, which is for one arena"), std::string::npos) << r.err;
      ++offline;
      continue;
    }
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["plan_source"], "compiled regions");
    const auto& regions = j["regions"];
    ASSERT_EQ(regions.size(), 2u);
    EXPECT_LE(regions[0]["used_bytes"].get<uint64_t>(), first);
    EXPECT_EQ(j["head_bytes"].get<uint64_t>(), regions[0]["used_bytes"].get<uint64_t>());
    if (head > first && regions[1]["buffers"].get<int>() > 0 && regions[0]["buffers"].get<int>() > 0) ++split;
    if (head > first) EXPECT_GT(regions[1]["buffers"].get<int>(), 0) << "the head does not fit the first region";
    int k = 0;
    for (; fs::exists(io + "/" + name + ".out" + std::to_string(k) + ".bin"); ++k) {
      const std::string suffix = ".out" + std::to_string(k) + ".bin";
      EXPECT_EQ(ReadFileBytes(out + suffix), ReadFileBytes(io + "/" + name + suffix)) << "output " << k;
    }
    EXPECT_GT(k, 0);
    ++checked;
  }
  EXPECT_GE(checked, 20);
  EXPECT_GE(split, checked / 2);  // most models really use both memories
  std::printf("%d models run with two regions (%d split across both), %d with an offline plan refused\n", checked,
              split, offline);
}

}  // namespace
}  // namespace arenaplan::testing
