// Control-flow and resource-variable corpus models (WHILE, nested WHILE, CALL_ONCE with
// VAR_HANDLE / READ_VARIABLE / ASSIGN_VARIABLE) against golden TFLM data: outputs of the first
// Invoke and, where golden io has .seq1 files, of the second Invoke on the same interpreter;
// head bytes equal to TFLM's greedy plan (all subgraphs on one lifetime counter);
// arena_used_bytes <= TFLM's; the reported smallest arena works and one byte less fails cleanly;
// Reset brings back a fresh interpreter's behaviour.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "golden_testutil.h"
#include "runtime/interpreter.h"
#include "runtime/test_inputs.h"
#include "support/shared_dir.h"

namespace arenaplan::testing {
namespace {

bool UsesControlFlow(const GoldenModel& m) {
  for (const auto& op : m.ops) {
    if (op == "WHILE" || op == "IF" || op == "CALL_ONCE" || op == "VAR_HANDLE" || op == "READ_VARIABLE" ||
        op == "ASSIGN_VARIABLE") {
      return true;
    }
  }
  return false;
}

std::vector<GoldenModel> Models() {
  std::vector<GoldenModel> out;
  for (auto& m : GoldenIoModels()) {
    if (UsesControlFlow(m)) out.push_back(m);
  }
  return out;
}

uint32_t GoldenHeadBytes(const GoldenModel& m) {
  for (const auto& row : ReadCsv(*SharedDir() + "/golden/tflm-x86_64/arena.csv")) {
    if (CsvField(row, "model") == m.model) return static_cast<uint32_t>(std::stoul(CsvField(row, "head_bytes")));
  }
  return 0;
}

bool Exists(const std::string& path) { return std::ifstream(path).good(); }

void Fill(rt::Interpreter& interp, uint32_t seed) {
  for (uint32_t k = 0; k < interp.inputs_size(); ++k) rt::FillGeneratedInput(interp.input(k), k, seed);
}

std::vector<std::vector<uint8_t>> Outputs(const rt::Interpreter& interp) {
  std::vector<std::vector<uint8_t>> out;
  for (uint32_t k = 0; k < interp.outputs_size(); ++k) {
    const rt::TensorView o = interp.output(k);
    const auto* p = static_cast<const uint8_t*>(o.data);
    out.emplace_back(p, p + o.bytes);
  }
  return out;
}

void ExpectGolden(const GoldenModel& m, const rt::Interpreter& interp, const std::string& prefix) {
  const auto got = Outputs(interp);
  for (uint32_t k = 0; k < got.size(); ++k) {
    // The generator must have produced TFLM's inputs too.
    const auto golden = ReadFileBytes(IoPath(m, prefix + "out" + std::to_string(k)));
    EXPECT_EQ(got[k], golden) << m.model << " " << prefix << "out" << k;
  }
  for (uint32_t k = 0; k < interp.inputs_size(); ++k) {
    const rt::TensorView in = interp.input(k);
    const auto golden = ReadFileBytes(IoPath(m, prefix + "in" + std::to_string(k)));
    ASSERT_EQ(golden.size(), in.bytes);
    EXPECT_EQ(std::memcmp(golden.data(), in.data, in.bytes), 0) << m.model << " " << prefix << "in" << k;
  }
}

class ControlFlowCorpus : public ::testing::TestWithParam<GoldenModel> {};

TEST_P(ControlFlowCorpus, MatchesTflmOnFirstAndSecondInvoke) {
  REQUIRE_SHARED();
  const GoldenModel& m = GetParam();
  auto run = MakeRun(ReadFileBytes(ModelPath(m)), 1u << 20);
  rt::Interpreter& interp = *run->interp;
  ASSERT_EQ(interp.AllocateTensors(), rt::StatusCode::kOk) << m.model << ": " << interp.error_message();
  EXPECT_EQ(interp.memory_record().head_bytes, GoldenHeadBytes(m)) << m.model;
  EXPECT_LE(interp.arena_used_bytes(), m.tflm_arena_used) << m.model;
  Fill(interp, 0);
  ASSERT_EQ(interp.Invoke(), rt::StatusCode::kOk) << m.model << ": " << interp.error_message();
  // Inputs may be overwritten by nothing: subgraph-0 inputs are read-only for WHILE (copied out).
  ExpectGolden(m, interp, "");
  if (!Exists(IoPath(m, "seq1.in0"))) return;
  Fill(interp, 1);
  ASSERT_EQ(interp.Invoke(), rt::StatusCode::kOk) << m.model << ": " << interp.error_message();
  ExpectGolden(m, interp, "seq1.");
}

TEST_P(ControlFlowCorpus, ResetMatchesAFreshInterpreter) {
  REQUIRE_SHARED();
  const GoldenModel& m = GetParam();
  auto fresh = MakeRun(ReadFileBytes(ModelPath(m)), 1u << 20);
  ASSERT_EQ(fresh->interp->AllocateTensors(), rt::StatusCode::kOk) << fresh->interp->error_message();
  Fill(*fresh->interp, 1);
  ASSERT_EQ(fresh->interp->Invoke(), rt::StatusCode::kOk) << fresh->interp->error_message();
  const auto expected = Outputs(*fresh->interp);

  auto run = MakeRun(ReadFileBytes(ModelPath(m)), 1u << 20);
  rt::Interpreter& interp = *run->interp;
  ASSERT_EQ(interp.AllocateTensors(), rt::StatusCode::kOk) << interp.error_message();
  Fill(interp, 0);
  ASSERT_EQ(interp.Invoke(), rt::StatusCode::kOk) << interp.error_message();
  ASSERT_EQ(interp.Reset(), rt::StatusCode::kOk) << interp.error_message();
  Fill(interp, 1);
  ASSERT_EQ(interp.Invoke(), rt::StatusCode::kOk) << interp.error_message();
  EXPECT_EQ(Outputs(interp), expected) << m.model;
  // Where TFLM's second Invoke differs from a fresh one, the state really carried over.
  if (Exists(IoPath(m, "seq1.out0"))) {
    bool differs = false;
    for (uint32_t k = 0; k < expected.size(); ++k) {
      differs |= ReadFileBytes(IoPath(m, "seq1.out" + std::to_string(k))) != expected[k];
    }
    std::printf("%s: second Invoke %s a fresh interpreter's\n", m.model.c_str(), differs ? "differs from" : "equals");
  }
}

TEST_P(ControlFlowCorpus, SmallestArenaIsExact) {
  REQUIRE_SHARED();
  const GoldenModel& m = GetParam();
  auto probe = MakeRun(ReadFileBytes(ModelPath(m)), 1u << 20);
  ASSERT_EQ(probe->interp->AllocateTensors(), rt::StatusCode::kOk) << probe->interp->error_message();
  const uint32_t min_bytes = probe->interp->memory_record().min_arena_bytes;
  std::printf("%s: arena_used %u (TFLM %u), smallest arena %u (TFLM %u)\n", m.model.c_str(),
              probe->interp->arena_used_bytes(), m.tflm_arena_used, min_bytes, m.tflm_min_arena);
  auto exact = MakeRun(ReadFileBytes(ModelPath(m)), min_bytes);
  ASSERT_EQ(exact->interp->AllocateTensors(), rt::StatusCode::kOk) << exact->interp->error_message();
  Fill(*exact->interp, 0);
  ASSERT_EQ(exact->interp->Invoke(), rt::StatusCode::kOk) << exact->interp->error_message();
  ExpectGolden(m, *exact->interp, "");
  auto short_run = MakeRun(ReadFileBytes(ModelPath(m)), min_bytes - 1);
  EXPECT_EQ(short_run->interp->AllocateTensors(), rt::StatusCode::kArenaFull) << short_run->interp->error_message();
  EXPECT_EQ(short_run->interp->Invoke(), rt::StatusCode::kBadState);
}

std::string Name(const ::testing::TestParamInfo<GoldenModel>& info) {
  std::string s = info.param.stem;
  for (char& c : s) {
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return s;
}

INSTANTIATE_TEST_SUITE_P(Golden, ControlFlowCorpus, ::testing::ValuesIn(Models()), Name);
CORPUS_SUITE_MAY_BE_EMPTY(ControlFlowCorpus);

TEST(ControlFlowCorpusScope, CoversTheControlFlowModels) {
  REQUIRE_SHARED();
  // litert_multi_subgraphs_while_f32, litert_nested_while_f32, litert_call_once_resource_vars_f32.
  EXPECT_GE(Models().size(), 3u);
}

}  // namespace
}  // namespace arenaplan::testing
