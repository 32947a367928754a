// `arenaplan export` end to end: both output forms of the issue (-o OUT.tflite, --c-header OUT.h),
// each alone and together, and the error when neither is given. Uses the project's demo model.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <vector>

#include "cli/cli_testutil.h"
#include "model/model.h"

namespace arenaplan::testing {
namespace {

bool Exists(const std::string& path) { return std::ifstream(path).good(); }

using ExportCliTest = DemoModelTest;

TEST_F(ExportCliTest, CHeaderAloneNeedsNoOutputModel) {
  const std::string header = dir_ + "/demo_arena.h";
  const CliRun r = RunCli({"export", demo_, "--c-header", header, "--planner", "best", "--target", "tflm-x86_64"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string h = ReadText(header);
  // Named after the input model when no -o is given.
  EXPECT_NE(h.find("#define DEMO_TENSOR_ARENA_SIZE "), std::string::npos) << h;
  EXPECT_NE(h.find("static const int32_t demo_tensor_offsets["), std::string::npos) << h;
  EXPECT_NE(h.find("// target:  tflm-x86_64"), std::string::npos) << h;
}

TEST_F(ExportCliTest, ModelAloneAndBothTogether) {
  const std::string out = dir_ + "/planned.tflite";
  CliRun r = RunCli({"export", demo_, "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream f(out, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), {});
  auto m = model::ReadModel(bytes.data(), bytes.size());
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_TRUE(m->offline_plan.has_value());

  const std::string out2 = dir_ + "/both.tflite", header = dir_ + "/both.h";
  r = RunCli({"export", demo_, "-o", out2, "--c-header", header});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Exists(out2));
  EXPECT_NE(ReadText(header).find("#define BOTH_TENSOR_ARENA_SIZE "), std::string::npos);
}

TEST_F(ExportCliTest, NoOutputIsABadInputError) {
  const CliRun r = RunCli({"export", demo_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("-o OUT.tflite and/or --c-header OUT.h"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace arenaplan::testing
