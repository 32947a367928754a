// ComputeArenaSize against what real TFLM measured (golden/tflm-*/arena.csv): head, tail,
// arena_used_bytes and the smallest working arena, to the byte, on all three targets; unsupported
// models must fail for the reason TFLM gave.
#include <gtest/gtest.h>

#include <string>

#include "model/model.h"
#include "support/shared_dir.h"
#include "tflm/arena_size.h"

namespace arenaplan::tflm {
namespace {

using testing::CsvField;

struct Golden {
  const char* target;
  const char* folder;     // golden folder below the root
  const char* root = "";  // below ../shared: "" (main corpus) or "op-suite/"
};

// Distinctive words of TFLM's message that our reason must contain.
std::string KeyPhrase(const std::string& golden_error) {
  for (const char* phrase : {"Hybrid models are not supported", "Non-constant >dims<", "Didn't find op",
                             "concatenation.cc", "Input type UINT8", "not supported by FLOOR_MOD"}) {
    if (golden_error.find(phrase) != std::string::npos) return phrase;
  }
  return golden_error.substr(0, golden_error.find(" | "));
}

void CheckTarget(const Golden& g, int& checked) {
  const std::string dir = *testing::SharedDir();
  auto target = FindTarget(g.target);
  ASSERT_TRUE(target.ok());
  const auto rows = testing::ReadCsv(dir + "/" + g.root + "golden/" + g.folder + "/arena.csv");
  ASSERT_FALSE(rows.empty());
  for (const auto& row : rows) {
    const std::string name = CsvField(row, "model");
    SCOPED_TRACE(std::string(g.target) + " " + name);
    const auto bytes = testing::ReadFileBytes(dir + "/" + g.root + "models/" + name);
    ASSERT_FALSE(bytes.empty());
    auto model = model::ReadModel(bytes.data(), bytes.size());
    ASSERT_TRUE(model.ok()) << model.status().ToString();
    auto size = ComputeArenaSize(*model, **target);
    ASSERT_TRUE(size.ok()) << size.status().ToString();
    ++checked;
    const bool alloc_ok = CsvField(row, "alloc_ok") == "1";
    const bool invoke_ok = CsvField(row, "invoke_ok") != "0";
    EXPECT_EQ(size->allocates, alloc_ok) << size->error;
    EXPECT_EQ(size->supported, alloc_ok && invoke_ok) << size->error;
    if (!alloc_ok || !invoke_ok) {
      EXPECT_NE(size->error.find(KeyPhrase(CsvField(row, "error"))), std::string::npos)
          << "ours: " << size->error << "\nTFLM: " << CsvField(row, "error");
    }
    if (!alloc_ok || !size->allocates) continue;
    EXPECT_EQ(size->head_bytes, std::stoull(CsvField(row, "head_bytes")));
    const uint64_t tail = std::stoull(CsvField(row, "tail_bytes"));
    const std::string min = CsvField(row, "min_arena_bytes");
    EXPECT_EQ(size->tail_bytes, tail);
    EXPECT_EQ(size->arena_used_bytes, std::stoull(CsvField(row, "arena_used_bytes")));
    if (!min.empty()) { EXPECT_EQ(size->min_arena_bytes, std::stoull(min)); }
    const std::string alloc_min = CsvField(row, "min_arena_alloc_bytes");  // x86-64: Invoke failed
    if (min.empty() && !alloc_min.empty()) { EXPECT_EQ(size->min_arena_bytes, std::stoull(alloc_min)); }
  }
}

TEST(ArenaSizeCorpus, X86_64MatchesGolden) {
  REQUIRE_SHARED();
  int checked = 0;
  CheckTarget({"tflm-x86_64", "tflm-x86_64"}, checked);
  EXPECT_GE(checked, 160);
}

// The op suite: single-op models of every TFLM operator the main corpus lacks, measured on the same
// TFLM build. The smallest arena there is often set by a kernel's Prepare-time temp tensors.
TEST(ArenaSizeCorpus, OpSuiteX86_64MatchesGolden) {
  REQUIRE_SHARED();
  int checked = 0;
  CheckTarget({"tflm-x86_64", "tflm-x86_64", "op-suite/"}, checked);
  EXPECT_GE(checked, 73);
}

TEST(ArenaSizeCorpus, Arm32MatchesGolden) {
  REQUIRE_SHARED();
  int checked = 0;
  CheckTarget({"tflm-arm32", "tflm-arm32"}, checked);
  EXPECT_GE(checked, 40);
}

TEST(ArenaSizeCorpus, CortexMMatchesGolden) {
  REQUIRE_SHARED();
  int checked = 0;
  CheckTarget({"tflm-cortex-m", "tflm-cortex-m"}, checked);
  EXPECT_GE(checked, 40);
}

}  // namespace
}  // namespace arenaplan::tflm

