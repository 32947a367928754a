// `arenaplan run MODEL --region A --region B` on every corpus model with golden io: the runtime
// runs a two-region plan (the first region half the model's single-arena head, the second large),
// so most models are split across both memories, and every output byte equals TFLM's golden bytes.
// `export --c-header --region` on models with golden io: the header's arrays, read back from its
// text, run in the runtime as firmware would use them (runtime_header_testutil.h) and give the golden
// bytes; its ARENA_BYTES is the smallest main arena that works.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli/cli_testutil.h"
#include "cli/runtime_header_testutil.h"
#include "runtime/kernels/dsp/registrations.h"
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

// --external-io / --keep with regions, as export plans them: the input lives in the CLI's own
// buffer (outside both regions), a kept intermediate tensor still holds, after Invoke, the bytes a
// one-arena dump saw it get, and the output is the golden one.
TEST(RunRegionsCorpus, ExternalInputsAndKeptTensorsOverTwoRegions) {
  REQUIRE_SHARED();
  const std::string name = "tflm_person_detect_int8";
  const std::string model = *SharedDir() + "/models/" + name + ".tflite";
  const std::string golden = *SharedDir() + "/golden/tflm-x86_64/io/" + name;
  const std::string dir = TempDir();
  const CliRun dumped = RunCli({"run", model, "--inputs-from", golden, "--dump-tensors", dir + "/dump"});
  ASSERT_EQ(dumped.exit_code, 0) << dumped.err;
  nlohmann::json kept;  // op 3's output: written early, dead long before the end without --keep
  const auto index = nlohmann::json::parse(ReadText(dir + "/dump/index.json"));
  for (const auto& t : index["tensors"]) {
    if (t["op"] == 3) kept = t;
  }
  ASSERT_FALSE(kept.is_null());
  const auto inspect = nlohmann::json::parse(RunCli({"inspect", model, "--format", "json"}).out);
  const CliRun r = RunCli({"run", model, "--region", "fast:24K:1", "--region", "big:256M:4", "--external-io", "inputs",
                           "--keep", std::to_string(kept["tensor"].get<int>()), "--inputs-from", golden,
                           "--outputs-to", dir + "/o", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["external_tensors"], inspect["subgraphs"][0]["inputs"]);
  ASSERT_EQ(j["kept"].size(), 1u);
  EXPECT_EQ(j["kept"][0]["tensor"], kept["tensor"]);
  EXPECT_EQ(j["kept"][0]["fnv1a64"], kept["fnv1a64"]);
  EXPECT_GT(j["regions"][1]["buffers"].get<int>(), 0);  // 24K cannot hold the 55,296-byte head
  EXPECT_EQ(ReadFileBytes(dir + "/o.out0.bin"), ReadFileBytes(golden + ".out0.bin"));
  // The text form says the same.
  const CliRun t = RunCli({"run", model, "--region", "fast:24K:1", "--region", "big:256M:4", "--external-io", "inputs",
                           "--keep", std::to_string(kept["tensor"].get<int>())});
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("kept tensor " + std::to_string(kept["tensor"].get<int>())), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("external tensors: " + std::to_string(inspect["subgraphs"][0]["inputs"][0].get<int>()) + " ("),
            std::string::npos)
      << t.out;
}

