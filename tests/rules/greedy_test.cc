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

Planned PlanTied(std::vector<PlanBuffer> bufs, std::vector<uint16_t> above, GapRule rule = GapRule::kFirstFit) {
  std::vector<uint16_t> order(bufs.size()), next(bufs.size());
  Planned p;
  ErrorText err;
  EXPECT_EQ(PlaceBuffers(bufs.data(), static_cast<uint32_t>(bufs.size()), 16, rule, order.data(), next.data(), &p.head,
                         &err, above.data()),
            StatusCode::kOk)
      << err.text;
  for (const auto& b : bufs) p.offsets.push_back(b.offset);
  return p;
}

constexpr uint16_t kNone = 0xFFFF;

// A narrowed QUANTIZE (head_planning.h): output part A (400 B, steps 0-1), the input's rest R
// (1200 B, step 0) tied above it, then a conv output Z (800 B, steps 1-2) and W (208 B, 2-3).
// By hand: the pair (1600 B together) goes first, at 0, R at 400; Z meets only A (step 1), so it
// starts at 400, over R's bytes, which are dead by then; W fits below Z at 0. Head 1600.
TEST(GreedyTest, TiedPairIsPlacedAsOneLShape) {
  for (GapRule rule : {GapRule::kFirstFit, GapRule::kBestFit}) {
    const Planned p = PlanTied({{400, 0, 1, kOnline}, {1200, 0, 0, kOnline}, {800, 1, 2, kOnline}, {208, 2, 3, kOnline}},
                               {1, kNone, kNone, kNone}, rule);
    EXPECT_EQ(p.offsets, (std::vector<int32_t>{0, 400, 400, 0}));
    EXPECT_EQ(p.head, 1600u);
  }
}

// Fixed buffers around the pair: F1 (step 1 only, at 400) meets neither part, so the pair stays
// at 0 though its rectangle would cover F1; F2 (step 0, at 1000) meets R, so the pair moves to
// F2's end (1100 -> 1104 aligned): A at 1104, R at 1504.
TEST(GreedyTest, TiedPairMovesOnlyForAConflictOfEitherPart) {
  Planned p = PlanTied({{400, 0, 1, kOnline}, {1200, 0, 0, kOnline}, {100, 1, 1, 400}}, {1, kNone, kNone});
  EXPECT_EQ(p.offsets, (std::vector<int32_t>{0, 400, 400}));
  EXPECT_EQ(p.head, 1600u);
  p = PlanTied({{400, 0, 1, kOnline}, {1200, 0, 0, kOnline}, {100, 0, 0, 1000}}, {1, kNone, kNone});
  EXPECT_EQ(p.offsets, (std::vector<int32_t>{1104, 1504, 1000}));
  EXPECT_EQ(p.head, 2704u);
}

// A stack (stream segments writing over their inputs, runtime/stream.h): A (400 B, steps 0-3),
// B (304 B, 0-2) tied above A, C (208 B, 0-1) tied above B; then D (512 B, 2-3) and E (96 B, step
// 1). By hand: the stack (912 B) goes first, at 0: A 0, B 400, C 704. D meets A and B but not C
// (dead after step 1): first fit moves it past A and B to 704, over C's bytes. E meets A, B and C
// but not D: 912. Head 1216 (D's end).
TEST(GreedyTest, TiedStackIsPlacedPartByPart) {
  for (GapRule rule : {GapRule::kFirstFit, GapRule::kBestFit}) {
    const Planned p = PlanTied({{400, 0, 3, kOnline}, {304, 0, 2, kOnline}, {208, 0, 1, kOnline}, {512, 2, 3, kOnline},
                                {96, 1, 1, kOnline}},
                               {1, 2, kNone, kNone, kNone}, rule);
    EXPECT_EQ(p.offsets, (std::vector<int32_t>{0, 400, 704, 704, 912}));
    EXPECT_EQ(p.head, 1216u);
  }
  // A fixed buffer (step 1, at 752) meets only C's bytes: the whole stack moves to its end (800).
  const Planned q = PlanTied({{400, 0, 3, kOnline}, {304, 0, 2, kOnline}, {208, 0, 1, kOnline}, {48, 1, 1, 752}},
                             {1, 2, kNone, kNone});
  EXPECT_EQ(q.offsets, (std::vector<int32_t>{800, 1200, 1504, 752}));
}

// A tie whose upper part outlives the lower one, or a fixed part, is refused.
TEST(GreedyTest, BadTieIsRefused) {
  for (auto bufs : {std::vector<PlanBuffer>{{400, 0, 0, kOnline}, {1200, 0, 1, kOnline}},
                    std::vector<PlanBuffer>{{400, 0, 1, kOnline}, {1200, 0, 0, 0}}}) {
    std::vector<uint16_t> order(2), next(2), above{1, kNone};
    uint32_t head = 0;
    ErrorText err;
    EXPECT_EQ(PlaceBuffers(bufs.data(), 2, 16, GapRule::kFirstFit, order.data(), next.data(), &head, &err,
                           above.data()),
              StatusCode::kBadArgument);
  }
  // Two buffers tied above each other (no stack base).
  std::vector<PlanBuffer> bufs{{400, 0, 1, kOnline}, {400, 0, 1, kOnline}};
  std::vector<uint16_t> order(2), next(2), above{1, 0};
  uint32_t head = 0;
  ErrorText err;
  EXPECT_EQ(PlaceBuffers(bufs.data(), 2, 16, GapRule::kFirstFit, order.data(), next.data(), &head, &err, above.data()),
            StatusCode::kBadArgument);
}

}  // namespace
}  // namespace arenaplan::rules
