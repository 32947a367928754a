// Several corpus models in one shared arena (runtime/shared_arena.h): every output equals TFLM's
// golden bytes (which are also what each model gives alone, runtime_corpus_test), in an
// interleaved order (A, B, C, D, A, B, C, A, D, B), and the resource variable of
// litert_call_once_resource_vars_f32 survives the other models' runs (its second Invoke equals
// TFLM's second Invoke). The shared arena's size is exact and equals the figure derived by hand
// from each model's single-arena figures; at one 16-byte step less the model the rule names fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "runtime/interpreter.h"
#include "runtime/shared_arena.h"
#include "support/shared_dir.h"
#include "util/aligned_bytes.h"

namespace arenaplan::testing {
namespace {

using rt::Interpreter;
using rt::SharedArena;
using rt::StatusCode;

// Small models of different kinds, the largest head first, so that the later tails must stay
// above it (the floor sets the size); the third carries a resource variable (CALL_ONCE init).
const char* const kModels[] = {"mlperf_kws_dscnn_int8", "tflm_micro_speech_int8", "litert_call_once_resource_vars_f32",
                               "tflm_hello_world_int8"};
constexpr size_t kNumModels = sizeof(kModels) / sizeof(kModels[0]);

std::string Io(const std::string& stem, const std::string& suffix) {
  return *SharedDir() + "/golden/tflm-x86_64/io/" + stem + "." + suffix + ".bin";
}

// Each model alone: its smallest arena, head and tail.
struct Alone {
  uint32_t min = 0, head = 0, tail = 0;
};

Alone RunAlone(const std::vector<uint8_t>& model) {
  AlignedBytes arena(4u << 20);
  Interpreter interp(model.data(), model.size(), rt::AllOpsResolver(), arena.data(), 4u << 20);
  EXPECT_EQ(interp.AllocateTensors(), StatusCode::kOk) << interp.error_message();
  const rt::MemoryRecord& r = interp.memory_record();
  return Alone{r.min_arena_bytes, r.head_bytes, r.tail_bytes};
}

uint32_t Up16(uint32_t v) { return (v + 15u) & ~15u; }

// The shared arena by hand: model k needs its own smallest arena above the tails before it
// (P(k-1) + min_k), and its tail must stay above every earlier head (P(k) + max head before k).
// Returns the size; *first_limited = the first model where the maximum is reached.
uint32_t ExpectedShared(const std::vector<Alone>& alone, size_t* first_limited) {
  uint32_t tails = 0, max_head = 0, size = 0;
  for (size_t k = 0; k < alone.size(); ++k) {
    const uint32_t need = std::max(tails + alone[k].min, tails + Up16(alone[k].tail) + max_head);
    if (need > size) {
      size = need;
      *first_limited = k;
    }
    tails += Up16(alone[k].tail);
    max_head = std::max(max_head, alone[k].head);
  }
  return size;
}

class SharedArenaCorpus : public ::testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_SHARED();
    for (const char* m : kModels) models_.push_back(ReadFileBytes(*SharedDir() + "/models/" + m + ".tflite"));
  }
  // Interpreters over `shared`, allocated in order; stops at the first failure (its index).
  size_t AllocateAll(SharedArena* shared) {
    interps_.clear();
    for (size_t k = 0; k < kNumModels; ++k) {
      interps_.push_back(
          std::make_unique<Interpreter>(models_[k].data(), models_[k].size(), rt::AllOpsResolver(), shared));
      if (interps_[k]->AllocateTensors() != StatusCode::kOk) return k;
    }
    return kNumModels;
  }
  // Writes model k's inputs (golden file `seq` + "in<j>"), invokes, compares with the golden outputs.
  void InvokeAndCompare(size_t k, const std::string& seq) {
    Interpreter& in = *interps_[k];
    SCOPED_TRACE(std::string(kModels[k]) + " " + seq);
    for (uint32_t j = 0; j < in.inputs_size(); ++j) {
      const std::vector<uint8_t> bytes = ReadFileBytes(Io(kModels[k], seq + "in" + std::to_string(j)));
      ASSERT_EQ(bytes.size(), in.input(j).bytes);
      std::memcpy(in.input(j).data, bytes.data(), bytes.size());
    }
    ASSERT_EQ(in.Invoke(), StatusCode::kOk) << in.error_message();
    for (uint32_t j = 0; j < in.outputs_size(); ++j) {
      const std::vector<uint8_t> golden = ReadFileBytes(Io(kModels[k], seq + "out" + std::to_string(j)));
      const rt::TensorView o = in.output(j);
      ASSERT_EQ(o.bytes, golden.size());
      EXPECT_EQ(std::memcmp(o.data, golden.data(), golden.size()), 0) << "output " << j;
    }
  }
  std::vector<std::vector<uint8_t>> models_;
  std::vector<std::unique_ptr<Interpreter>> interps_;
};

