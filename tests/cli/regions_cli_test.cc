// `plan --region`: the JSON contract checked by rebuilding the problem from the JSON and verifying
// it independently, the text report, bad region specs (exit 2) and "does not fit" (exit 1).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_testutil.h"
#include "plan/verify.h"

namespace arenaplan::testing {
namespace {

using RegionsCliTest = DemoModelTest;

// The demo's arena needs 14336 bytes (README); 8 KiB of fast memory cannot hold it all.
TEST_F(RegionsCliTest, JsonPlacementVerifiesFromTheJsonAlone) {
  const CliRun r = RunCli({"plan", demo_, "--region", "fast:8K:1", "--region", "slow:64K:10", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  plan::RegionProblem rp;
  rp.regions = {{"fast", 8192, 1}, {"slow", 65536, 10}};
  plan::RegionPlan pl;
  for (const auto& b : j["buffers"]) {
    rp.problem.buffers.push_back({b["size"].get<int64_t>(), b["first"].get<int64_t>(), b["last"].get<int64_t>()});
    rp.traffic.push_back(b["traffic"].get<int64_t>());
    pl.region.push_back(b["region"] == "fast" ? 0 : 1);
    EXPECT_TRUE(b["region"] == "fast" || b["region"] == "slow");
    pl.offsets.push_back(b["offset"].get<int64_t>());
  }
  ASSERT_EQ(j["regions"].size(), 2u);
  for (const auto& g : j["regions"]) pl.used.push_back(g["used_bytes"].get<int64_t>());
  pl.cost = j["cost"].get<int64_t>();
  const auto report = plan::VerifyRegionPlan(rp, pl);
  EXPECT_TRUE(report.ok()) << (report.ok() ? "" : report.errors[0].message);
  EXPECT_GT(pl.used[0], 0);
  EXPECT_GT(pl.used[1], 0);  // split across the two
  EXPECT_LE(j["cost_lower_bound"].get<int64_t>(), pl.cost);
  EXPECT_LE(pl.cost, j["baselines"]["naive"]["cost"].get<int64_t>());
  EXPECT_LE(pl.cost, j["baselines"]["fastest_first"]["cost"].get<int64_t>());
  EXPECT_TRUE(j["shortfall"].is_null());
  EXPECT_EQ(j["lower_bound_bytes"], 14336);
}

TEST_F(RegionsCliTest, TextShowsRegionsAndBaselines) {
  const CliRun r = RunCli({"plan", demo_, "--region", "fast:8K", "--region", "slow:1M:20"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* s : {"placement", "cost ", "fast", "slow", "everything in the largest (naive)",
                        "fastest first (ExecuTorch banked)", "traffic"}) {
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
  }
}

TEST_F(RegionsCliTest, BadRegionSpecsAreExitTwoWithOneLine) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"a:8K", "a:16K"}, "duplicate region name 'a'"},
      {{"a:8X"}, "bad size suffix 'X'"},
      {{"a:0"}, "size must be positive"},
      {{"a:-8K"}, "bad size '-8K'"},
      {{"a:8K:0"}, "cost must be"},
      {{"a:8K:-1"}, "cost must be"},
      {{"a:8K:1.5"}, "cost must be"},
      {{"a"}, "expected NAME:BYTES[:COST]"},
      {{":8K"}, "name must be"},
  };
  for (const auto& [specs, needle] : cases) {
    SCOPED_TRACE(needle);
    std::vector<std::string> args = {"plan", demo_};
    for (const auto& s : specs) {
      args.push_back("--region");
      args.push_back(s);
    }
    const CliRun r = RunCli(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST_F(RegionsCliTest, DoesNotFitIsExitOneWithTheShortfall) {
  // The demo's largest buffer (a_conv3x3) is 8192 bytes: 6 KiB regions are 2048 bytes short of it,
  // though together they hold the 14336 bytes alive at the peak.
  CliRun r = RunCli({"plan", demo_, "--region", "a:6K", "--region", "b:6K:2", "--region", "c:6K:3"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("does not fit the regions: needs 2048"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no region holds buffer"), std::string::npos) << r.err;
  // 14336 bytes alive at the peak, 12288 bytes of regions: at least 2048 short.
  r = RunCli({"plan", demo_, "--region", "a:8K", "--region", "b:4K:2"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("needs 2048"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace arenaplan::testing
