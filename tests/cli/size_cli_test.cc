// `arenaplan size A B ...` end to end: the JSON keeps the single-model keys for the whole arena and
// adds each model's share; the first model's share is what `size A` alone says less the allocator
// objects; a second model that is missing or not a model is a one-line error naming it, exit 2.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "cli/cli_testutil.h"

namespace arenaplan::testing {
namespace {

class SizeCliTest : public DemoModelTest {
 protected:
  void SetUp() override {
    DemoModelTest::SetUp();
    add_ = dir_ + "/add.tflite";
    WriteBytes(add_, AddModelWithOutputNamed("sum"));
  }
  std::string add_;
};

TEST_F(SizeCliTest, SharedJsonKeepsTheSingleModelKeysAndAddsModels) {
  const CliRun one = RunCli({"size", demo_, "--target", "tflm-x86_64", "--format", "json"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const auto single = nlohmann::json::parse(one.out);
  EXPECT_FALSE(single.contains("models"));  // one model: the document is unchanged
  EXPECT_TRUE(single["model"].is_string());

  const CliRun r = RunCli({"size", demo_, add_, "--target", "tflm-x86_64", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* k : {"target", "planner", "supported", "allocates", "error", "head_bytes", "tail_bytes",
                        "arena_used_bytes", "min_arena_bytes", "safe_arena_bytes", "allocator_object_bytes",
                        "planned_buffers", "scratch_requests", "tail_breakdown", "models", "order", "notes"}) {
    EXPECT_TRUE(j.contains(k)) << k;
  }
  ASSERT_EQ(j["models"].size(), 2u);
  const auto& first = j["models"][0];
  const auto& second = j["models"][1];
  EXPECT_EQ(first["model"], demo_);
  EXPECT_EQ(second["model"], add_);
  for (const char* k : {"head_bytes", "tail_bytes", "arena_used_bytes", "tail_breakdown", "ops", "supported"}) {
    EXPECT_TRUE(second.contains(k)) << k;
  }
  // Allocated first, the demo model sees the arena exactly as when alone.
  const uint64_t objects = j["allocator_object_bytes"];
  EXPECT_EQ(objects, 216u);  // SingleArenaBufferAllocator, GreedyMemoryPlanner, MicroAllocator: 3 x 72
  EXPECT_EQ(first["head_bytes"], single["head_bytes"]);
  EXPECT_EQ(first["tail_bytes"].get<uint64_t>() + objects, single["tail_bytes"].get<uint64_t>());
  EXPECT_EQ(first["arena_used_bytes"], single["arena_used_bytes"]);
  // The whole arena: the larger head, every tail once, as the last interpreter reports it.
  EXPECT_EQ(j["head_bytes"].get<uint64_t>(),
            std::max(first["head_bytes"].get<uint64_t>(), second["head_bytes"].get<uint64_t>()));
  EXPECT_EQ(j["tail_bytes"].get<uint64_t>(),
            objects + first["tail_bytes"].get<uint64_t>() + second["tail_bytes"].get<uint64_t>());
  EXPECT_EQ(j["arena_used_bytes"], second["arena_used_bytes"]);
  EXPECT_GE(j["min_arena_bytes"].get<uint64_t>(), j["arena_used_bytes"].get<uint64_t>());
  EXPECT_TRUE(j["order"]["searched"].get<bool>());
  EXPECT_EQ(j["order"]["cheapest"].size(), 2u);
  EXPECT_EQ(j["order"]["orders_tried"], 2);
}

TEST_F(SizeCliTest, SharedTextShowsEachModelAndTheFirmwareLine) {
  const CliRun r = RunCli({"size", demo_, add_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* s : {"sharing one MicroAllocator", "allocator objects (once)", "tail added", "shared head",
                        "smallest working arena", "cheapest order", "constexpr size_t kTensorArenaSize = "}) {
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
  }
  EXPECT_NE(r.out.find(add_), std::string::npos);
}

TEST_F(SizeCliTest, BadSecondModelIsOneLineNamingItExitTwo) {
  const std::string png = dir_ + "/png.tflite", missing = dir_ + "/missing.tflite";
  WriteBytes(png, {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'});
  for (const std::string& bad : {png, missing}) {
    SCOPED_TRACE(bad);
    const CliRun r = RunCli({"size", demo_, bad});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find(bad), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;  // exactly one line
  }
}

}  // namespace
}  // namespace arenaplan::testing
