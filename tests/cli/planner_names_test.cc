// One name per planner in every command: plan, solve, size, export and run take the same list
// (plan/planner_registry.cc), refuse anything else naming the valid ones, accept the old spelling
// `greedy` as tflm-greedy, and run plans with any of them (host planners through a compiled plan
// the runtime checks again).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_testutil.h"

namespace arenaplan::testing {
namespace {

using PlannerNames = DemoModelTest;

TEST_F(PlannerNames, UnknownNamesAreRefusedEverywhereWithTheList) {
  WriteText(dir_ + "/p.csv", "id,lower,upper,size\n0,0,2,16\n");
  for (std::vector<std::string> args : {std::vector<std::string>{"plan", demo_},
                                        {"size", demo_},
                                        {"export", demo_, "-o", dir_ + "/x.tflite"},
                                        {"run", demo_},
                                        {"solve", dir_ + "/p.csv"}}) {
    SCOPED_TRACE(args[0]);
    args.insert(args.end(), {"--planner", "smallest-gap"});
    const CliRun r = RunCli(args);
    EXPECT_EQ(r.exit_code, 2);
    for (const char* name : {"linear", "tflm-greedy", "best-fit", "optimal", "best"}) {
      EXPECT_NE(r.err.find(name), std::string::npos) << r.err;
    }
  }
}

TEST_F(PlannerNames, GreedyIsAnAliasOfTflmGreedy) {
  const auto alias = nlohmann::json::parse(RunCli({"run", demo_, "--planner", "greedy", "--format", "json"}).out);
  const auto name = nlohmann::json::parse(RunCli({"run", demo_, "--planner", "tflm-greedy", "--format", "json"}).out);
  EXPECT_EQ(alias["planner"], "tflm-greedy");
  EXPECT_EQ(alias["plan_source"], "tflm-greedy");
  EXPECT_EQ(alias["head_bytes"], name["head_bytes"]);
  const auto plan = nlohmann::json::parse(RunCli({"plan", demo_, "--planner", "greedy", "--format", "json"}).out);
  EXPECT_EQ(plan["chosen_planner"], "tflm-greedy");
}

// The demo model is built so that TFLM's greedy is above the bound: best reaches it in plan, and
// run with --planner best uses that plan (compiled in), with the same outputs.
TEST_F(PlannerNames, RunPlansWithHostPlannersAndKeepsTheOutputs) {
  const auto greedy = nlohmann::json::parse(RunCli({"run", demo_, "--format", "json"}).out);
  const CliRun r = RunCli({"run", demo_, "--planner", "best", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto best = nlohmann::json::parse(r.out);
  const auto planned = nlohmann::json::parse(RunCli({"plan", demo_, "--planner", "best", "--format", "json"}).out);
  EXPECT_EQ(best["plan_source"], "compiled");
  EXPECT_EQ(best["planner"], "best");
  EXPECT_EQ(best["head_bytes"], planned["arena_bytes"]);  // the demo has no kernel scratch
  EXPECT_LT(best["head_bytes"].get<int64_t>(), greedy["head_bytes"].get<int64_t>());
  EXPECT_EQ(best["outputs"], greedy["outputs"]);
}

}  // namespace
}  // namespace arenaplan::testing
