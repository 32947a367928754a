// ComputeArenaSize on small models built in memory: the tail arithmetic checked against sums
// worked out by hand from the documented struct sizes (docs/tflm-arena.md §1-§2, §7), and the
// unsupported cases. Needs no ../shared.
#include <gtest/gtest.h>

#include <string>

#include "built_model_testutil.h"
#include "model/model.h"
#include "model/writer.h"
#include "tflm/arena_size.h"
#include "tflm/kernels.h"

namespace arenaplan::tflm {
namespace {

using model::TensorType;

using testing::FcModel;
using Built = testing::BuiltModel;
Built Build(const model::ModelSpec& spec) { return testing::BuildModel(spec); }

TEST(ArenaSize, FullyConnectedFloatOnX86ByHand) {
  Built b = Build(FcModel());
  auto s = ComputeArenaSize(b.model, **FindTarget("tflm-x86_64"));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_TRUE(s->supported) << s->error;
  // Head: input 16 B alive [0,1], output 32 B alive [1,1] -> stacked: 48.
  EXPECT_EQ(s->head_bytes, 48u);
  // Tail: 232 fixed + 16 SubgraphAllocations + 4x24 eval + 64 node = 408; FC params 16 -> 424;
  // OpDataFullyConnected 64 at 16 alignment -> 496; input ptr array 8 -> 512, TfLiteTensor 64 -> 576;
  // output ptr array -> 592, TfLiteTensor -> 656.
  EXPECT_EQ(s->tail_bytes, 656u);
  EXPECT_EQ(s->arena_used_bytes, 704u);
  // Planning peak: tail before I/O 496 + request array 16x12 + size_t 8 + AllocationInfo 4x32 = 328,
  // rounded to 336, + 2 planned buffers x 40 = 416 -> 912.
  EXPECT_EQ(s->planning_peak_bytes, 912u);
  // Prepare: the tail then (496) + request array 192 + temporary TfLiteTensors for input, weights,
  // bias and output, 4 x 64 = 944, above the planning peak.
  EXPECT_EQ(s->min_arena_bytes, 944u);
  EXPECT_EQ(TailBytes(*s, kTailEvalTensors), 96u);
  EXPECT_EQ(TailBytes(*s, kTailNodes), 64u);
  EXPECT_EQ(TailBytes(*s, kTailOpOptions), 16u);
  EXPECT_EQ(TailBytes(*s, kTailIoTensors), 128u);
}

TEST(ArenaSize, FullyConnectedFloatOnCortexMByHand) {
  Built b = Build(FcModel());
  auto s = ComputeArenaSize(b.model, **FindTarget("tflm-cortex-m"));
  ASSERT_TRUE(s.ok() && s->supported);
  // 124 fixed + 8 SubgraphAllocations + 4x12 eval + 32 node = 212; FC params 5 (short enums,
  // align 1) -> 217; OpData 48 at 16 -> 272; ptr array 4 -> 288, TfLiteTensor 32 -> 320;
  // ptr array -> 336, TfLiteTensor -> 368.
  EXPECT_EQ(s->tail_bytes, 368u);
  // Peak: 272 + (12x12 + 4 + 4x24 = 244 -> 256) + 80 = 608.
  EXPECT_EQ(s->min_arena_bytes, 608u);
}

TEST(ArenaSize, OpTflmLacksIsUnsupportedByName) {
  Built b = Build(FcModel(78));  // POW
  auto s = ComputeArenaSize(b.model, **FindTarget("tflm-x86_64"));
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(s->allocates);
  EXPECT_FALSE(s->supported);
  EXPECT_NE(s->error.find("Didn't find op for builtin opcode 'POW'"), std::string::npos) << s->error;
}

TEST(ArenaSize, CastFromUint8FailsAtInvokeButAllocates) {
  Built b = Build(FcModel(53, TensorType::kUInt8));  // CAST uint8 -> float
  auto s = ComputeArenaSize(b.model, **FindTarget("tflm-x86_64"));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_TRUE(s->allocates);
  EXPECT_FALSE(s->supported);
  EXPECT_NE(s->error.find("Input type UINT8 (3) not supported"), std::string::npos) << s->error;
  EXPECT_GT(s->tail_bytes, 0u);
}

TEST(ArenaSize, ScratchRequestsFollowKernelRules) {
  Built b = Build(FcModel());
  auto r = ScratchRequests(b.model, **FindTarget("tflm-x86_64"));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->empty());  // reference FULLY_CONNECTED requests no scratch
}

TEST(ArenaSize, HybridFullyConnectedFailsInPrepareNamingTheTypes) {
  Built b = Build(FcModel(9, TensorType::kFloat32, TensorType::kInt8));
  auto s = ComputeArenaSize(b.model, **FindTarget("tflm-cortex-m"));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_FALSE(s->allocates);
  EXPECT_FALSE(s->supported);
  EXPECT_NE(s->error.find("Input type: FLOAT32 with filter type: INT8 not supported"), std::string::npos) << s->error;
}

TEST(ArenaSize, Int4WeightsAreUnpackedIntoAScratchBuffer) {
  // int8 activations with packed int4 weights: Prepare requests one byte per filter element (8x4).
  Built b = Build(FcModel(9, TensorType::kInt8, TensorType::kInt4));
  auto r = ScratchRequests(b.model, **FindTarget("tflm-cortex-m"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].bytes, 32u);
}

TEST(ArenaSize, GatherNdCopiesOutputDimsInPrepare) {
  // GATHER_ND has no Init; Prepare moves the output dims (rank 2 here) into a persistent
  // TfLiteIntArray: 4 + 4 x 2 = 12 B, which takes 16 at the 16-byte alignment.
  Built b = Build(FcModel(107));
  auto a = EvaluateKernel(b.model, 0, 0, **FindTarget("tflm-cortex-m"));
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->init_bytes, 0u);
  ASSERT_EQ(a->prepare_bytes.size(), 1u);
  EXPECT_EQ(a->prepare_bytes[0], 12u);
}

TEST(ArenaSize, ComparisonAndWhileOpDataFromTheirStructs) {
  // OpData {ComparisonParams}: 7 x int32 + bool = 29 -> 32; WHILE OpData: two int subgraph indices.
  for (const char* op : {"LESS", "EQUAL", "GREATER_EQUAL"}) {
    const KernelEntry* e = FindKernelEntry(op);
    ASSERT_NE(e, nullptr) << op;
    EXPECT_EQ(e->init_bytes[0], 32);
    EXPECT_EQ(e->init_bytes[2], 32);
  }
  ASSERT_NE(FindKernelEntry("WHILE"), nullptr);
  EXPECT_EQ(FindKernelEntry("WHILE")->init_bytes[1], 8);
}

}  // namespace
}  // namespace arenaplan::tflm
