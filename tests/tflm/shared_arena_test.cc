// ComputeSharedArenaSize on two small built models, against the allocation sequence worked out by
// hand from the documented struct sizes (docs/tflm-arena.md §1-§2, §7): the allocator objects once,
// each model's tail from where the previous one ended (so the order moves the padding), the head
// the larger plan, and the smallest arena from the later model's peaks. Needs no ../shared.
#include <gtest/gtest.h>

#include <string>

#include "built_model_testutil.h"
#include "tflm/arena_size.h"
#include "tflm/shared_arena.h"

namespace arenaplan::tflm {
namespace {

using testing::BuildModel;
using testing::BuiltModel;
using testing::FcModel;

// FcModel with one more constant tensor (f32[1], never read): 24 B more eval tensors, 32 B more
// AllocationInfo, nothing more planned.
BuiltModel FcWithExtraConstant() {
  model::ModelSpec spec = FcModel();
  const uint32_t buffer = model::AddBuffer(spec, std::vector<uint8_t>(4, 0));
  spec.subgraphs[0].tensors.push_back({"c", model::TensorType::kFloat32, {1}, buffer, false, std::nullopt, {}});
  return BuildModel(spec);
}

const Target& X86() { return **FindTarget("tflm-x86_64"); }

TEST(SharedArena, OneModelIsTheSingleModelSize) {
  BuiltModel a = BuildModel(FcModel());
  auto one = ComputeArenaSize(a.model, X86());
  auto shared = ComputeSharedArenaSize({{"a", &a.model}}, X86());
  ASSERT_TRUE(one.ok() && shared.ok());
  EXPECT_EQ(shared->head_bytes, one->head_bytes);
  EXPECT_EQ(shared->tail_bytes, one->tail_bytes);
  EXPECT_EQ(shared->arena_used_bytes, one->arena_used_bytes);
  EXPECT_EQ(shared->min_arena_bytes, one->min_arena_bytes);
  ASSERT_EQ(shared->models.size(), 1u);
  EXPECT_EQ(shared->models[0].tail_bytes, one->tail_bytes - 216);  // 3 x 72 B allocator objects
}

// A = FcModel: from tail 216 (not 16-aligned) it adds 440 (arena_size_test: 656 in all); from a
// 16-aligned tail the 16-aligned OpData and pointer arrays need 8 B less padding: 432.
// B = A + one constant tensor: 456 from 216, 464 from 656.
TEST(SharedArena, OrderMovesThePaddingByHand) {
  BuiltModel a = BuildModel(FcModel());
  BuiltModel b = FcWithExtraConstant();
  auto ab = ComputeSharedArenaSize({{"a", &a.model}, {"b", &b.model}}, X86());
  auto ba = ComputeSharedArenaSize({{"b", &b.model}, {"a", &a.model}}, X86());
  ASSERT_TRUE(ab.ok() && ba.ok());
  ASSERT_TRUE(ab->supported && ba->supported) << ab->error << ba->error;
  EXPECT_EQ(ab->allocator_object_bytes, 216u);
  // A, B: 216 + 440 + 464 = 1120; head 48 (both plans are 48).
  ASSERT_EQ(ab->models.size(), 2u);
  EXPECT_EQ(ab->models[0].tail_bytes, 440u);
  EXPECT_EQ(ab->models[1].tail_bytes, 464u);
  EXPECT_EQ(ab->models[0].arena_used_bytes, 48u + 656u);
  EXPECT_EQ(ab->models[1].arena_used_bytes, 48u + 1120u);
  EXPECT_EQ(ab->head_bytes, 48u);
  EXPECT_EQ(ab->tail_bytes, 1120u);
  EXPECT_EQ(ab->arena_used_bytes, 1168u);
  // B's Prepare: its tail then (after OpData, 960) + request array 192 + 4 temporary
  // TfLiteTensors x 64 = 1408; its planning peak is 960 + (192 + 8 + 5 x 32 = 360 -> 368, + 2 x 40)
  // = 1408 as well.
  EXPECT_EQ(ab->min_arena_bytes, 1408u);
  // B, A: 216 + 456 + 432 = 1104. A's Prepare: 944 + 448 = 1392 (its planning peak: 944 + 416).
  EXPECT_EQ(ba->models[0].tail_bytes, 456u);
  EXPECT_EQ(ba->models[1].tail_bytes, 432u);
  EXPECT_EQ(ba->tail_bytes, 1104u);
  EXPECT_EQ(ba->arena_used_bytes, 1152u);
  EXPECT_EQ(ba->min_arena_bytes, 1392u);
  // Both searches find B, A (indices into each call's own list).
  ASSERT_TRUE(ab->cheapest.searched);
  EXPECT_EQ(ab->cheapest.best, (std::vector<size_t>{1, 0}));
  EXPECT_EQ(ab->cheapest.best_min_arena_bytes, 1392u);
  EXPECT_EQ(ab->cheapest.best_arena_used_bytes, 1152u);
  EXPECT_EQ(ab->cheapest.orders_tried, 2u);
  EXPECT_EQ(ba->cheapest.best, (std::vector<size_t>{0, 1}));
}

TEST(SharedArena, SevenModelsAreNotSearched) {
  BuiltModel a = BuildModel(FcModel());
  std::vector<Tenant> seven(7, Tenant{"a", &a.model});
  auto s = ComputeSharedArenaSize(seven, X86());
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(s->cheapest.searched);
  EXPECT_EQ(s->models.size(), 7u);
  // The first copy adds 440, every later one starts 16-aligned and adds 432.
  EXPECT_EQ(s->tail_bytes, 216u + 440u + 6u * 432u);
}

TEST(SharedArena, AModelTflmCannotAllocateIsNamed) {
  BuiltModel a = BuildModel(FcModel());
  BuiltModel pow = BuildModel(FcModel(78));  // POW: no TFLM kernel
  auto s = ComputeSharedArenaSize({{"a.tflite", &a.model}, {"pow.tflite", &pow.model}}, X86());
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(s->allocates);
  EXPECT_FALSE(s->supported);
  EXPECT_EQ(s->error.rfind("pow.tflite: Didn't find op for builtin opcode 'POW'", 0), 0u) << s->error;
}

}  // namespace
}  // namespace arenaplan::tflm
