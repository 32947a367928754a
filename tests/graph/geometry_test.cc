// Patch geometry, hand-worked: TFLM's SAME padding, the halo an output range reads, border reach.
#include <gtest/gtest.h>

#include "graph/geometry.h"

namespace arenaplan::graph {
namespace {

TEST(Geometry, SamePaddingFollowsTflm) {
  // 3x3 stride 1 on 112: out 112, total pad 2 -> 1 in front.
  EXPECT_EQ(PadBefore(true, 112, {3, 1, 1, 0}), 1);
  // 3x3 stride 2 on 112: out 56, total max(55*2 + 3 - 112, 0) = 1 -> 0 in front (1 behind).
  EXPECT_EQ(PadBefore(true, 112, {3, 2, 1, 0}), 0);
  EXPECT_EQ(OutputSize(true, 112, {3, 2, 1, 0}), 56);
  EXPECT_EQ(PadAfter(112, 56, {3, 2, 1, 0}), 1);
  // 3x3 stride 2 on 113: out 57, total 2 -> 1 in front, 1 behind.
  EXPECT_EQ(PadBefore(true, 113, {3, 2, 1, 0}), 1);
  // dilation 2: effective 5; SAME on 10, stride 1: total 4 -> 2 in front.
  EXPECT_EQ(PadBefore(true, 10, {3, 1, 2, 0}), 2);
  // VALID never pads; output (in - eff + stride) / stride.
  EXPECT_EQ(PadBefore(false, 10, {3, 1, 2, 0}), 0);
  EXPECT_EQ(OutputSize(false, 10, {3, 1, 2, 0}), 6);
  EXPECT_EQ(OutputSize(false, 9, {3, 2, 1, 0}), 4);
}

TEST(Geometry, WindowInputIsTheHalo) {
  // 3x3 stride 1 pad 1: outputs [0, 4) read [-1, 5); [4, 8) read [3, 9).
  EXPECT_EQ(WindowInput({0, 4}, {3, 1, 1, 1}), (Span{-1, 5}));
  EXPECT_EQ(WindowInput({4, 8}, {3, 1, 1, 1}), (Span{3, 9}));
  // stride 2 pad 0: outputs [2, 4) read [4, 9): reaches 1 past an 8-long input.
  const Span s = WindowInput({2, 4}, {3, 2, 1, 0});
  EXPECT_EQ(s, (Span{4, 9}));
  EXPECT_EQ(After(s, 8), 1);
  EXPECT_EQ(Before(s), 0);
  // dilation 2, pad 2: output 0 reads [-2, 3).
  EXPECT_EQ(WindowInput({0, 1}, {3, 1, 2, 2}), (Span{-2, 3}));
  EXPECT_EQ(Before(WindowInput({0, 1}, {3, 1, 2, 2})), 2);
  EXPECT_TRUE(WindowInput({3, 3}, {3, 1, 1, 1}).empty());
}

TEST(Geometry, ClipHullSplit) {
  EXPECT_EQ(Clip({-1, 5}, 4), (Span{0, 4}));
  EXPECT_TRUE(Clip({5, 7}, 4).empty());
  EXPECT_EQ(Hull({}, {2, 3}), (Span{2, 3}));
  EXPECT_EQ(Hull({0, 2}, {5, 6}), (Span{0, 6}));
  const auto parts = SplitEven(10, 3);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0], (Span{0, 4}));
  EXPECT_EQ(parts[1], (Span{4, 7}));
  EXPECT_EQ(parts[2], (Span{7, 10}));
  EXPECT_TRUE(SplitEven(2, 3).empty());
}

}  // namespace
}  // namespace arenaplan::graph
