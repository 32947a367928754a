#include <gtest/gtest.h>

#include <string>

#include "runtime/arena.h"

namespace arenaplan::rt {
namespace {

alignas(16) uint8_t g_buffer[256];

TEST(ArenaTest, AlignsStartAndSize) {
  Arena a;
  ErrorText err;
  ASSERT_EQ(ArenaInit(&a, g_buffer + 3, 100, &err), StatusCode::kOk);
  EXPECT_EQ(a.lost_at_start, 13u);
  EXPECT_EQ(a.size, 80u);  // (100 - 13) rounded down to 16
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a.base) % 16, 0u);
}

TEST(ArenaTest, TailJustFitsThenFailsWithNumbers) {
  Arena a;
  ErrorText err;
  ASSERT_EQ(ArenaInit(&a, g_buffer, 64, &err), StatusCode::kOk);
  uint32_t off = 0;
  ASSERT_EQ(ArenaSetHead(&a, 16, &err, "head"), StatusCode::kOk);
  ASSERT_EQ(ArenaAllocTail(&a, 48, 16, &off, &err, "op data"), StatusCode::kOk);
  EXPECT_EQ(off, 16u);
  EXPECT_EQ(ArenaAllocTail(&a, 1, 1, &off, &err, "op data"), StatusCode::kArenaFull);
  EXPECT_EQ(std::string(err.text), "arena full: op data needs 1 bytes, 0 available");
}

TEST(ArenaTest, TailChecksLiveTemp) {
  Arena a;
  ErrorText err;
  ASSERT_EQ(ArenaInit(&a, g_buffer, 64, &err), StatusCode::kOk);
  uint32_t off = 0;
  ASSERT_EQ(ArenaAllocTemp(&a, 40, 4, &off, &err, "plan"), StatusCode::kOk);
  EXPECT_EQ(ArenaAllocTail(&a, 32, 16, &off, &err, "variable"), StatusCode::kArenaFull);  // TFLM would not check
  ASSERT_EQ(ArenaAllocTail(&a, 16, 16, &off, &err, "variable"), StatusCode::kOk);
  EXPECT_EQ(ArenaSetHead(&a, 16, &err, "head"), StatusCode::kBadState);  // temp still live
  EXPECT_EQ(a.peak, 56u);                                                // 40 temp + 16 tail
  ArenaResetTemp(&a);
  EXPECT_EQ(ArenaSetHead(&a, 48, &err, "head"), StatusCode::kOk);
  EXPECT_EQ(ArenaSetHead(&a, 49, &err, "head"), StatusCode::kArenaFull);
  EXPECT_EQ(a.peak, 64u);  // 48 head + 16 tail
  EXPECT_EQ(ArenaMinimumBytes(a), 64u);
}

TEST(ArenaTest, HugeRequestsDoNotWrap) {
  Arena a;
  ErrorText err;
  ASSERT_EQ(ArenaInit(&a, g_buffer, 64, &err), StatusCode::kOk);
  uint32_t off = 0;
  EXPECT_EQ(ArenaAllocTail(&a, 0xFFFFFFFFu, 16, &off, &err, "x"), StatusCode::kArenaFull);
  EXPECT_EQ(ArenaAllocTemp(&a, 0xFFFFFFF0u, 16, &off, &err, "x"), StatusCode::kArenaFull);
  EXPECT_EQ(ArenaSetHead(&a, 0xFFFFFFFFu, &err, "x"), StatusCode::kArenaFull);
  EXPECT_EQ(ArenaInit(&a, nullptr, 64, &err), StatusCode::kBadArgument);
}

}  // namespace
}  // namespace arenaplan::rt
