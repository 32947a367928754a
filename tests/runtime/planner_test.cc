// The runtime's in-arena planner against TFLM's own greedy_memory_planner_test vectors
// (docs/tflm-arena.md §4), and best-fit on a case where first-fit wastes memory.
#include <gtest/gtest.h>

#include <vector>

#include "runtime/plan_buffers.h"

namespace arenaplan::rt {
namespace {

struct Planned {
  std::vector<int32_t> offsets;
  uint32_t head = 0;
};

Planned Plan(std::vector<PlanBuffer> bufs, PlannerKind kind = PlannerKind::kGreedy) {
  std::vector<uint16_t> order(bufs.size()), next(bufs.size());
  Planned p;
  ErrorText err;
  EXPECT_EQ(PlanOnline(bufs.data(), static_cast<uint32_t>(bufs.size()), order.data(), next.data(), kind, &p.head, &err),
            StatusCode::kOk)
      << err.text;
  for (const auto& b : bufs) p.offsets.push_back(b.offset);
  return p;
}

TEST(PlannerTest, TflmBasic) {
  const Planned p = Plan({{10, 0, 1, kOnline}, {20, 2, 3, kOnline}});
  EXPECT_EQ(p.offsets, (std::vector<int32_t>{0, 0}));
  EXPECT_EQ(p.head, 20u);
}

TEST(PlannerTest, TflmMedium) {
  const Planned p = Plan({{10, 0, 1, kOnline}, {20, 1, 2, kOnline}, {30, 2, 3, kOnline}, {40, 3, 4, kOnline},
                          {50, 0, 1, kOnline}});
  EXPECT_EQ(p.offsets, (std::vector<int32_t>{50, 70, 40, 0, 0}));
  EXPECT_EQ(p.head, 90u);
}

TEST(PlannerTest, TflmOverlap) {
  const Planned p = Plan({{100, 0, 1, kOnline}, {50, 2, 3, kOnline}, {20, 1, 2, kOnline}});
  EXPECT_EQ(p.head, 120u);
}

TEST(PlannerTest, TflmBranchesTieBreakIsLaterAddedFirst) {
  const Planned p = Plan({{48, 0, 2, kOnline}, {48, 1, 3, kOnline}, {48, 2, 3, kOnline}, {48, 3, 3, kOnline}});
  EXPECT_EQ(p.offsets, (std::vector<int32_t>{0, 96, 48, 0}));
  EXPECT_EQ(p.head, 144u);
}

TEST(PlannerTest, FixedBuffersStayAndOnlineFitsAround) {
  const Planned p = Plan({{64, 0, 5, 32}, {32, 0, 5, kOnline}, {16, 0, 5, kOnline}});
  EXPECT_EQ(p.offsets, (std::vector<int32_t>{32, 0, 96}));
  EXPECT_EQ(p.head, 112u);
}

// Placed: A [0,32) live 0..9 and B [48,64) live 0..9, gap 16 at 32 and a gap of 16... first-fit
// takes the first hole that fits; best-fit the tightest one.
TEST(PlannerTest, BestFitTakesTightestGap) {
  std::vector<PlanBuffer> bufs = {{32, 0, 9, 0}, {16, 0, 9, 64}, {8, 0, 9, 88}, {8, 0, 9, kOnline}};
  // Gaps among fixed buffers: [32,64) = 32 bytes, [80,88) = 8 bytes.
  EXPECT_EQ(Plan(bufs, PlannerKind::kGreedy).offsets[3], 32);
  EXPECT_EQ(Plan(bufs, PlannerKind::kBestFit).offsets[3], 80);
}

TEST(PlannerTest, TooManyBuffersIsAnError) {
  std::vector<PlanBuffer> bufs(kMaxPlanBuffers + 1, PlanBuffer{16, 0, 0, kOnline});
  std::vector<uint16_t> order(bufs.size()), next(bufs.size());
  uint32_t head = 0;
  ErrorText err;
  EXPECT_EQ(PlanOnline(bufs.data(), static_cast<uint32_t>(bufs.size()), order.data(), next.data(),
                       PlannerKind::kGreedy, &head, &err),
            StatusCode::kUnsupported);
  EXPECT_NE(std::string(err.text).find("too many buffers"), std::string::npos);
}

}  // namespace
}  // namespace arenaplan::rt
