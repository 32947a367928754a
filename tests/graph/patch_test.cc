// Patch-based prefixes give the same bytes as the whole-tensor model in the runtime, for every
// grid, on chains with SAME / VALID padding, stride 2, dilation, explicit PAD (symmetric, as
// PyTorch writes it), a residual ADD inside the prefix, int8 and float; the rewritten model uses
// only STRIDED_SLICE / PAD / CONCATENATION besides the model's own ops.
#include <gtest/gtest.h>

#include <set>

#include "graph/patch.h"
#include "graph_testutil.h"
#include "model/model.h"

namespace arenaplan::testing {
namespace {

struct Case {
  std::string name;
  bool is_float;
  int32_t prefix_ops;  // ops [0, prefix_ops) patched; the model has one more op after
  std::vector<uint8_t> (*build)(bool);
};

// conv 3x3 s1 SAME (relu6) -> dw 3x3 s2 SAME -> conv 1x1 -> [conv 1x1]
std::vector<uint8_t> StrideChain(bool f) {
  Builder b(f);
  const int32_t in = b.Activation("input", {1, 17, 14, 3});
  int32_t x = b.Conv(in, 8, 3, 1, true, 1, tflo::ActivationFunctionType::RELU6);
  x = b.Depthwise(x, 3, 2, true);
  x = b.Conv(x, 6, 1, 1, true);
  const int32_t y = b.Conv(x, 4, 1, 1, true);
  return b.Finish({in}, {y});
}

// expand 1x1 -> dw 3x3 SAME -> project 1x1 -> ADD(x, projected) -> [conv]: residual in the prefix
std::vector<uint8_t> Residual(bool f) {
  Builder b(f);
  const int32_t in = b.Activation("input", {1, 12, 13, 4});
  const int32_t x = b.Conv(in, 4, 3, 1, true);
  int32_t e = b.Conv(x, 12, 1, 1, true);
  e = b.Depthwise(e, 3, 1, true);
  e = b.Conv(e, 4, 1, 1, true);
  const int32_t s = b.Add(x, e);
  const int32_t y = b.Conv(s, 3, 1, 1, true);
  return b.Finish({in}, {y});
}

// PAD (1, 1, 1, 1) -> dw 3x3 s2 VALID (PyTorch's stride-2 padding) -> dilated conv 3x3 d2 SAME
// -> VALID conv 3x3 -> max pool 2x2 s2 VALID -> [conv]
std::vector<uint8_t> PadDilation(bool f) {
  Builder b(f);
  const int32_t in = b.Activation("input", {1, 22, 20, 3});
  int32_t x = b.Conv(in, 6, 3, 1, true);
  x = b.Pad(x, 1, 1, 1, 1);
  x = b.Depthwise(x, 3, 2, false);
  x = b.Conv(x, 5, 3, 1, true, 2);
  x = b.Conv(x, 5, 3, 1, false);
  x = b.MaxPool(x, 2, 2);
  const int32_t y = b.Conv(x, 2, 1, 1, true);
  return b.Finish({in}, {y});
}

const std::vector<Case> kCases = {
    {"stride_int8", false, 3, &StrideChain},       {"stride_float", true, 3, &StrideChain},
    {"residual_int8", false, 5, &Residual},        {"residual_float", true, 5, &Residual},
    {"pad_dilation_int8", false, 6, &PadDilation}, {"pad_dilation_float", true, 6, &PadDilation},
};

class PatchCase : public ::testing::TestWithParam<Case> {};

TEST_P(PatchCase, EveryGridGivesTheSameBytes) {
  const Case& c = GetParam();
  const std::vector<uint8_t> model = c.build(c.is_float);
  ASSERT_FALSE(model.empty());
  std::string error;
  const auto want = RunModel(model, &error);
  ASSERT_FALSE(want.empty()) << error;
  auto g = model::ReadGraph(model.data(), model.size());
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  auto prefix = graph::AnalyzePrefix(**g, c.prefix_ops);
  ASSERT_TRUE(prefix.ok()) << prefix.status().ToString();
  const auto& s = (*g)->subgraphs[0]->tensors[static_cast<size_t>(prefix->tensor)]->shape;
  const std::set<std::string> allowed = {"CONV_2D",     "DEPTHWISE_CONV_2D", "ADD",          "PAD",
                                         "MAX_POOL_2D", "STRIDED_SLICE",     "CONCATENATION"};
  for (graph::PatchGrid grid : {graph::PatchGrid{2, 2}, {3, 3}, {1, 4}, {4, 1}, {s[1], s[2]}, {2, 3}}) {
    if (grid.rows > 10 || grid.cols > 10) continue;
    SCOPED_TRACE(std::to_string(grid.rows) + "x" + std::to_string(grid.cols));
    auto patched = graph::PatchPrefix(**g, *prefix, grid);
    ASSERT_TRUE(patched.ok()) << patched.status().ToString();
    auto bytes = model::WriteGraph(*patched->graph);
    ASSERT_TRUE(bytes.ok());
    ASSERT_TRUE(model::ReadModel(bytes->data(), bytes->size()).ok());
    const auto got = RunModel(*bytes, &error);
    ASSERT_FALSE(got.empty()) << error;
    EXPECT_EQ(got, want);
    for (const auto& name : OpNames(*bytes)) EXPECT_TRUE(allowed.count(name)) << name;
    EXPECT_GE(patched->prefix_macs, prefix->macs);  // halos only add work
  }
}

INSTANTIATE_TEST_SUITE_P(Chains, PatchCase, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.name; });

TEST(Patch, NonOverlappingWindowsAddNoMacs) {
  // 1x1 convolutions only: patches share nothing, so the MACs stay as they were.
  Builder b(false);
  const int32_t in = b.Activation("input", {1, 8, 8, 3});
  int32_t x = b.Conv(in, 4, 1, 1, true);
  x = b.Conv(x, 4, 1, 1, true);
  const int32_t y = b.Conv(x, 2, 1, 1, true);
  const auto model = b.Finish({in}, {y});
  auto g = model::ReadGraph(model.data(), model.size());
  ASSERT_TRUE(g.ok());
  auto prefix = graph::AnalyzePrefix(**g, 2);
  ASSERT_TRUE(prefix.ok());
  auto patched = graph::PatchPrefix(**g, *prefix, {2, 2});
  ASSERT_TRUE(patched.ok());
  EXPECT_EQ(patched->prefix_macs, prefix->macs);
  EXPECT_EQ(prefix->macs, uint64_t{8 * 8 * 4 * 3 + 8 * 8 * 4 * 4});
}

TEST(Patch, RefusesWhatItCannotSplit) {
  Builder b(false);
  const int32_t in = b.Activation("input", {1, 8, 8, 3});
  const int32_t x = b.Conv(in, 4, 3, 1, true);
  const int32_t y = b.Conv(x, 2, 1, 1, true);
  const int32_t z = b.Add(x, y);  // needs x and y: the prefix [0, 2) hands on two tensors
  (void)z;
  const auto model = b.Finish({in}, {z});
  auto g = model::ReadGraph(model.data(), model.size());
  ASSERT_TRUE(g.ok());
  auto p = graph::AnalyzePrefix(**g, 2);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("2 tensors"), std::string::npos) << p.status().message();
  EXPECT_FALSE(graph::AnalyzePrefix(**g, 0).ok());
  EXPECT_FALSE(graph::AnalyzePrefix(**g, 9).ok());
}

}  // namespace
}  // namespace arenaplan::testing
