// PAD folding: a PAD whose amounts are what SAME pads folds into the VALID convolution after it
// (same bytes out, one op fewer); PyTorch's symmetric stride-2 pad does not, with the reason.
#include <gtest/gtest.h>

#include <algorithm>

#include "graph/pad_fold.h"
#include "graph_testutil.h"

namespace arenaplan::testing {
namespace {

std::vector<uint8_t> PadThen(bool is_float, int32_t stride, int32_t* pads) {
  Builder b(is_float);
  const int32_t in = b.Activation("input", {1, 10, 12, 3});
  int32_t x = b.Conv(in, 4, 1, 1, true);
  x = b.Pad(x, 1, 1, 1, 1);
  x = b.Depthwise(x, 3, stride, false);
  const int32_t y = b.Conv(x, 2, 1, 1, true);
  *pads = 1;
  return b.Finish({in}, {y});
}

TEST(PadFold, SamePaddingFoldsAndKeepsBytes) {
  for (bool is_float : {false, true}) {
    int32_t pads = 0;
    const auto model = PadThen(is_float, 1, &pads);
    std::string error;
    const auto want = RunModel(model, &error);
    ASSERT_FALSE(want.empty()) << error;
    auto g = model::ReadGraph(model.data(), model.size());
    ASSERT_TRUE(g.ok());
    const auto r = graph::FoldPads(**g);
    EXPECT_EQ(r.applied, 1);
    ASSERT_EQ(r.done.size(), 1u);
    EXPECT_NE(r.done[0].find("folded"), std::string::npos);
    auto bytes = model::WriteGraph(**g);
    ASSERT_TRUE(bytes.ok());
    const auto names = OpNames(*bytes);
    EXPECT_EQ(std::count(names.begin(), names.end(), "PAD"), 0);
    EXPECT_EQ(names.size(), 3u);
    EXPECT_EQ(RunModel(*bytes, &error), want) << error;
  }
}

TEST(PadFold, SymmetricStrideTwoPadStays) {
  int32_t pads = 0;
  const auto model = PadThen(false, 2, &pads);
  auto g = model::ReadGraph(model.data(), model.size());
  ASSERT_TRUE(g.ok());
  const auto r = graph::FoldPads(**g);
  EXPECT_EQ(r.applied, 0);
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_NE(r.skipped[0].find("SAME would pad (0, 0)"), std::string::npos) << r.skipped[0];
}

}  // namespace
}  // namespace arenaplan::testing
