// The op suite (../shared/op-suite/: single-op models of every TFLM operator the main corpus
// lacks, golden outputs from the real TFLM): every model runs through the runtime with its golden
// inputs and every output byte must equal TFLM's, integer and float alike (no tolerance: the
// kernels follow TFLM's reference operation for operation on the same libm). The smallest working
// arena the runtime reports must work and one byte less must fail cleanly.
#include <gtest/gtest.h>

#include <cstring>

#include "golden_testutil.h"
#include "runtime/interpreter.h"
#include "support/shared_dir.h"

namespace arenaplan::testing {
namespace {

struct SuiteModel {
  std::string stem;  // file name without .tflite
  uint32_t num_inputs = 0, num_outputs = 0;
};

void PrintTo(const SuiteModel& m, std::ostream* os) { *os << m.stem; }

std::vector<SuiteModel> SuiteModels() {
  std::vector<SuiteModel> out;
  const auto shared = SharedDir();
  if (!shared) return out;
  for (const auto& row : ReadCsv(*shared + "/op-suite/golden/tflm-x86_64/arena.csv")) {
    if (CsvField(row, "io_files") != "1") continue;
    const std::string model = CsvField(row, "model");
    out.push_back({model.substr(0, model.size() - 7), static_cast<uint32_t>(std::stoul(CsvField(row, "num_inputs"))),
                   static_cast<uint32_t>(std::stoul(CsvField(row, "num_outputs")))});
  }
  return out;
}

std::string SuitePath(const std::string& rel) { return *SharedDir() + "/op-suite/" + rel; }
std::string SuiteIo(const SuiteModel& m, const std::string& suffix) {
  return SuitePath("golden/tflm-x86_64/io/" + m.stem + "." + suffix + ".bin");
}

void Fill(const SuiteModel& m, rt::Interpreter& interp) {
  for (uint32_t k = 0; k < interp.inputs_size(); ++k) {
    const rt::TensorView in = interp.input(k);
    const std::vector<uint8_t> bytes = ReadFileBytes(SuiteIo(m, "in" + std::to_string(k)));
    ASSERT_EQ(bytes.size(), in.bytes) << m.stem << " input " << k;
    std::memcpy(in.data, bytes.data(), bytes.size());
  }
}

void CompareBytes(const SuiteModel& m, rt::Interpreter& interp) {
  for (uint32_t k = 0; k < interp.outputs_size(); ++k) {
    const rt::TensorView out = interp.output(k);
    const std::vector<uint8_t> golden = ReadFileBytes(SuiteIo(m, "out" + std::to_string(k)));
    ASSERT_EQ(golden.size(), out.bytes) << m.stem << " output " << k;
    size_t diff = 0, first = golden.size();
    for (size_t i = 0; i < golden.size(); ++i) {
      if (golden[i] != static_cast<const uint8_t*>(out.data)[i]) {
        ++diff;
        first = first == golden.size() ? i : first;
      }
    }
    EXPECT_EQ(diff, 0u) << m.stem << " output " << k << ": " << diff << " of " << golden.size()
                        << " bytes differ from TFLM, first at byte " << first;
  }
}

class OpSuiteCorpus : public ::testing::TestWithParam<SuiteModel> {};

TEST_P(OpSuiteCorpus, EveryOutputByteMatchesTflm) {
  REQUIRE_SHARED();
  const SuiteModel& m = GetParam();
  auto run = MakeRun(ReadFileBytes(SuitePath("models/" + m.stem + ".tflite")), 64u << 20);
  ASSERT_FALSE(run->model.empty()) << m.stem;
  rt::Interpreter& interp = *run->interp;
  ASSERT_EQ(interp.AllocateTensors(), rt::StatusCode::kOk) << m.stem << ": " << interp.error_message();
  ASSERT_EQ(interp.inputs_size(), m.num_inputs);
  ASSERT_EQ(interp.outputs_size(), m.num_outputs);
  Fill(m, interp);
  ASSERT_EQ(interp.Invoke(), rt::StatusCode::kOk) << m.stem << ": " << interp.error_message();
  CompareBytes(m, interp);
}

TEST_P(OpSuiteCorpus, SmallestArenaIsExact) {
  REQUIRE_SHARED();
  const SuiteModel& m = GetParam();
  const std::vector<uint8_t> bytes = ReadFileBytes(SuitePath("models/" + m.stem + ".tflite"));
  uint32_t min_bytes = 0;
  {
    auto run = MakeRun(bytes, 64u << 20);
    ASSERT_EQ(run->interp->AllocateTensors(), rt::StatusCode::kOk) << run->interp->error_message();
    min_bytes = run->interp->memory_record().min_arena_bytes;
  }
  auto fits = MakeRun(bytes, min_bytes);
  ASSERT_EQ(fits->interp->AllocateTensors(), rt::StatusCode::kOk) << fits->interp->error_message();
  Fill(m, *fits->interp);
  ASSERT_EQ(fits->interp->Invoke(), rt::StatusCode::kOk) << fits->interp->error_message();
  CompareBytes(m, *fits->interp);
  auto tight = MakeRun(bytes, min_bytes - 1);
  EXPECT_EQ(tight->interp->AllocateTensors(), rt::StatusCode::kArenaFull) << m.stem;
}

std::string Name(const ::testing::TestParamInfo<SuiteModel>& info) {
  std::string s = info.param.stem;
  for (char& c : s) {
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return s;
}

INSTANTIATE_TEST_SUITE_P(OpSuite, OpSuiteCorpus, ::testing::ValuesIn(SuiteModels()), Name);
CORPUS_SUITE_MAY_BE_EMPTY(OpSuiteCorpus);

TEST(OpSuiteCorpusScope, CoversTheSuite) {
  REQUIRE_SHARED();
  EXPECT_GE(SuiteModels().size(), 73u);
}

}  // namespace
}  // namespace arenaplan::testing
