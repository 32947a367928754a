// `arenaplan run --dump-tensors / --compare-with` on the demo model (drawn in model/demo_model.cc):
// one file per op output in execution order, each holding the values right after its op (checked
// against the op's own arithmetic on the dumped inputs), the same arena as a plain run, equal dumps
// under two planners, the first differing tensor named, and file names that stay in the folder.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_testutil.h"
#include "support/shared_dir.h"

namespace arenaplan::testing {
namespace {

using DumpTest = DemoModelTest;

std::vector<float> Floats(const std::vector<uint8_t>& bytes) {
  std::vector<float> v(bytes.size() / 4);
  std::memcpy(v.data(), bytes.data(), v.size() * 4);
  return v;
}

nlohmann::json Index(const std::string& dir) { return nlohmann::json::parse(ReadText(dir + "/index.json")); }

// The dumped bytes of the tensor called `name`.
std::vector<uint8_t> Dumped(const std::string& dir, const std::string& name) {
  const nlohmann::json index = Index(dir);
  for (const auto& e : index["tensors"]) {
    if (e["name"] == name) return ReadFileBytes(dir + "/" + e["file"].get<std::string>());
  }
  ADD_FAILURE() << name << " not in " << dir;
  return {};
}

TEST_F(DumpTest, OneFilePerOpOutputHoldingItsValuesRightAfterTheOp) {
  const std::string dump = dir_ + "/d", out = dir_ + "/o";
  const CliRun r = RunCli({"run", demo_, "--dump-tensors", dump, "--outputs-to", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("dumped:           14 tensors to " + dump), std::string::npos) << r.out;
  const nlohmann::json index = Index(dump);
  EXPECT_EQ(index["model"], demo_);
  const auto& t = index["tensors"];
  ASSERT_EQ(t.size(), 14u);  // 14 ops, one output each
  const char* names[] = {"a_conv3x3", "b_dw3x3_s2", "c_shortcut_s2", "d_add", "e_expand", "f_dw3x3",
                         "g_project", "h_add",      "i_shortcut",    "j_add", "k_pool"};
  for (size_t op = 0; op < 11; ++op) {
    EXPECT_EQ(t[op]["op"], op);
    EXPECT_EQ(t[op]["name"], names[op]);
    EXPECT_EQ(t[op]["file"], std::to_string(op) + "_" + names[op] + ".bin");
    EXPECT_EQ(t[op]["dtype"], "FLOAT32");
  }
  EXPECT_EQ(t[0]["op_name"], "CONV_2D");
  EXPECT_EQ(t[0]["shape"], nlohmann::json::parse("[1,16,16,8]"));
  EXPECT_EQ(t[0]["bytes"], 8192);
  EXPECT_EQ(ReadFileBytes(dump + "/0_a_conv3x3.bin").size(), 8192u);
  // ADD d = b + c and h = e + g, element by element, from the dumps of their inputs.
  for (const auto& [sum, x, y] :
       {std::tuple{"d_add", "b_dw3x3_s2", "c_shortcut_s2"}, std::tuple{"h_add", "e_expand", "g_project"}}) {
    const auto s = Floats(Dumped(dump, sum)), a = Floats(Dumped(dump, x)), b = Floats(Dumped(dump, y));
    ASSERT_EQ(s.size(), a.size());
    for (size_t i = 0; i < s.size(); ++i) ASSERT_EQ(s[i], a[i] + b[i]) << sum << "[" << i << "]";
  }
  // RESHAPE moves no byte; the last dumped tensor is the model's output.
  EXPECT_EQ(Dumped(dump, "l_flat"), Dumped(dump, "k_pool"));
  EXPECT_EQ(ReadFileBytes(dump + "/" + t[13]["file"].get<std::string>()), ReadFileBytes(out + ".out0.bin"));
}

TEST_F(DumpTest, TheArenaIsThatOfAPlainRun) {
  const auto plain = nlohmann::json::parse(RunCli({"run", demo_, "--format", "json"}).out);
  const CliRun r = RunCli({"run", demo_, "--format", "json", "--dump-tensors", dir_ + "/d"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto dumped = nlohmann::json::parse(r.out);
  for (const char* k : {"head_bytes", "tail_bytes", "arena_used_bytes", "min_arena_bytes", "arena_bytes", "outputs"}) {
    EXPECT_EQ(dumped[k], plain[k]) << k;
  }
  EXPECT_EQ(dumped["dump"]["tensors"], 14);
}

TEST_F(DumpTest, TwoPlannersCompareEqualAndOtherInputsDifferAtTheFirstOp) {
  const std::string greedy = dir_ + "/g", best = dir_ + "/b", zeros = dir_ + "/z";
  ASSERT_EQ(RunCli({"run", demo_, "--dump-tensors", greedy}).exit_code, 0);
  CliRun r = RunCli({"run", demo_, "--planner", "best-fit", "--dump-tensors", best, "--compare-with", greedy});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(
      r.out.find("compare:          identical to " + greedy + " (14 tensors compared, 0 only here, 0 only there)"),
      std::string::npos)
      << r.out;
  WriteBytes(dir_ + "/in.in0.bin", std::vector<uint8_t>(16 * 16 * 3 * 4, 0));
  r = RunCli({"run", demo_, "--inputs-from", dir_ + "/in", "--dump-tensors", zeros, "--compare-with", greedy,
              "--format", "json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto c = nlohmann::json::parse(r.out)["compare"];
  EXPECT_TRUE(c["differs"].get<bool>());
  const std::string diff = c["difference"].get<std::string>();
  EXPECT_EQ(diff.rfind("op 0 (CONV_2D), tensor 'a_conv3x3' (s0t", 0), 0u) << diff;
  EXPECT_NE(diff.find(", FLOAT32 [1,16,16,8]): "), std::string::npos) << diff;
  EXPECT_NE(diff.find(" of 2048 elements differ, first at element "), std::string::npos) << diff;
}

TEST_F(DumpTest, FileNamesStayInTheFolder) {
  const std::string m = dir_ + "/m.tflite", dump = dir_ + "/d";
  WriteBytes(m, AddModelWithOutputNamed("../../x y:0"));
  ASSERT_EQ(RunCli({"run", m, "--dump-tensors", dump}).exit_code, 0);
  EXPECT_EQ(Index(dump)["tensors"][0]["file"], "0__._.._x_y_0.bin");
  EXPECT_TRUE(std::filesystem::exists(dump + "/0__._.._x_y_0.bin"));
}

TEST_F(DumpTest, ComparingWithSomethingElseIsBadInput) {
  const CliRun r = RunCli({"run", demo_, "--dump-tensors", dir_ + "/d", "--compare-with", dir_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "arenaplan run: " + dir_ + ": not a tensor dump (cannot open '" + dir_ + "/index.json')\n");
  EXPECT_EQ(RunCli({"run", demo_, "--compare-with", dir_}).exit_code, 2);  // needs --dump-tensors
}

}  // namespace
}  // namespace arenaplan::testing
