// --external-io and --keep end to end on corpus models: outputs stay TFLM's golden bytes, the head
// shrinks by exactly what the golden plan's lifetimes say once the I/O leaves it, and a kept
// tensor's bytes after Invoke are the ones a tensor dump of an unmodified run recorded.
// `export -o --keep` for stock TFLM: accepted where TFLM's online scratch placement cannot reach
// the kept tensor, refused where it would, each checked by the runtime's own greedy placement
// around the offline offsets (rules/greedy.h, which reproduces TFLM's) with the kept lifetimes.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/cli_testutil.h"
#include "model/model.h"
#include "model/offline_plan.h"
#include "model/writer.h"
#include "rules/limits.h"
#include "runtime/interpreter.h"
#include "runtime/op_resolver.h"
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

// `export -o --keep` is checked against TFLM's placement of the kernel scratch buffers, which TFLM
// makes with the tensors' own lifetimes: here the runtime makes it (its greedy planner around the
// offline offsets, rules/greedy.h, a separate implementation of TFLM's), without the keep option,
// as stock TFLM would. True when a scratch buffer alive at or after the kept tensor's first step
// shares bytes with it; the outputs of one Invoke with `inputs` go to *outputs.
bool ScratchLandsOnTensor(const std::vector<uint8_t>& model, uint32_t tensor,
                          const std::vector<std::vector<uint8_t>>& inputs, std::vector<std::vector<uint8_t>>* outputs) {
  std::vector<uint8_t> arena(size_t{4} << 20);
  std::vector<rt::PlanBuffer> problem(rules::kMaxPlanBuffers);
  std::vector<int32_t> offsets(rules::kMaxPlanBuffers);
  rt::PlanCopy copy{problem.data(), offsets.data(), rules::kMaxPlanBuffers, 0};
  rt::InterpreterOptions options;
  options.plan_copy = &copy;
  rt::Interpreter interp(model.data(), model.size(), rt::AllOpsResolver(), arena.data(), arena.size(), options);
  EXPECT_EQ(interp.AllocateTensors(), rt::StatusCode::kOk) << interp.error_message();
  EXPECT_STREQ(interp.memory_record().plan_source, "offline");
  const rt::TensorView kept = interp.tensor(tensor);
  const int64_t begin = static_cast<const uint8_t*>(kept.data) - arena.data(), end = begin + kept.bytes;
  const uint32_t scratch = interp.memory_record().scratch_requests;
  EXPECT_GT(scratch, 0u);
  int32_t kept_first = -1;
  for (uint32_t b = 0; b + scratch < copy.count; ++b) {
    if (offsets[b] == begin && problem[b].size >= kept.bytes) kept_first = problem[b].first;
  }
  EXPECT_GE(kept_first, 0) << "tensor " << tensor << " is not a planned buffer";
  bool lands = false;
  for (uint32_t b = copy.count - scratch; b < copy.count; ++b) {
    const bool later = problem[b].last >= kept_first;
    lands |= later && offsets[b] < end && begin < offsets[b] + static_cast<int64_t>(problem[b].size);
  }
  for (uint32_t k = 0; k < interp.inputs_size() && k < inputs.size(); ++k) {
    EXPECT_EQ(interp.input(k).bytes, inputs[k].size());
    std::copy(inputs[k].begin(), inputs[k].end(), static_cast<uint8_t*>(interp.input(k).data));
  }
  EXPECT_EQ(interp.Invoke(), rt::StatusCode::kOk) << interp.error_message();
  for (uint32_t k = 0; k < interp.outputs_size(); ++k) {
    const auto* p = static_cast<const uint8_t*>(interp.output(k).data);
    outputs->emplace_back(p, p + interp.output(k).bytes);
  }
  return lands;
}

TEST(ExportKeepCorpus, TflmModelKeepsATensorOnlyWhereTflmsScratchCannotReachIt) {
  REQUIRE_SHARED();
  // tflm_keyword_scrambled_svdf: input 0 kept to the end (the head grows 672 -> 688 bytes); none
  // of the 14 SVDF scratch buffers TFLM places lands on it, and the outputs stay golden. (The
  // detector finds such a landing on dtln below.)
  const std::string svdf = "tflm_keyword_scrambled_svdf";
  const std::string out = TempDir() + "/svdf_keep.tflite";
  CliRun r = RunCli({"export", Model(svdf), "-o", out, "--keep", "0", "--target", "tflm-x86_64"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::vector<uint8_t>> outputs;
  EXPECT_FALSE(
      ScratchLandsOnTensor(ReadFileBytes(out), 0, {ReadFileBytes(Golden("io/" + svdf + ".in0.bin"))}, &outputs));
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0], ReadFileBytes(Golden("io/" + svdf + ".out0.bin")));

  // tflm_dtln_noise_suppression_int8: keeping input 0 to the end, TFLM puts an LSTM scratch buffer
  // on it. Refused by export; and the plan `plan --keep 0` makes, written as the offline plan by
  // hand, does get a scratch buffer on tensor 0.
  const std::string dtln = Model("tflm_dtln_noise_suppression_int8");
  r = RunCli({"export", dtln, "-o", TempDir() + "/dtln_keep.tflite", "--keep", "0", "--target", "tflm-x86_64"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--keep: TFLM would place scratch"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("over s0t0"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;

  r = RunCli({"plan", dtln, "--keep", "0", "--target", "tflm-x86_64", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto bytes = ReadFileBytes(dtln);
  auto m = model::ReadModel(bytes.data(), bytes.size());
  ASSERT_TRUE(m.ok());
  std::vector<size_t> base;
  size_t total = 0;
  for (const auto& sg : m->subgraphs) {
    base.push_back(total);
    total += sg.tensors.size();
  }
  std::vector<int32_t> offsets(total, -1);
  for (const auto& b : j["buffers"]) {
    if (b["tensor"].is_null()) continue;  // scratch stays online, as in TFLM
    offsets[base[b["subgraph"].get<size_t>()] + b["tensor"].get<size_t>()] = b["offset"].get<int32_t>();
  }
  auto copy = model::WriteModelCopyWithMetadata(
      bytes.data(), bytes.size(), std::string(model::kOfflinePlanMetadataName), model::EncodeOfflinePlan(offsets));
  ASSERT_TRUE(copy.ok());
  outputs.clear();
  EXPECT_TRUE(ScratchLandsOnTensor(*copy, 0, {}, &outputs));
}

}  // namespace
}  // namespace arenaplan::testing