namespace arenaplan::tflm {
namespace {

// golden/tflm-arm32/tail_breakdown.csv: the recording allocator's tail for all three builds.
// (1) Our plain replay gives its categories that carry no alignment padding: eval tensors, nodes,
// persistent I/O TfLiteTensors, their quantization and variable buffers. (2) The recording
// interpreter's allocator objects are bigger (x86-64 424 B, 32-bit 220 B for SingleArenaBufferAllocator
// + planner + MicroAllocator, golden/tflm-arm32/README.md), which shifts every later allocation to
// another 16-byte phase on the 32-bit builds; replaying that sequence must give the recorded total
// and the recorded persistent buffers (kernel Init/Prepare data, I/O pointer arrays and resource
// variables, padding included), so each kernel-table row is checked in a second alignment phase.
TEST(ArenaSizeCorpus, TailMatchesRecordingAllocator) {
  REQUIRE_SHARED();
  const std::string dir = *testing::SharedDir();
  const auto rows = testing::ReadCsv(dir + "/golden/tflm-arm32/tail_breakdown.csv");
  ASSERT_GE(rows.size(), 30u);
  struct Build {
    const char* prefix;
    const char* target;
    uint32_t recording_objects;
    uint32_t align;
  };
  const Build builds[] = {
      {"x86", "tflm-x86_64", 424, 8}, {"arm32", "tflm-arm32", 220, 4}, {"shortenum", "tflm-cortex-m", 220, 4}};
  const std::pair<const char*, const char*> cats[] = {{"eval_tensor", kTailEvalTensors},
                                                      {"node_and_registration", kTailNodes},
                                                      {"persistent_tflite_tensor", kTailIoTensors},
                                                      {"persistent_quant", kTailIoQuantization},
                                                      {"variable_buffer", kTailVariables}};
  int checked = 0;
  for (const auto& row : rows) {
    const std::string name = CsvField(row, "model");
    const auto bytes = testing::ReadFileBytes(dir + "/models/" + name);
    auto m = model::ReadModel(bytes.data(), bytes.size());
    ASSERT_TRUE(m.ok()) << name;
    for (const Build& b : builds) {
      SCOPED_TRACE(name + " " + b.target);
      const std::string prefix = std::string(b.prefix) + "_";
      auto size = ComputeArenaSize(*m, **FindTarget(b.target));
      ASSERT_TRUE(size.ok() && size->allocates);
      for (const auto& [column, category] : cats) {
        EXPECT_EQ(TailBytes(*size, category), std::stoull(CsvField(row, prefix + column))) << column;
      }
      Target recording = **FindTarget(b.target);
      recording.fixed_objects = {{b.recording_objects, b.align}};
      auto replay = ComputeArenaSize(*m, recording);
      ASSERT_TRUE(replay.ok() && replay->allocates);
      EXPECT_EQ(replay->tail_bytes, std::stoull(CsvField(row, prefix + "rec_tail")));
      EXPECT_EQ(TailBytes(*replay, kTailKernelData) + TailBytes(*replay, kTailIoPointers) +
                    TailBytes(*replay, kTailResourceVariables),
                std::stoull(CsvField(row, prefix + "persistent_buffer")));
      ++checked;
    }
  }
  EXPECT_GE(checked, 32 * 3);
}

}  // namespace
}  // namespace arenaplan::tflm
