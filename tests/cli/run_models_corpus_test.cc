// `arenaplan run A B C`: several corpus models in one arena of the embedded runtime. Each model's
// outputs equal TFLM's golden bytes (what it gives alone), the resource variable of
// litert_call_once_resource_vars_f32 survives the other models' runs (--invokes 2: rounds
// A B C A B C, its second Invoke equals TFLM's), the reported arena equals the figure derived by
// hand from each model's single-model `run` figures, it works at that size, and one byte less
// fails with one line naming the model that does not fit (exit 1).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_testutil.h"
#include "support/shared_dir.h"

namespace arenaplan::testing {
namespace {

const std::vector<std::string> kStems = {"tflm_micro_speech_int8", "litert_call_once_resource_vars_f32",
                                         "tflm_hello_world_int8"};

std::string Model(const std::string& stem) { return *SharedDir() + "/models/" + stem + ".tflite"; }
std::string Io(const std::string& stem) { return *SharedDir() + "/golden/tflm-x86_64/io/" + stem; }
uint64_t Up16(uint64_t v) { return (v + 15) & ~uint64_t{15}; }

std::vector<std::string> CliArgs(const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"run"};
  for (const auto& s : kStems) args.push_back(Model(s));
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// By hand from each model alone: model k needs its own smallest arena above the tails before it,
// and its tail above every earlier head. *limited = the first model that needs the maximum.
uint64_t ExpectedArena(size_t* limited) {
  uint64_t tails = 0, max_head = 0, size = 0;
  for (size_t k = 0; k < kStems.size(); ++k) {
    const auto j = nlohmann::json::parse(RunCli({"run", Model(kStems[k]), "--format", "json"}).out);
    const uint64_t tail = Up16(j["tail_bytes"].get<uint64_t>());
    const uint64_t need = std::max(tails + j["min_arena_bytes"].get<uint64_t>(), tails + tail + max_head);
    if (need > size) {
      size = need;
      *limited = k;
    }
    tails += tail;
    max_head = std::max(max_head, j["head_bytes"].get<uint64_t>());
  }
  return size;
}

TEST(RunModelsCorpus, OutputsStateAndArenaInOneSharedArena) {
  REQUIRE_SHARED();
  size_t limited = 0;
  const uint64_t expected = ExpectedArena(&limited);
  const std::string dir = TempDir();
  std::vector<std::string> extra = {"--invokes", "2", "--format", "json"};
  for (size_t k = 0; k < kStems.size(); ++k) {
    for (const char* opt : {"--inputs-from", "--outputs-to"}) {
      extra.push_back(opt);
      extra.push_back(opt[2] == 'i' ? Io(kStems[k]) : dir + "/" + kStems[k]);
    }
  }
  const CliRun r = RunCli(CliArgs(extra));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["min_arena_bytes"].get<uint64_t>(), expected);
  EXPECT_EQ(j["arena_bytes"].get<uint64_t>(), expected);
  ASSERT_EQ(j["models"].size(), kStems.size());
  uint64_t tails = 0;
  for (size_t k = 0; k < kStems.size(); ++k) {
    SCOPED_TRACE(kStems[k]);
    tails += j["models"][k]["shared_tail_bytes"].get<uint64_t>();
    EXPECT_EQ(ReadFileBytes(dir + "/" + kStems[k] + ".out0.bin"), ReadFileBytes(Io(kStems[k]) + ".out0.bin"));
  }
  EXPECT_EQ(j["tail_bytes"].get<uint64_t>(), tails);
  EXPECT_EQ(j["arena_used_bytes"].get<uint64_t>(), j["head_bytes"].get<uint64_t>() + tails);
  // Round 2: the resource variable set in round 1 was kept in the tail while the others ran.
  const std::string seq1 = ".seq1.out0.bin";
  EXPECT_EQ(ReadFileBytes(dir + "/" + kStems[1] + seq1), ReadFileBytes(Io(kStems[1]) + seq1));
}

TEST(RunModelsCorpus, ArenaWorksAtItsSizeAndOneByteLessNamesTheModel) {
  REQUIRE_SHARED();
  size_t limited = 0;
  const uint64_t expected = ExpectedArena(&limited);
  CliRun r = RunCli(CliArgs({"--arena-bytes", std::to_string(expected)}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("arena:            " + std::to_string(expected) + " bytes"), std::string::npos) << r.out;
  r = RunCli(CliArgs({"--arena-bytes", std::to_string(expected - 1)}));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  const std::string named = Model(kStems[limited]) + " (model " + std::to_string(limited + 1) + " of 3) does not fit";
  EXPECT_NE(r.err.find(named), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(RunModelsCorpus, PerModelOptionsMustMatchTheModels) {
  REQUIRE_SHARED();
  CliRun r = RunCli(CliArgs({"--inputs-from", Io(kStems[0])}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--inputs-from given 1 times for 3 models"), std::string::npos) << r.err;
  r = RunCli(CliArgs({"--dump-tensors", TempDir()}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--dump-tensors takes one model"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace arenaplan::testing