// Three models of different shapes (a CNN, a DS-CNN, a person detector with int8 I/O); the first
// region holds half the runtime's single-arena head, the second the rest.
TEST(ExportRegionsCorpus, TheHeadersPlanRunsInTheRuntimeWithTheGoldenOutputs) {
  REQUIRE_SHARED();
  const std::string io = *SharedDir() + "/golden/tflm-x86_64/io";
  for (const std::string name : {"mlperf_vww_mobilenet_int8", "mlperf_kws_dscnn_int8", "tflm_person_detect_int8"}) {
    SCOPED_TRACE(name);
    const std::string model = *SharedDir() + "/models/" + name + ".tflite";
    const CliRun one = RunCli({"run", model, "--format", "json"});
    ASSERT_EQ(one.exit_code, 0) << one.err;
    const uint64_t head = nlohmann::json::parse(one.out)["head_bytes"].get<uint64_t>();
    const uint64_t first = head / 2 / 16 * 16;
    const std::string header = TempDir() + "/" + name + ".h";
    const CliRun r = RunCli({"export", model, "--c-header", header, "--region", "fast:" + std::to_string(first) + ":1",
                             "--region", "big:256M:4"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string text = ReadText(header);
    const RuntimeHeader h = ParseRuntimeHeader(text);
    ASSERT_EQ(h.region_count, 2) << text;
    ASSERT_EQ(h.offsets.size(), static_cast<size_t>(h.plan_count));
    ASSERT_EQ(h.regions.size(), h.offsets.size());
    ASSERT_EQ(h.region_bytes.size(), 2u);
    EXPECT_LE(h.region_bytes[0], static_cast<int64_t>(first));
    EXPECT_EQ(h.head_bytes, h.region_bytes[0]);
    EXPECT_GT(h.region_bytes[1], 0) << "half the head cannot hold it all";
    EXPECT_NE(std::count(h.regions.begin(), h.regions.end(), 0), 0);
    EXPECT_NE(std::count(h.regions.begin(), h.regions.end(), 1), 0);
    EXPECT_NE(text.find("static const char* const " + name + "_region_names[2] = {\"fast\", \"big\"};"),
              std::string::npos);

    std::vector<std::vector<uint8_t>> inputs;
    for (int k = 0; fs::exists(io + "/" + name + ".in" + std::to_string(k) + ".bin"); ++k) {
      inputs.push_back(ReadFileBytes(io + "/" + name + ".in" + std::to_string(k) + ".bin"));
    }
    ASSERT_FALSE(inputs.empty());
    const auto bytes = ReadFileBytes(model);
    const HeaderRun run = RunWithHeader(bytes, h, inputs);
    ASSERT_EQ(run.allocate, rt::StatusCode::kOk) << run.error;
    ASSERT_EQ(run.invoke, rt::StatusCode::kOk) << run.error;
    int k = 0;
    for (; fs::exists(io + "/" + name + ".out" + std::to_string(k) + ".bin"); ++k) {
      ASSERT_LT(static_cast<size_t>(k), run.outputs.size());
      EXPECT_EQ(run.outputs[k], ReadFileBytes(io + "/" + name + ".out" + std::to_string(k) + ".bin")) << "output " << k;
    }
    EXPECT_EQ(static_cast<size_t>(k), run.outputs.size());
    // ARENA_BYTES is the smallest main arena: 16 bytes less does not allocate.
    EXPECT_EQ(RunWithHeader(bytes, h, inputs, h.arena_bytes - 16).allocate, rt::StatusCode::kArenaFull);
  }
}

// The plan is of one set of kernels' buffers: the DSP kernels (more scratch buffers) get their own
// header, which gives the golden bytes with them; the portable header is refused by them.
TEST(ExportRegionsCorpus, ADspHeaderRunsWithTheDspKernelsOnly) {
  REQUIRE_SHARED();
  const std::string name = "mlperf_vww_mobilenet_int8";
  const std::string model = *SharedDir() + "/models/" + name + ".tflite";
  const std::string io = *SharedDir() + "/golden/tflm-x86_64/io/" + name;
  const std::string portable = TempDir() + "/portable.h", dsp = TempDir() + "/dsp.h";
  for (const auto& [header, kernels] : {std::pair{portable, "portable"}, std::pair{dsp, "dsp"}}) {
    const CliRun r = RunCli({"export", model, "--c-header", header, "--region", "fast:32K:1", "--region", "big:1M:4",
                             "--kernels", kernels});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const RuntimeHeader hp = ParseRuntimeHeader(ReadText(portable)), hd = ParseRuntimeHeader(ReadText(dsp));
  EXPECT_GT(hd.plan_count, hp.plan_count);
  const auto bytes = ReadFileBytes(model);
  const HeaderRun run = RunWithHeader(bytes, hd, {ReadFileBytes(io + ".in0.bin")}, -1, &rt::DspOpsResolver());
  ASSERT_EQ(run.allocate, rt::StatusCode::kOk) << run.error;
  ASSERT_EQ(run.invoke, rt::StatusCode::kOk) << run.error;
  ASSERT_EQ(run.outputs.size(), 1u);
  EXPECT_EQ(run.outputs[0], ReadFileBytes(io + ".out0.bin"));
  const HeaderRun wrong = RunWithHeader(bytes, hp, {}, hd.arena_bytes, &rt::DspOpsResolver());
  EXPECT_EQ(wrong.allocate, rt::StatusCode::kBadArgument);
  EXPECT_NE(wrong.error.find("compiled plan"), std::string::npos) << wrong.error;
}

}  // namespace
}  // namespace arenaplan::testing
