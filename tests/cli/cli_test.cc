// End-to-end tests of the command line: exit codes, the JSON contracts, the CSV round trip and
// bad input, on models the project writes itself (no ../shared needed).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "cli/cli_testutil.h"
#include "model/writer.h"
#include "plan/csv.h"
#include "plan/packing_problem.h"
#include "plan/verify.h"

namespace arenaplan::testing {
namespace {

using CliTest = DemoModelTest;

// A problem as `solve` reads it, every buffer to be placed (plan::WriteCsv with no offsets).
std::string ProblemCsv(const plan::Problem& p) {
  std::vector<std::string> ids;
  for (size_t k = 0; k < p.buffers.size(); ++k) ids.push_back("b" + std::to_string(k));
  return plan::WriteCsv(ids, p, plan::Plan{});
}

TEST_F(CliTest, PlanJsonFollowsTheContract) {
  for (const char* planner : {"linear", "tflm-greedy", "best-fit", "best"}) {
    SCOPED_TRACE(planner);
    const CliRun r = RunCli({"plan", demo_, "--planner", planner, "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["model"], demo_);
    EXPECT_EQ(j["planner"], planner);
    EXPECT_EQ(j["alignment"], 16);
    ASSERT_TRUE(j["buffers"].is_array());
    ASSERT_FALSE(j["buffers"].empty());
    // Rebuild the problem from the JSON alone and check the plan independently.
    plan::Problem p;
    plan::Plan pl;
    int64_t max_end = 0;
    for (const auto& b : j["buffers"]) {
      EXPECT_EQ(b["size"].get<int64_t>() % 16, 0);
      EXPECT_TRUE(b["id"].get<std::string>().rfind("s0t", 0) == 0);
      EXPECT_EQ(b["subgraph"], 0);
      EXPECT_TRUE(b["tensor"].is_number_integer());
      EXPECT_FALSE(b["fixed"].get<bool>());
      p.buffers.push_back({b["size"].get<int64_t>(), b["first"].get<int64_t>(), b["last"].get<int64_t>()});
      pl.offsets.push_back(b["offset"].get<int64_t>());
      max_end = std::max(max_end, b["offset"].get<int64_t>() + b["size"].get<int64_t>());
    }
    pl.height = max_end;
    EXPECT_EQ(j["arena_bytes"].get<int64_t>(), max_end);
    EXPECT_TRUE(plan::VerifyPlan(p, pl).ok());
    EXPECT_LE(j["lower_bound_bytes"].get<int64_t>(), j["arena_bytes"].get<int64_t>());
  }
}

TEST_F(CliTest, BestIsNoWorseThanTflmGreedyOnTheDemo) {
  const auto greedy = nlohmann::json::parse(
      RunCli({"plan", demo_, "--planner", "tflm-greedy", "--format", "json"}).out);
  const auto best = nlohmann::json::parse(RunCli({"plan", demo_, "--planner", "best", "--format", "json"}).out);
  EXPECT_LE(best["arena_bytes"].get<int64_t>(), greedy["arena_bytes"].get<int64_t>());
  // The demo is built so that TFLM's greedy is above the bound; best closes the gap.
  EXPECT_GT(greedy["arena_bytes"].get<int64_t>(), greedy["lower_bound_bytes"].get<int64_t>());
  EXPECT_EQ(best["arena_bytes"].get<int64_t>(), best["lower_bound_bytes"].get<int64_t>());
}

TEST_F(CliTest, PlanTextShowsPeakAndTimeline) {
  const CliRun r = RunCli({"plan", demo_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("lower bound"), std::string::npos);
  EXPECT_NE(r.out.find("alive at the peak"), std::string::npos);
  EXPECT_NE(r.out.find("legend"), std::string::npos);
  size_t start = 0;
  while (start < r.out.size()) {
    const size_t end = r.out.find('\n', start);
    const size_t len = (end == std::string::npos ? r.out.size() : end) - start;
    EXPECT_LE(len, 100u) << r.out.substr(start, len);
    start = end == std::string::npos ? r.out.size() : end + 1;
  }
}

TEST_F(CliTest, InspectJsonListsTensorsAndOperators) {
  const CliRun r = RunCli({"inspect", demo_, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["subgraphs"].size(), 1u);
  EXPECT_FALSE(j["subgraphs"][0]["tensors"].empty());
  EXPECT_FALSE(j["subgraphs"][0]["operators"].empty());
  EXPECT_TRUE(j["operator_set"].is_array());
  EXPECT_TRUE(j["offline_plan"].is_null());
  EXPECT_TRUE(j["static_planning_problems"].empty());
}

TEST_F(CliTest, BadModelsExitWithTwoAndOneLine) {
  WriteBytes(dir_ + "/png.tflite", {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'});
  auto demo = model::DemoModel();
  std::vector<uint8_t> truncated(demo.begin(), demo.begin() + demo.size() / 2);
  WriteBytes(dir_ + "/truncated.tflite", truncated);
  for (const std::string f : {"png.tflite", "truncated.tflite", "missing.tflite"}) {
    for (const char* cmd : {"inspect", "plan"}) {
      SCOPED_TRACE(f + " " + cmd);
      const CliRun r = RunCli({cmd, dir_ + "/" + f});
      EXPECT_EQ(r.exit_code, 2);
      EXPECT_TRUE(r.out.empty());
      EXPECT_FALSE(r.err.empty());
      EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;  // exactly one line
    }
  }
}

TEST_F(CliTest, UsageErrorsExitWithTwo) {
  EXPECT_EQ(RunCli({"plan", demo_, "--planner", "nope"}).exit_code, 2);
  EXPECT_EQ(RunCli({"plan"}).exit_code, 2);
  EXPECT_EQ(RunCli({"frobnicate"}).exit_code, 2);
  // Beyond plan::kMaxTimeLimitSeconds (a limit that would overflow a deadline).
  EXPECT_EQ(RunCli({"plan", demo_, "--time-limit", "1e30"}).exit_code, 2);
  EXPECT_EQ(RunCli({"plan", demo_, "--time-limit", "-1"}).exit_code, 2);
}

TEST_F(CliTest, SolveWritesOffsetsThatVerify) {
  const std::string csv = dir_ + "/p.csv";
  WriteText(csv, "id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\nb5,0,21,4\n");
  const CliRun r = RunCli({"solve", csv});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto parsed = plan::ParseCsv(r.out);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  plan::Plan pl;
  for (const auto& b : parsed->problem.buffers) pl.offsets.push_back(b.fixed_offset);
  pl.height = plan::PlanHeight(parsed->problem, pl.offsets);
  EXPECT_EQ(pl.height, 12);  // MiniMalloc's README example packs into 12
  for (auto& b : parsed->problem.buffers) b.fixed_offset = plan::kUnfixed;
  EXPECT_TRUE(plan::VerifyPlan(parsed->problem, pl).ok());
  EXPECT_NE(r.err.find("height 12"), std::string::npos) << r.err;
}

TEST_F(CliTest, SolveJsonAndCapacity) {
  const std::string csv = dir_ + "/p.csv";
  WriteText(csv, "id,lower,upper,size\na,0,2,8\nb,1,3,8\nc,2,4,8\n");
  const auto j = nlohmann::json::parse(RunCli({"solve", csv, "--format", "json"}).out);
  EXPECT_EQ(j["height"], 16);
  EXPECT_EQ(j["lower_bound_bytes"], 16);
  EXPECT_EQ(j["buffers"].size(), 3u);
  // 16 fits, 15 cannot hold two live 8-byte buffers: proven infeasible -> exit 1.
  EXPECT_EQ(RunCli({"solve", csv, "--capacity", "16", "--planner", "best"}).exit_code, 0);
  const CliRun r = RunCli({"solve", csv, "--capacity", "15", "--planner", "optimal"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  // A capacity below a single buffer is bad input.
  EXPECT_EQ(RunCli({"solve", csv, "--capacity", "4"}).exit_code, 2);
}

// --work-time: a time-limited optimal search gives the same plan, bound and nodes on every run;
// other planners reject it as a usage error.
TEST_F(CliTest, SolveUnderWorkTimeRepeatsAndIsOptimalOnly) {
  // A perfect packing with five pieces grown by a grid step: the bound is out of reach and the
  // minimising search is still running when its limit comes.
  plan::PackingOptions po;
  po.buffers = 800;
  po.pinwheel_share = 0.2;
  plan::Problem p = plan::MakePackingProblem(po).problem;
  for (size_t k = 0; k < 5; ++k) p.buffers[k * 151].size += plan::kPackingGrid;
  const std::string csv = dir_ + "/slack.csv";
  WriteText(csv, ProblemCsv(p));
  const std::vector<std::string> args = {"solve", csv, "--planner", "optimal", "--time-limit", "0.2", "--work-time"};
  const CliRun a = RunCli(args), b = RunCli(args);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  // The summary line's figures (height, bound, status, nodes) repeat; only the seconds differ.
  auto figures = [](const std::string& err) { return std::regex_replace(err, std::regex("[0-9.]+ s\\b"), "_ s"); };
  EXPECT_EQ(figures(a.err), figures(b.err));
  EXPECT_NE(a.err.find("status feasible"), std::string::npos) << a.err;
  EXPECT_NE(a.err.find(" nodes"), std::string::npos) << a.err;
  const CliRun best = RunCli({"solve", csv, "--planner", "best", "--work-time"});
  EXPECT_EQ(best.exit_code, 2);
  EXPECT_NE(best.err.find("--work-time applies to --planner optimal only"), std::string::npos) << best.err;
}

// --threads: one or two threads both fit a perfect packing at its capacity (two race it against its
// mirror image in time); more than the race's two sides is a usage error.
TEST_F(CliTest, SolveTakesOneOrTwoThreads) {
  plan::PackingOptions po;
  po.buffers = 200;
  po.pinwheel_share = 0.2;
  const plan::Problem p = plan::MakePackingProblem(po).problem;
  const std::string csv = dir_ + "/perfect.csv";
  WriteText(csv, ProblemCsv(p));
  const std::string capacity = std::to_string(p.capacity);
  for (const char* threads : {"1", "2"}) {
    const CliRun r = RunCli({"solve", csv, "--planner", "optimal", "--capacity", capacity, "--threads", threads});
    EXPECT_EQ(r.exit_code, 0) << threads << " threads: " << r.err;
  }
  const CliRun three = RunCli({"solve", csv, "--threads", "3"});
  EXPECT_EQ(three.exit_code, 2) << three.err;
  EXPECT_NE(three.err.find("--threads"), std::string::npos) << three.err;
}

TEST_F(CliTest, SolveRejectsMalformedCsvNamingTheRow) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"id,lower,size\na,0,4\n", "upper"},
      {"id,lower,upper,size\na,0,x,4\n", "2"},
      {"id,lower,upper,size\na,0,3,-4\n", "2"},
      {"id,lower,upper,size\na,3,3,4\n", "2"},
      {"id,lower,upper,size\na,0,3,4\na,1,2,4\n", "3"},
      {"id,lower,upper,size,alignment,offset\na,0,3,4,8,4\n", "2"},
  };
  for (const auto& [text, needle] : cases) {
    SCOPED_TRACE(text);
    const std::string csv = dir_ + "/bad.csv";
    WriteText(csv, text);
    const CliRun r = RunCli({"solve", csv});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace arenaplan::testing
