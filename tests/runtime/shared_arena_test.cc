// SharedArena (runtime/shared_arena.h) by hand-worked figures: windows, the floor that keeps a
// tail above earlier heads, shares rounded to 16, the exact smallest size; and two interpreters of
// a small model in one arena giving what each gives alone.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "model/writer.h"
#include "runtime/interpreter.h"
#include "runtime/shared_arena.h"

namespace arenaplan::rt {
namespace {

alignas(16) uint8_t g_buffer[512];

TEST(SharedArenaTest, TailStopsAtTheFloorAndThePeakCountsIt) {
  Arena a;
  ErrorText err;
  ASSERT_EQ(ArenaInit(&a, g_buffer, 128, &err), StatusCode::kOk);
  a.floor = 64;  // earlier heads in [0, 64)
  uint32_t off = 0;
  ASSERT_EQ(ArenaAllocTemp(&a, 96, 4, &off, &err, "plan"), StatusCode::kOk);  // temp may cover them
  ArenaResetTemp(&a);
  EXPECT_EQ(ArenaAllocTail(&a, 65, 1, &off, &err, "op data"), StatusCode::kArenaFull);
  EXPECT_EQ(std::string(err.text), "arena full: op data needs 65 bytes, 64 available");
  ASSERT_EQ(ArenaAllocTail(&a, 60, 4, &off, &err, "op data"), StatusCode::kOk);
  EXPECT_EQ(off, 68u);
  EXPECT_EQ(ArenaAllocTail(&a, 8, 4, &off, &err, "op data"), StatusCode::kArenaFull);  // 4 left above 64
  EXPECT_EQ(a.peak, 124u);                // max(temp peak 96 + 0, floor 64 + tail 60)
  EXPECT_EQ(ArenaMinimumBytes(a), 128u);  // rounded up to 16
}

TEST(SharedArenaTest, WindowsStackTailsAndCountHeads) {
  SharedArena s;
  ErrorText err;
  ASSERT_EQ(SharedArenaInit(&s, g_buffer + 5, 300, &err), StatusCode::kOk);
  EXPECT_EQ(s.lost_at_start, 11u);
  EXPECT_EQ(s.size, 288u);  // (300 - 11) rounded down to 16
  // Model 1: head 48, tail of 20 bytes (4-aligned), temp peak 100.
  Arena w;
  ASSERT_EQ(SharedArenaWindow(s, &w, &err), StatusCode::kOk);
  EXPECT_EQ(w.size, 288u);
  EXPECT_EQ(w.floor, 0u);
  uint32_t off = 0, share = 0, needed = 0;
  ASSERT_EQ(ArenaAllocTail(&w, 20, 4, &off, &err, "t"), StatusCode::kOk);
  ASSERT_EQ(ArenaAllocTemp(&w, 100, 4, &off, &err, "p"), StatusCode::kOk);
  ArenaResetTemp(&w);
  ASSERT_EQ(ArenaSetHead(&w, 48, &err, "h"), StatusCode::kOk);
  SharedArenaAdd(&s, w, &share, &needed);
  EXPECT_EQ(share, 32u);    // 20 rounded up to 16
  EXPECT_EQ(needed, 128u);  // AlignUp(100 + 20, 16)
  // Model 2: head 16, tail 40; its window ends below model 1's share, its tail stays above 48.
  ASSERT_EQ(SharedArenaWindow(s, &w, &err), StatusCode::kOk);
  EXPECT_EQ(w.size, 256u);
  EXPECT_EQ(w.floor, 48u);
  ASSERT_EQ(ArenaAllocTail(&w, 40, 16, &off, &err, "t"), StatusCode::kOk);
  ASSERT_EQ(ArenaSetHead(&w, 16, &err, "h"), StatusCode::kOk);
  SharedArenaAdd(&s, w, &share, &needed);
  EXPECT_EQ(share, 48u);
  EXPECT_EQ(needed, 32u + 48u + 48u);  // tails before + floor + its tail (rounded)
  EXPECT_EQ(s.tails, 80u);
  EXPECT_EQ(s.max_head, 48u);
  EXPECT_EQ(s.min_bytes, 128u);
  EXPECT_EQ(SharedArenaUsedBytes(s), 128u);
  EXPECT_EQ(s.models, 2u);
}

TEST(SharedArenaTest, NoRoomLeftAndUninitialisedFailCleanly) {
  SharedArena s;
  ErrorText err;
  Arena w;
  EXPECT_EQ(SharedArenaWindow(s, &w, &err), StatusCode::kBadState);
  EXPECT_EQ(SharedArenaInit(&s, nullptr, 64, &err), StatusCode::kBadArgument);
  ASSERT_EQ(SharedArenaInit(&s, g_buffer, 32, &err), StatusCode::kOk);
  s.tails = 32;  // as if a model had taken everything
  EXPECT_EQ(SharedArenaWindow(s, &w, &err), StatusCode::kArenaFull);
  EXPECT_NE(std::string(err.text).find("arena full"), std::string::npos);
}

using MT = model::TensorType;

// in [1,4] --ADD(in, v)--> out [1,4], float32; v is a variable tensor (zero at start).
model::ModelSpec AddVariableSpec() {
  model::ModelSpec spec;
  const uint32_t add = model::AddOperatorCode(spec, static_cast<int32_t>(tfl::BuiltinOperator::ADD));
  model::SubgraphSpec sg;
  sg.tensors = {model::TensorSpec{"in", MT::kFloat32, {1, 4}}, model::TensorSpec{"v", MT::kFloat32, {1, 4}, 0, true},
                model::TensorSpec{"out", MT::kFloat32, {1, 4}}};
  sg.inputs = {0};
  sg.outputs = {2};
  sg.operators = {model::OperatorSpec{add, {0, 1}, {2}}};
  spec.subgraphs.push_back(sg);
  return spec;
}

TEST(SharedArenaTest, TwoInterpretersInOneArenaRunInTurn) {
  const std::vector<uint8_t> m = model::WriteModel(AddVariableSpec());
  alignas(16) static uint8_t arena[4096];
  SharedArena s;
  ErrorText err;
  ASSERT_EQ(SharedArenaInit(&s, arena, sizeof(arena), &err), StatusCode::kOk);
  Interpreter a(m.data(), m.size(), AllOpsResolver(), &s), b(m.data(), m.size(), AllOpsResolver(), &s);
  ASSERT_EQ(a.AllocateTensors(), StatusCode::kOk) << a.error_message();
  ASSERT_EQ(b.AllocateTensors(), StatusCode::kOk) << b.error_message();
  EXPECT_EQ(a.input(0).data, b.input(0).data);  // one head
  EXPECT_EQ(s.tails, a.memory_record().shared_tail_bytes + b.memory_record().shared_tail_bytes);
  const float x[4] = {1, 2, 3, 4}, y[4] = {-1, 0, 5, 7};
  for (int round = 0; round < 3; ++round) {
    std::memcpy(a.input(0).data, x, sizeof(x));
    ASSERT_EQ(a.Invoke(), StatusCode::kOk);
    EXPECT_EQ(a.output(0).As<float>()[3], 4.0f);  // the variable (in the tail) is zero
    std::memcpy(b.input(0).data, y, sizeof(y));
    ASSERT_EQ(b.Invoke(), StatusCode::kOk);
    EXPECT_EQ(b.output(0).As<float>()[0], -1.0f);
    EXPECT_EQ(b.output(0).As<float>()[3], 7.0f);
  }
}

TEST(SharedArenaTest, VariableInTheHeadIsRefused) {
  model::ModelSpec spec = AddVariableSpec();
  const std::vector<int32_t> words = {1, 0, 3, 0, 16, 32};  // version, subgraph, N, offsets: v in the head
  std::vector<uint8_t> plan(words.size() * 4);
  std::memcpy(plan.data(), words.data(), plan.size());
  model::SetMetadata(spec, "OfflineMemoryAllocation", plan);
  const std::vector<uint8_t> m = model::WriteModel(spec);
  alignas(16) static uint8_t arena[4096];
  Interpreter alone(m.data(), m.size(), AllOpsResolver(), arena, sizeof(arena));
  ASSERT_EQ(alone.AllocateTensors(), StatusCode::kOk) << alone.error_message();
  SharedArena s;
  ErrorText err;
  ASSERT_EQ(SharedArenaInit(&s, arena, sizeof(arena), &err), StatusCode::kOk);
  Interpreter shared(m.data(), m.size(), AllOpsResolver(), &s);
  EXPECT_EQ(shared.AllocateTensors(), StatusCode::kUnsupported);
  EXPECT_STREQ(shared.error_message(),
               "variable tensor 1 is in the head (offline plan): a shared arena overwrites it between models");
  EXPECT_EQ(s.models, 0u);
}

}  // namespace
}  // namespace arenaplan::rt
