// --external-io and --keep end to end on corpus models: outputs stay TFLM's golden bytes, the head
// shrinks by exactly what the golden plan's lifetimes say once the I/O leaves it, and a kept
// tensor's bytes after Invoke are the ones a tensor dump of an unmodified run recorded.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/cli_testutil.h"
#include "support/shared_dir.h"

namespace arenaplan::testing {
namespace {

std::string Model(const std::string& name) { return *SharedDir() + "/models/" + name + ".tflite"; }
std::string Golden(const std::string& rest) { return *SharedDir() + "/golden/tflm-x86_64/" + rest; }

// Max over time of the bytes alive at once in TFLM's golden plan (its CSV: id, size, first, last),
// leaving out the buffers named in `without`: an independent figure the exact planner must reach
// on these chains.
int64_t GoldenLiveBytes(const std::string& model, const std::set<std::string>& without) {
  std::ifstream f(Golden("plans/" + model + ".csv"));
  std::string line;
  std::getline(f, line);  // buffer,id,size,first,last,offline_offset,offset
  std::map<int64_t, int64_t> delta;
  while (std::getline(f, line)) {
    std::stringstream s(line);
    std::string buffer, id, size, first, last;
    std::getline(s, buffer, ',');
    std::getline(s, id, ',');
    std::getline(s, size, ',');
    std::getline(s, first, ',');
    std::getline(s, last, ',');
    if (without.count(id) != 0) continue;
    delta[std::stoll(first)] += std::stoll(size);
    delta[std::stoll(last) + 1] -= std::stoll(size);
  }
  int64_t live = 0, peak = 0;
  for (const auto& [step, d] : delta) peak = std::max(peak, live += d);
  return peak;
}

nlohmann::json Json(const CliRun& r) { return nlohmann::json::parse(r.out); }

TEST(IoCorpus, ExternalIoShrinksTheHeadByTheGoldenPlansIoBuffers) {
  REQUIRE_SHARED();
  // ad_autoencoder: input and output (2560 B each) sit on the peak; simple_add: both inputs and
  // the output are all there is.
  for (const auto& [model, io_ids] : std::map<std::string, std::set<std::string>>{
           {"mlperf_ad_autoencoder_f32", {"s0t0", "s0t30"}}, {"tflm_simple_add_int8", {"s0t0", "s0t1", "s0t2"}}}) {
    SCOPED_TRACE(model);
    const int64_t before = GoldenLiveBytes(model, {}), after = GoldenLiveBytes(model, io_ids);
    ASSERT_LT(after, before);  // the I/O is on the peak
    const CliRun r = RunCli({"plan", Model(model), "--external-io", "both", "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = Json(r);
    EXPECT_EQ(j["arena_bytes"], after);
    ASSERT_EQ(j["io"].size(), 1u);
    EXPECT_EQ(j["io"][0]["option"], "external-io");
    EXPECT_EQ(j["io"][0]["head_before"], before);
    EXPECT_EQ(j["io"][0]["head_after"], after);
    EXPECT_EQ(j["io"][0]["tensors"].size(), io_ids.size());
    for (const auto& b : j["buffers"]) EXPECT_EQ(io_ids.count(b["id"].get<std::string>()), 0u) << b["id"];
    // The runtime plans the same problem (best, compiled in): the same head.
    const CliRun run = RunCli({"run", Model(model), "--planner", "best", "--external-io", "both", "--format", "json"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(Json(run)["head_bytes"], after);
    EXPECT_EQ(Json(run)["io"][0]["head_before"], before);
  }
}

TEST(IoCorpus, OutputsEqualTflmsWithExternalIoAndKeptTensors) {
  REQUIRE_SHARED();
  for (const std::string model : {"mlperf_ad_autoencoder_int8", "tflm_hello_world_int8", "tflm_magic_wand_f32"}) {
    for (const std::string io : {"inputs", "outputs", "both"}) {
      SCOPED_TRACE(model + " --external-io " + io);
      const std::string out = TempDir() + "/o";
      const CliRun r = RunCli({"run", Model(model), "--external-io", io, "--keep", "0", "--outputs-to", out});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      for (int k = 0; std::ifstream(Golden("io/" + model + ".out" + std::to_string(k) + ".bin")).good(); ++k) {
        const std::string name = ".out" + std::to_string(k) + ".bin";
        EXPECT_EQ(ReadFileBytes(out + name), ReadFileBytes(Golden("io/" + model + name))) << "output " << k;
      }
    }
  }
}

TEST(IoCorpus, KeptTensorAfterInvokeEqualsTheDumpOfAnUnmodifiedRun) {
  REQUIRE_SHARED();
  // Tensor 21 (512 B, alive [1, 2]) shares its offset with tensor 23 in TFLM's plan: without --keep
  // its bytes are overwritten before Invoke returns.
  const std::string model = "mlperf_ad_autoencoder_f32";
  const std::string dir = TempDir() + "/dump";
  const CliRun plain = RunCli({"run", Model(model), "--dump-tensors", dir});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const nlohmann::json index = nlohmann::json::parse(ReadText(dir + "/index.json"));
  std::string dumped;
  for (const auto& t : index["tensors"]) {
    if (t["subgraph"] == 0 && t["tensor"] == 21) dumped = t["fnv1a64"];
  }
  ASSERT_FALSE(dumped.empty());
  for (const std::string planner : {"tflm-greedy", "best"}) {
    SCOPED_TRACE(planner);
    const CliRun kept = RunCli(
        {"run", Model(model), "--planner", planner, "--keep", "Identity", "21", "--format", "json"});
    ASSERT_EQ(kept.exit_code, 0) << kept.err;
    const nlohmann::json j = Json(kept);
    ASSERT_EQ(j["kept"].size(), 2u);
    EXPECT_EQ(j["kept"][0]["tensor"], 21);
    EXPECT_EQ(j["kept"][0]["fnv1a64"], dumped);
    EXPECT_EQ(j["io"][0]["option"], "keep");
    EXPECT_GE(j["io"][0]["head_after"].get<int64_t>(), j["io"][0]["head_before"].get<int64_t>());
  }
}

TEST(IoCorpus, UnknownKeptTensorIsOneLineNamingIt) {
  REQUIRE_SHARED();
  for (const std::string cmd : {"plan", "run"}) {
    const CliRun r = RunCli({cmd, Model("mlperf_ad_autoencoder_f32"), "--keep", "no_such_tensor"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--keep: no tensor 'no_such_tensor' in subgraph 0"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

}  // namespace
}  // namespace arenaplan::testing
