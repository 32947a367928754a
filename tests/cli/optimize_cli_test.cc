// `arenaplan optimize` end to end: a model it cannot improve is written back byte for byte (exit
// 0, with the reason); a model it rewrites is accepted by plan, size and run, inspect shows what
// changed; bad input and bad options give one-line errors and exit 2. The rewritten case uses
// tflm_person_detect_int8 from ../shared.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "cli/cli_testutil.h"
#include "support/shared_dir.h"

namespace arenaplan::testing {
namespace {

std::vector<uint8_t> Bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), {});
}

using OptimizeCliTest = DemoModelTest;

TEST_F(OptimizeCliTest, NothingHelpsWritesTheModelUnchanged) {
  // The demo model hands two tensors across every cut of its branchy prefix: no patches. For the
  // runtime its ADDs still run in place over an input (arenaplan_schedule), which lowers the head.
  const std::string out = dir_ + "/opt.tflite";
  CliRun r = RunCli({"optimize", demo_, "-o", out, "--for", "arenaplan"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("left:    patches: no prefix helps"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rewrote: in place: 0 DEPTHWISE_CONV_2D (one channel plane of scratch each) and 3 ADD"),
            std::string::npos)
      << r.out;
  // hello_world (two small FULLY_CONNECTED layers) gains nothing: written back byte for byte.
  if (SharedDir()) {
    const std::string hello = *SharedDir() + "/models/tflm_hello_world_int8.tflite";
    r = RunCli({"optimize", hello, "-o", out, "--for", "arenaplan"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("(unchanged)"), std::string::npos) << r.out;
    EXPECT_EQ(Bytes(out), Bytes(hello));
  }
  // For stock TFLM the offline plan alone lowers the head (TFLM's greedy is above the bound).
  r = RunCli({"optimize", demo_, "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("rewrote: offline plan"), std::string::npos) << r.out;
}

TEST_F(OptimizeCliTest, StockTflmCommandsSayAScheduleIsIgnored) {
  // The demo's ADDs run in place for the runtime, so --for arenaplan writes a schedule; --for tflm
  // never does. size (stock TFLM's arena) and plan (TFLM's lifetimes) must say which one they got.
  const std::string rt = dir_ + "/rt.tflite", tf = dir_ + "/tf.tflite";
  ASSERT_EQ(RunCli({"optimize", demo_, "-o", rt, "--for", "arenaplan"}).exit_code, 0);
  ASSERT_EQ(RunCli({"optimize", demo_, "-o", tf}).exit_code, 0);
  const std::string note = "carries an arenaplan execution schedule (arenaplan_schedule";
  CliRun r = RunCli({"size", rt});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("note: " + std::string("this model ") + note), std::string::npos) << r.out;
  r = RunCli({"size", rt, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(note), std::string::npos) << r.out;
  r = RunCli({"size", rt, tf});  // several models: the note names the model it is about
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("note: " + rt + ": this model " + note), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("note: " + tf + ":"), std::string::npos) << r.out;
  r = RunCli({"plan", rt});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("arenaplan: note: " + rt + ": this model " + note), std::string::npos) << r.err;
  for (const std::string cmd : {"size", "plan"}) {
    r = RunCli({cmd, tf});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ((r.out + r.err).find(note), std::string::npos) << cmd << ": " << r.out << r.err;
  }
}

TEST_F(OptimizeCliTest, BadInputIsOneLineAndExitTwo) {
  WriteText(dir_ + "/junk.tflite", "not a model at all, just some text");
  CliRun r = RunCli({"optimize", dir_ + "/junk.tflite", "-o", dir_ + "/o.tflite"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("arenaplan optimize:"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  r = RunCli({"optimize", demo_, "-o", dir_ + "/o.tflite", "--for", "tvm"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--for: tvm not in {tflm,arenaplan}"), std::string::npos) << r.err;
  r = RunCli({"optimize", demo_, "-o", dir_ + "/o.tflite", "--max-extra-macs", "-3"});
  EXPECT_EQ(r.exit_code, 2);
  r = RunCli({"optimize", dir_ + "/missing.tflite", "-o", dir_ + "/o.tflite"});
  EXPECT_EQ(r.exit_code, 2);
  r = RunCli({"optimize", demo_, "-o", dir_ + "/o.tflite", "--kernels", "dsp"});  // --for tflm
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--kernels is for --for arenaplan"), std::string::npos) << r.err;
  r = RunCli({"optimize", demo_, "-o", dir_ + "/o.tflite", "--for", "arenaplan", "--kernels", "neon"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--kernels: neon not in {portable,dsp}"), std::string::npos) << r.err;
  r = RunCli({"optimize", demo_, "-o", dir_ + "/o.tflite", "--format", "yaml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--format: yaml not in {text,json}"), std::string::npos) << r.err;
}

// The arena optimize reports for the runtime is the one `run` then needs with the same kernels:
// the Cortex-M fast kernels have their own scratch, and they run the written streams.
TEST(OptimizeCli, ArenaForTheRuntimeIsMeasuredWithItsKernels) {
  REQUIRE_SHARED();
  const std::string dir = TempDir();
  const std::string in = *SharedDir() + "/models/tflm_person_detect_int8.tflite";
  auto field = [](const std::string& json, const std::string& key, size_t from = 0) {
    const size_t at = json.find("\"" + key + "\": ", from);
    return at == std::string::npos ? std::string() : json.substr(at, json.find_first_of(",\n}", at) - at);
  };
  std::string arenas[2];
  for (const std::string kernels : {"portable", "dsp"}) {
    SCOPED_TRACE(kernels);
    const std::string out = dir + "/pd_" + kernels + ".tflite";
    CliRun r = RunCli({"optimize", in, "-o", out, "--for", "arenaplan", "--kernels", kernels, "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\"kernels\": \"" + kernels + "\""), std::string::npos) << r.out;
    const std::string after = field(r.out, "min_arena_bytes", r.out.find("\"after\""));
    ASSERT_FALSE(after.empty()) << r.out;
    CliRun run = RunCli({"run", out, "--kernels", kernels, "--format", "json"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(field(run.out, "min_arena_bytes"), after) << run.out;
    arenas[kernels == "dsp"] = after;
  }
  EXPECT_NE(arenas[0], arenas[1]);  // the fast kernels' scratch is counted
}

TEST(OptimizeCli, RewrittenModelWorksWithEveryCommand) {
  REQUIRE_SHARED();
  const std::string dir = TempDir();
  const std::string in = *SharedDir() + "/models/tflm_person_detect_int8.tflite", out = dir + "/pd.tflite";
  CliRun r = RunCli({"optimize", in, "-o", out, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"changed\": true"), std::string::npos) << r.out;
  r = RunCli({"size", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunCli({"plan", out, "--planner", "best"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunCli({"inspect", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("optimized: patches: ops 0.."), std::string::npos) << r.out;
  r = RunCli({"run", in, "--optimize"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("optimized:"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace arenaplan::testing
