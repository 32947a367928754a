// TFLM's greedy placement (rules/greedy.h) against TFLM's own greedy_memory_planner_test vectors
// (docs/tflm-arena.md §4; TFLM's sizes are not 16-multiples there, so alignment 1), best-fit gaps
// on a case where first-fit wastes memory, and the candidate rounding after an unaligned fixed
// offset.
#include <gtest/gtest.h>

#include <vector>

#include "rules/greedy.h"
#include "rules/limits.h"

namespace arenaplan::rules {
namespace {

struct Planned {
  std::vector<int32_t> offsets;
  uint32_t head = 0;
};

Planned Plan(std::vector<PlanBuffer> bufs, GapRule rule = GapRule::kFirstFit, uint32_t alignment = 1) {
  std::vector<uint16_t> order(bufs.size()), next(bufs.size());
  Planned p;
  ErrorText err;
  EXPECT_EQ(PlaceBuffers(bufs.data(), static_cast<uint32_t>(bufs.size()), alignment, rule, order.data(), next.data(),
                         &p.head, &err),
            StatusCode::kOk)
      << err.text;
  for (const auto& b : bufs) p.offsets.push_back(b.offset);
  return p;
}

TEST(GreedyTest, TflmBasic) {
  const Planned p = Plan({{10, 0, 1, kOnline}, {20, 2, 3, kOnline}});
  EXPECT_EQ(p.offsets, (std::vector<int32_t>{0, 0}));
  EXPECT_EQ(p.head, 20u);
}

TEST(GreedyTest, TflmMedium) {
  const Planned p = Plan(
      {{10, 0, 1, kOnline}, {20, 1, 2, kOnline}, {30, 2, 3, kOnline}, {40, 3, 4, kOnline}, {50, 0, 1, kOnline}});
  EXPECT_EQ(p.offsets, (std::vector<int32_t>{50, 70, 40, 0, 0}));
  EXPECT_EQ(p.head, 90u);
}

TEST(GreedyTest, TflmOverlap) {
  const Planned p = Plan({{100, 0, 1, kOnline}, {50, 2, 3, kOnline}, {20, 1, 2, kOnline}});
  EXPECT_EQ(p.head, 120u);
}

TEST(GreedyTest, TflmBranchesTieBreakIsLaterAddedFirst) {
  const Planned p = Plan({{48, 0, 2, kOnline}, {48, 1, 3, kOnline}, {48, 2, 3, kOnline}, {48, 3, 3, kOnline}});
  EXPECT_EQ(p.offsets, (std::vector<int32_t>{0, 96, 48, 0}));
  EXPECT_EQ(p.head, 144u);
}

TEST(GreedyTest, FixedBuffersStayAndOnlineFitsAround) {
  const Planned p = Plan({{64, 0, 5, 32}, {32, 0, 5, kOnline}, {16, 0, 5, kOnline}});
  EXPECT_EQ(p.offsets, (std::vector<int32_t>{32, 0, 96}));
  EXPECT_EQ(p.head, 112u);
}

// Placed: A [0,32) live 0..9 and B [48,64) live 0..9, gap 16 at 32 and a gap of 16... first-fit
// takes the first hole that fits; best-fit the tightest one.
TEST(GreedyTest, BestFitTakesTightestGap) {
  std::vector<PlanBuffer> bufs = {{32, 0, 9, 0}, {16, 0, 9, 64}, {8, 0, 9, 88}, {8, 0, 9, kOnline}};
  // Gaps among fixed buffers: [32,64) = 32 bytes, [80,88) = 8 bytes.
  EXPECT_EQ(Plan(bufs, GapRule::kFirstFit).offsets[3], 32);
  EXPECT_EQ(Plan(bufs, GapRule::kBestFit).offsets[3], 80);
}

// A fixed buffer at 8 (an offline plan may say so): TFLM would put the next buffer at its end, 24;
// with alignment 16 the candidate is rounded up to 32.
TEST(GreedyTest, CandidatesAreRoundedUpToTheAlignment) {
  std::vector<PlanBuffer> bufs = {{16, 0, 9, 8}, {16, 0, 9, kOnline}};
  EXPECT_EQ(Plan(bufs, GapRule::kFirstFit, 1).offsets[1], 24);
  EXPECT_EQ(Plan(bufs, GapRule::kFirstFit, 16).offsets[1], 32);
  EXPECT_EQ(Plan(bufs, GapRule::kFirstFit, 16).head, 48u);
}

TEST(GreedyTest, TooManyBuffersIsAnError) {
  std::vector<PlanBuffer> bufs(kMaxPlanBuffers + 1, PlanBuffer{16, 0, 0, kOnline});
  std::vector<uint16_t> order(bufs.size()), next(bufs.size());
  uint32_t head = 0;
  ErrorText err;
  EXPECT_EQ(PlaceBuffers(bufs.data(), static_cast<uint32_t>(bufs.size()), 16, GapRule::kFirstFit, order.data(),
                         next.data(), &head, &err),
            StatusCode::kUnsupported);
  EXPECT_NE(std::string(err.text).find("too many buffers"), std::string::npos);
}

}  // namespace
}  // namespace arenaplan::rules
