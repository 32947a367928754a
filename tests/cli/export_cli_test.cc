// `arenaplan export` end to end: both output forms of the issue (-o OUT.tflite, --c-header OUT.h),
// each alone and together, and the error when neither is given; the runtime header (--region,
// --external-io, --keep) read back from its text and run in the runtime, against the runtime's
// own plan; its bad inputs. Uses the project's demo model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <tuple>
#include <vector>

#include "cli/cli_testutil.h"
#include "cli/runtime_header_testutil.h"
#include "model/model.h"
#include "runtime/interpreter.h"
#include "runtime/op_resolver.h"
#include "support/shared_dir.h"

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

// The demo's outputs for one input pattern, under the runtime's own online plan (no header).
std::vector<std::vector<uint8_t>> OwnPlanOutputs(const std::vector<uint8_t>& model, const std::vector<uint8_t>& in) {
  std::vector<uint8_t> arena(size_t{1} << 20);
  rt::Interpreter interp(model.data(), model.size(), rt::AllOpsResolver(), arena.data(), arena.size());
  EXPECT_EQ(interp.AllocateTensors(), rt::StatusCode::kOk) << interp.error_message();
  EXPECT_EQ(interp.input(0).bytes, in.size());
  std::memcpy(interp.input(0).data, in.data(), in.size());
  EXPECT_EQ(interp.Invoke(), rt::StatusCode::kOk) << interp.error_message();
  const auto* p = static_cast<const uint8_t*>(interp.output(0).data);
  return {std::vector<uint8_t>(p, p + interp.output(0).bytes)};
}

std::vector<uint8_t> Pattern(size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; i += 4) {
    const float f = static_cast<float>(static_cast<int>(i % 97) - 48) / 16.0f;
    std::memcpy(&v[i], &f, 4);
  }
  return v;
}

// The header's plan runs the demo on one input pattern with the outputs of the runtime's own plan.
void ExpectOwnPlanOutputs(const std::vector<uint8_t>& model, const RuntimeHeader& h) {
  const std::vector<uint8_t> in = Pattern(16 * 16 * 3 * 4);
  const HeaderRun run = RunWithHeader(model, h, {in});
  ASSERT_EQ(run.allocate, rt::StatusCode::kOk) << run.error;
  ASSERT_EQ(run.invoke, rt::StatusCode::kOk) << run.error;
  EXPECT_EQ(run.outputs, OwnPlanOutputs(model, in));
}