TEST_F(SharedArenaCorpus, SmallestSharedArenaIsTheHandDerivedFigure) {
  std::vector<Alone> alone;
  for (const auto& m : models_) alone.push_back(RunAlone(m));
  size_t limited = 0;
  const uint32_t expected = ExpectedShared(alone, &limited);
  AlignedBytes big(4u << 20);
  SharedArena shared;
  rt::ErrorText error;
  ASSERT_EQ(rt::SharedArenaInit(&shared, big.data(), 4u << 20, &error), StatusCode::kOk);
  ASSERT_EQ(AllocateAll(&shared), kNumModels) << interps_.back()->error_message();
  EXPECT_EQ(shared.min_bytes, expected);
  uint32_t tails = 0, max_head = 0;
  for (size_t k = 0; k < kNumModels; ++k) {
    const rt::MemoryRecord& r = interps_[k]->memory_record();
    EXPECT_EQ(r.head_bytes, alone[k].head) << kModels[k];  // the same plan as alone
    EXPECT_EQ(r.tail_bytes, alone[k].tail) << kModels[k];
    EXPECT_EQ(r.shared_tail_bytes, Up16(alone[k].tail)) << kModels[k];
    tails += r.shared_tail_bytes;
    max_head = std::max(max_head, r.head_bytes);
  }
  EXPECT_EQ(shared.tails, tails);
  EXPECT_EQ(shared.max_head, max_head);
  EXPECT_EQ(rt::SharedArenaUsedBytes(shared), max_head + tails);
  EXPECT_LE(rt::SharedArenaUsedBytes(shared), shared.min_bytes);
}

TEST_F(SharedArenaCorpus, InterleavedRunsAtTheSmallestArenaMatchGolden) {
  uint32_t min_bytes = 0;
  {
    AlignedBytes big(4u << 20);
    SharedArena probe;
    rt::ErrorText error;
    ASSERT_EQ(rt::SharedArenaInit(&probe, big.data(), 4u << 20, &error), StatusCode::kOk);
    ASSERT_EQ(AllocateAll(&probe), kNumModels);
    min_bytes = probe.min_bytes;
  }
  AlignedBytes arena(min_bytes);
  std::memset(arena.data(), 0xA5, min_bytes);  // nothing may rely on a zeroed arena
  SharedArena shared;
  rt::ErrorText error;
  ASSERT_EQ(rt::SharedArenaInit(&shared, arena.data(), min_bytes, &error), StatusCode::kOk);
  ASSERT_EQ(AllocateAll(&shared), kNumModels) << interps_.back()->error_message();
  EXPECT_EQ(shared.min_bytes, min_bytes);
  // C sets its resource variable on its first Invoke; D, A, B overwrite the head; C's second
  // Invoke reads the variable from its tail and must equal TFLM's second Invoke; then A, D, B again.
  for (size_t k = 0; k < kNumModels; ++k) InvokeAndCompare(k, "");
  InvokeAndCompare(0, "");
  InvokeAndCompare(1, "");
  InvokeAndCompare(2, "seq1.");
  InvokeAndCompare(0, "");
  InvokeAndCompare(3, "");
  InvokeAndCompare(1, "");
}

TEST_F(SharedArenaCorpus, OneStepLessFailsAtTheModelTheRuleNames) {
  std::vector<Alone> alone;
  for (const auto& m : models_) alone.push_back(RunAlone(m));
  size_t limited = 0;
  const uint32_t min_bytes = ExpectedShared(alone, &limited);
  EXPECT_GT(limited, 0u);  // a later model's tail meets the first model's head
  for (const uint32_t bytes : {min_bytes - 1, min_bytes - 16}) {
    AlignedBytes arena(bytes);
    SharedArena shared;
    rt::ErrorText error;
    ASSERT_EQ(rt::SharedArenaInit(&shared, arena.data(), bytes, &error), StatusCode::kOk);
    const size_t failed = AllocateAll(&shared);
    ASSERT_EQ(failed, limited) << bytes;
    EXPECT_NE(std::string(interps_[failed]->error_message()).find("arena full"), std::string::npos)
        << interps_[failed]->error_message();
    EXPECT_EQ(interps_[failed]->Invoke(), StatusCode::kBadState);
    EXPECT_EQ(shared.models, failed);  // a failed model adds nothing
  }
}

}  // namespace
}  // namespace arenaplan::testing
