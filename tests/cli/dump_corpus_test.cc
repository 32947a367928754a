// `arenaplan run --dump-tensors` on every corpus model with golden TFLM io: the dump of each model
// output (the last time its op produced it) equals TFLM's golden output bytes, and a dump made under
// the other online planner (other offsets in the arena) compares equal with `--compare-with`.
#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_testutil.h"
#include "support/shared_dir.h"

namespace arenaplan::testing {
namespace {

std::vector<std::string> GoldenIoModels() {  // relative to models/, e.g. "tflm_ops/x.tflite"
  std::vector<std::string> out;
  const auto shared = SharedDir();
  if (!shared) return out;
  for (const auto& row : ReadCsv(*shared + "/golden/tflm-x86_64/arena.csv")) {
    if (CsvField(row, "io_files") == "1") out.push_back(CsvField(row, "model"));
  }
  return out;
}

class DumpCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(DumpCorpus, LastDumpsAreTheGoldenOutputsAndTwoPlannersCompareEqual) {
  REQUIRE_SHARED();
  const std::string stem = GetParam().substr(0, GetParam().size() - 7);
  const std::string model = *SharedDir() + "/models/" + GetParam();
  const std::string io = *SharedDir() + "/golden/tflm-x86_64/io/" + stem;
  const std::string greedy = TempDir(), best_fit = TempDir();
  CliRun r = RunCli({"run", model, "--inputs-from", io, "--dump-tensors", greedy});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto graph = nlohmann::json::parse(RunCli({"inspect", model, "--format", "json"}).out);
  const auto index = nlohmann::json::parse(ReadText(greedy + "/index.json"));
  const auto& outputs = graph["subgraphs"][0]["outputs"];
  int checked = 0;
  for (size_t k = 0; k < outputs.size(); ++k) {
    for (const auto& e : index["tensors"]) {
      if (e["subgraph"] != 0 || e["tensor"] != outputs[k]) continue;
      EXPECT_EQ(ReadFileBytes(greedy + "/" + e["file"].get<std::string>()),
                ReadFileBytes(io + ".out" + std::to_string(k) + ".bin"))
          << "output " << k << ": " << e["file"];
      ++checked;
    }
  }
  EXPECT_EQ(checked, static_cast<int>(outputs.size()));
  r = RunCli({"run", model, "--inputs-from", io, "--planner", "best-fit", "--dump-tensors", best_fit, "--compare-with",
              greedy});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("compare:          identical to " + greedy), std::string::npos) << r.out;
}

std::string Name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = info.param.substr(0, info.param.size() - 7);
  for (char& c : s) {
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return s;
}

INSTANTIATE_TEST_SUITE_P(Golden, DumpCorpus, ::testing::ValuesIn(GoldenIoModels()), Name);
CORPUS_SUITE_MAY_BE_EMPTY(DumpCorpus);

TEST(DumpCorpusScope, CoversTheGoldenIoModels) {
  REQUIRE_SHARED();
  EXPECT_GE(GoldenIoModels().size(), 150u);
}

}  // namespace
}  // namespace arenaplan::testing