// The demo's runtime head is 18432 bytes (`run`: 15 buffers, the largest a_conv3x3 of 8192 bytes).
TEST_F(ExportCliTest, RegionHeaderRunsInTheRuntimeLikeItsOwnPlan) {
  const std::string header = dir_ + "/demo_regions.h";
  const CliRun r = RunCli({"export", demo_, "--c-header", header, "--region", "fast:8K:1", "--region", "slow:64K:10"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("fast 8192 of 8192 bytes"), std::string::npos) << r.out;
  const std::string text = ReadText(header);
  const RuntimeHeader h = ParseRuntimeHeader(text);
  EXPECT_EQ(h.plan_count, 15) << text;
  ASSERT_EQ(h.offsets.size(), 15u);
  ASSERT_EQ(h.regions.size(), 15u);
  EXPECT_EQ(h.region_count, 2);
  ASSERT_EQ(h.region_bytes.size(), 2u);
  EXPECT_EQ(h.head_bytes, h.region_bytes[0]);
  EXPECT_EQ(HeaderMacro(text, "REGION0_BYTES"), h.region_bytes[0]);
  EXPECT_EQ(HeaderMacro(text, "REGION1_BYTES"), h.region_bytes[1]);
  EXPECT_LE(h.region_bytes[0], 8192);
  EXPECT_GE(h.region_bytes[0] + h.region_bytes[1], 14336);  // the live bytes at the demo's peak (README)
  EXPECT_EQ(h.external_io, 0);
  EXPECT_EQ(h.keep_count, 0);
  EXPECT_NE(text.find("#define DEMO_COMPILED_PLAN {demo_plan_offsets, DEMO_PLAN_COUNT, DEMO_HEAD_BYTES, "
                      "demo_plan_regions}"),
            std::string::npos)
      << text;

  ExpectOwnPlanOutputs(ReadFileBytes(demo_), h);
  EXPECT_EQ(RunWithHeader(ReadFileBytes(demo_), h, {}, h.arena_bytes - 16).allocate, rt::StatusCode::kArenaFull);
}

TEST_F(ExportCliTest, ExternalIoAndKeepHeaderRunsWithBoundBuffers) {
  const std::string header = dir_ + "/demo_io.h";
  // Tensor 3 is an intermediate: kept, it lives to the end.
  const CliRun r = RunCli({"export", demo_, "--c-header", header, "--external-io", "both", "--keep", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const RuntimeHeader h = ParseRuntimeHeader(ReadText(header));
  EXPECT_EQ(h.external_io, 3);
  EXPECT_EQ(h.region_count, 0);
  EXPECT_TRUE(h.regions.empty());
  EXPECT_EQ(h.keep, std::vector<int64_t>{3});
  EXPECT_EQ(h.plan_count, 13);  // the 15 buffers less the input and the output
  ExpectOwnPlanOutputs(ReadFileBytes(demo_), h);
}

// With -o, --keep is for stock TFLM: the offline plan keeps tensor 3 alive to the end. The runtime,
// given the model's plan and the same kept tensor, checks it with the kept lifetime: it accepts
// this export and refuses the one made without --keep, whose plan reuses tensor 3's bytes.
TEST_F(ExportCliTest, KeepWithOutputModelIsAnOfflinePlanThatKeepsTheTensor) {
  const auto allocates_keeping_3 = [](const std::string& path) {
    const std::vector<uint8_t> model = ReadFileBytes(path);
    std::vector<uint8_t> arena(size_t{1} << 20);
    const uint32_t keep = 3;
    rt::InterpreterOptions options;
    options.keep_tensors = &keep;
    options.num_keep_tensors = 1;
    rt::Interpreter interp(model.data(), model.size(), rt::AllOpsResolver(), arena.data(), arena.size(), options);
    const rt::StatusCode s = interp.AllocateTensors();
    EXPECT_STREQ(interp.memory_record().plan_source, "offline");
    return s == rt::StatusCode::kOk;
  };
  const std::string kept = dir_ + "/kept.tflite", plain = dir_ + "/plain.tflite";
  CliRun r = RunCli({"export", demo_, "-o", kept, "--keep", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(allocates_keeping_3(kept));
  r = RunCli({"export", demo_, "-o", plain});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(allocates_keeping_3(plain));
}

TEST_F(ExportCliTest, RuntimeHeaderBadInputsAreOneLineErrors) {
  const std::string h = dir_ + "/x.h", out = dir_ + "/x.tflite";
  const std::vector<std::tuple<std::vector<std::string>, int, std::string>> cases = {
      // 6 KiB regions cannot hold the 8192-byte a_conv3x3: 2048 bytes short at least.
      {{"--c-header", h, "--region", "a:6K", "--region", "b:6K:2"}, 1, "does not fit the regions: needs 2048 "},
      {{"--c-header", h, "--region", "a:6K", "--region", "b:6K:2"},
       1,
       "no region holds buffer s0t3 'a_conv3x3' of 8192"},
      {{"--c-header", h, "--region", "a:8K", "--region", "a:16K"}, 2, "duplicate region name 'a'"},
      {{"--c-header", h, "--region", "a:8X"}, 2, "bad size suffix 'X'"},
      {{"--c-header", h, "--keep", "nope"}, 2, "--keep: no tensor 'nope'"},
      {{"-o", out, "--c-header", h, "--region", "a:64K"}, 2, "stock TFLM's offline plan has one arena"},
      {{"-o", out, "--external-io", "inputs"}, 2, "cannot put a tensor outside the arena"},
      {{"--region", "a:64K"}, 2, "need --c-header OUT.h"},
      {{"--c-header", h, "--region", "a:64K", "--target", "tflm-x86_64"}, 2, "--target is stock TFLM's"},
      {{"-o", out, "--kernels", "dsp"}, 2, "--kernels is for a runtime header"},
  };
  for (const auto& [extra, code, needle] : cases) {
    SCOPED_TRACE(needle);
    std::vector<std::string> args = {"export", demo_};
    args.insert(args.end(), extra.begin(), extra.end());
    const CliRun r = RunCli(args);
    EXPECT_EQ(r.exit_code, code) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_FALSE(Exists(out));
}

}  // namespace
}  // namespace arenaplan::testing
