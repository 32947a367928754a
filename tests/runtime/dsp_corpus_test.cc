// Every corpus model with golden TFLM io files that uses an op of the fast kernel table, run with
// DspOpsResolver() (the Cortex-M DSP fast paths; their instructions emulated on the host):
// AllocateTensors succeeds or fails exactly as with the portable kernels, every output byte equals
// the portable kernels' (and so TFLM's golden bytes, which runtime_corpus_test checks for those),
// and the smallest arena it reports, fast-path scratch included, is exact.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

#include "golden_testutil.h"
#include "runtime/kernels/dsp/registrations.h"
#include "support/shared_dir.h"

namespace arenaplan::testing {
namespace {

// Room for any plan: the portable arena is at most TFLM's (runtime_corpus_test), fast scratch is small.
size_t BigArena(const GoldenModel& m) { return 2 * static_cast<size_t>(m.tflm_arena_used) + (1u << 20); }

// Builtin names of the ops the fast table overrides (read from the table itself).
std::set<std::string> FastOps() {
  std::set<std::string> names;
  const rt::OpResolver& r = rt::DspOpsResolver();
  for (uint32_t i = 0; i < r.count; ++i) {
    names.insert(tfl::EnumNameBuiltinOperator(static_cast<tfl::BuiltinOperator>(r.entries[i].builtin_code)));
  }
  return names;
}

std::vector<GoldenModel> FastModels() {
  const std::set<std::string> fast = FastOps();
  std::vector<GoldenModel> out;
  for (auto& m : GoldenIoModels()) {
    for (const auto& op : m.ops) {
      if (fast.count(op)) {
        out.push_back(m);
        break;
      }
    }
  }
  return out;
}

void FillGoldenInputs(const GoldenModel& m, rt::Interpreter& interp) {
  for (uint32_t k = 0; k < interp.inputs_size(); ++k) {
    const std::vector<uint8_t> bytes = ReadFileBytes(IoPath(m, "in" + std::to_string(k)));
    ASSERT_EQ(bytes.size(), interp.input(k).bytes) << m.model << " input " << k;
    std::memcpy(interp.input(k).data, bytes.data(), bytes.size());
  }
}

// Allocates and invokes once with the golden inputs; "" or the failure.
std::string AllocateAndInvoke(const GoldenModel& m, RuntimeRun& run) {
  if (run.interp->AllocateTensors() != rt::StatusCode::kOk) return std::string("alloc: ") + run.interp->error_message();
  FillGoldenInputs(m, *run.interp);
  if (run.interp->Invoke() != rt::StatusCode::kOk) return std::string("invoke: ") + run.interp->error_message();
  return "";
}

void ExpectSameOutputs(const GoldenModel& m, rt::Interpreter& want, rt::Interpreter& got) {
  ASSERT_EQ(want.outputs_size(), got.outputs_size());
  for (uint32_t k = 0; k < got.outputs_size(); ++k) {
    const rt::TensorView a = want.output(k), b = got.output(k);
    ASSERT_EQ(a.bytes, b.bytes) << m.model << " output " << k;
    EXPECT_EQ(std::memcmp(a.data, b.data, a.bytes), 0) << m.model << " output " << k << " differs from portable";
  }
}

class DspCorpus : public ::testing::TestWithParam<GoldenModel> {};

TEST_P(DspCorpus, SameAsPortableWithExactSmallestArena) {
  REQUIRE_SHARED();
  const GoldenModel& m = GetParam();
  const std::vector<uint8_t> bytes = ReadFileBytes(ModelPath(m));
  auto portable = MakeRun(bytes, BigArena(m));
  auto fast = MakeRun(bytes, BigArena(m), rt::InterpreterOptions(), rt::DspOpsResolver());
  const std::string p = AllocateAndInvoke(m, *portable), f = AllocateAndInvoke(m, *fast);
  ASSERT_EQ(f, p) << m.model;
  if (!p.empty()) return;  // refused alike (the portable refusal is checked by runtime_corpus_test)
  ExpectSameOutputs(m, *portable->interp, *fast->interp);
  const uint32_t min_bytes = fast->interp->memory_record().min_arena_bytes;
  auto exact = MakeRun(bytes, min_bytes, rt::InterpreterOptions(), rt::DspOpsResolver());
  ASSERT_EQ(AllocateAndInvoke(m, *exact), "") << m.model << " at its smallest arena " << min_bytes;
  ExpectSameOutputs(m, *portable->interp, *exact->interp);
  auto tight = MakeRun(bytes, min_bytes - 1, rt::InterpreterOptions(), rt::DspOpsResolver());
  EXPECT_EQ(tight->interp->AllocateTensors(), rt::StatusCode::kArenaFull) << m.model;
}

INSTANTIATE_TEST_SUITE_P(Golden, DspCorpus, ::testing::ValuesIn(FastModels()),
                         [](const ::testing::TestParamInfo<GoldenModel>& info) { return ParamName(info.param); });
CORPUS_SUITE_MAY_BE_EMPTY(DspCorpus);

TEST(DspCorpusScope, CoversTheInt8Models) {
  REQUIRE_SHARED();
  const auto models = FastModels();
  std::printf("fast-kernel corpus: %zu models use an op of the fast table\n", models.size());
  EXPECT_GT(models.size(), 50u);
}

}  // namespace
}  // namespace arenaplan::testing
