// PAD folding: a PAD whose amounts are what SAME pads folds into the VALID convolution after it
// (same bytes out, one op fewer); PyTorch's symmetric stride-2 pad does not, with the reason.
// Explicit padding (arenaplan's runtime): every zero-point PAD before a VALID convolution folds,
// whatever its amounts, and the runtime (portable and fast kernels) gives the bytes of the model
// with the PAD; a schedule that does not fit its convolution is refused with a message.
#include <gtest/gtest.h>

#include <algorithm>

#include "graph/pad_fold.h"
#include "graph/schedule.h"
#include "rules/schedule.h"
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

struct PadCase {
  int32_t top, bottom, left, right;
  int32_t k, stride, dilation;
  bool depthwise;
  int32_t channels;
};

// input -> 1x1 conv -> PAD(case) -> conv / depthwise (VALID) -> 1x1 conv.
std::vector<uint8_t> PadThenCase(bool is_float, const PadCase& c) {
  Builder b(is_float);
  const int32_t in = b.Activation("input", {1, 11, 12, 3});
  int32_t x = b.Conv(in, c.channels, 1, 1, true);
  x = b.Pad(x, c.top, c.bottom, c.left, c.right);
  x = c.depthwise ? b.Depthwise(x, c.k, c.stride, false, c.dilation) : b.Conv(x, 5, c.k, c.stride, false, c.dilation);
  const int32_t y = b.Conv(x, 2, 1, 1, true);
  return b.Finish({in}, {y});
}

TEST(PadFoldExplicit, AnyAmountsFoldAndKeepBytes) {
  const PadCase cases[] = {
      {1, 1, 1, 1, 3, 2, 1, true, 4},   // PyTorch's symmetric stride-2 pad (SAME would pad 0 in front)
      {1, 1, 1, 1, 3, 2, 1, false, 3},  // the same into a conv (odd depth: the fast kernel stages)
      {1, 0, 0, 1, 3, 1, 1, true, 8},   // a patch's top-left border: padding on two sides only
      {0, 2, 2, 0, 3, 1, 2, false, 4},  // dilation 2, bottom / left
      {2, 1, 0, 0, 5, 2, 1, true, 4},   // more in front than behind
      {0, 0, 1, 1, 3, 1, 1, false, 8},
  };
  for (bool is_float : {false, true}) {
    for (const PadCase& c : cases) {
      SCOPED_TRACE(std::string(is_float ? "float" : "int8") + " pads " + std::to_string(c.top) + "," +
                   std::to_string(c.bottom) + "," + std::to_string(c.left) + "," + std::to_string(c.right) + " k" +
                   std::to_string(c.k) + " s" + std::to_string(c.stride) + " d" + std::to_string(c.dilation) +
                   (c.depthwise ? " depthwise" : " conv"));
      const auto model = PadThenCase(is_float, c);
      std::string error;
      const auto want = RunModel(model, &error);
      ASSERT_FALSE(want.empty()) << error;
      auto g = model::ReadGraph(model.data(), model.size());
      ASSERT_TRUE(g.ok());
      const auto r = graph::FoldPadsExplicit(**g);
      ASSERT_EQ(r.applied, 1) << (r.skipped.empty() ? "" : r.skipped[0]);
      EXPECT_TRUE(graph::HasSchedule(**g));
      auto bytes = model::WriteGraph(**g);
      ASSERT_TRUE(bytes.ok());
      const auto names = OpNames(*bytes);
      EXPECT_EQ(std::count(names.begin(), names.end(), "PAD"), 0);
      EXPECT_EQ(names.size(), 3u);
      EXPECT_EQ(RunModel(*bytes, &error), want) << error;
      EXPECT_EQ(RunModel(*bytes, &error, true), want) << error;
      // Without the schedule the convolution reads the unpadded input: the output shape no longer
      // follows, so the runtime refuses or computes other bytes (the schedule is what carries it).
      auto plain = model::ReadGraph(bytes->data(), bytes->size());
      ASSERT_TRUE(plain.ok());
      graph::RemoveMetadata(**plain, rules::kScheduleMetadataName);
      auto plain_bytes = model::WriteGraph(**plain);
      ASSERT_TRUE(plain_bytes.ok());
      EXPECT_NE(RunModel(*plain_bytes, &error), want);
    }
  }
}

TEST(PadFoldExplicit, LeavesWhatIsNotEquivalent) {
  Builder b(false);
  const int32_t in = b.Activation("input", {1, 8, 8, 4});
  int32_t x = b.Pad(in, 1, 1, 1, 1);
  x = b.MaxPool(x, 3, 2);  // a pool reads the padded values: not the same as skipping them
  const int32_t p = b.Pad(x, 1, 1, 1, 1);
  const int32_t y = b.Conv(p, 2, 3, 1, true);  // already pads
  const auto model = b.Finish({in}, {y});
  auto g = model::ReadGraph(model.data(), model.size());
  ASSERT_TRUE(g.ok());
  const auto r = graph::FoldPadsExplicit(**g);
  EXPECT_EQ(r.applied, 0);
  ASSERT_EQ(r.skipped.size(), 2u);
  EXPECT_NE(r.skipped[0].find("read by MAX_POOL_2D"), std::string::npos) << r.skipped[0];
  EXPECT_NE(r.skipped[1].find("already pads"), std::string::npos) << r.skipped[1];
  EXPECT_FALSE(graph::HasSchedule(**g));
}

// The folded model of the first case with one schedule word replaced.
std::vector<uint8_t> WithScheduleWord(size_t word, int32_t value) {
  const auto model = PadThenCase(false, {1, 1, 1, 1, 3, 2, 1, true, 4});
  auto g = model::ReadGraph(model.data(), model.size());
  graph::FoldPadsExplicit(**g);
  for (auto& m : (*g)->metadata) {
    if (m->name != rules::kScheduleMetadataName) continue;
    auto& data = (*g)->buffers[m->buffer]->data;
    for (int k = 0; k < 4; ++k) data[4 * word + k] = static_cast<uint8_t>(static_cast<uint32_t>(value) >> (8 * k));
  }
  auto bytes = model::WriteGraph(**g);
  return bytes.ok() ? *bytes : std::vector<uint8_t>{};
}

TEST(PadFoldExplicit, RuntimeRefusesAScheduleThatDoesNotFit) {
  // Words: version, count, then subgraph, op, kind, top, bottom, left, right, value.
  struct Bad {
    size_t word;
    int32_t value;
    const char* message;
  } bad[] = {
      {3, 7, "which the model does not have"},        // op out of range
      {4, 9, "unknown kind"},                         //
      {5, 3, "padding reaches past a whole window"},  // top 3 with a 3-tap window
      {6, 0, "output size does not match"},           // bottom 0: one output row fewer
      {9, 100, "the input's zero point is"},          // not the zero point
      {0, 2, "version 2"},                            //
      {1, 2, "count 2 does not match"},               //
      {3, 0, "explicit padding on a SAME convolution"},  // op 0: the 1x1 SAME CONV_2D
  };
  for (const Bad& c : bad) {
    SCOPED_TRACE(c.message);
    std::string error;
    EXPECT_TRUE(RunModel(WithScheduleWord(c.word, c.value), &error).empty());
    EXPECT_NE(error.find(c.message), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace arenaplan::testing
