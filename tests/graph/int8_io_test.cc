// int8 I/O: a float input read only by QUANTIZE and a float output written only by DEQUANTIZE
// become the int8 tensors, and both ops go; an input read otherwise is left, with the reason.
#include <gtest/gtest.h>

#include <algorithm>

#include "graph/int8_io.h"
#include "graph_testutil.h"
#include "model/model.h"

namespace arenaplan::testing {
namespace {

TEST(QuantizedIo, FloatEdgesBecomeInt8) {
  Builder b(false);
  tflo::TensorT f;
  f.type = tflo::TensorType::FLOAT32;
  const int32_t in = graph::AddTensorLike(*b.sg, f, "float_in", {1, 6, 6, 2});
  const int32_t q = b.Activation("q", {1, 6, 6, 2}, 1);
  graph::AddOperator(*b.g, *b.sg, tflo::BuiltinOperator::QUANTIZE, {in}, {q});
  const int32_t c = b.Conv(q, 3, 3, 1, true);
  const int32_t out = graph::AddTensorLike(*b.sg, f, "float_out", {1, 6, 6, 3});
  graph::AddOperator(*b.g, *b.sg, tflo::BuiltinOperator::DEQUANTIZE, {c}, {out});
  const auto model = b.Finish({in}, {out});
  auto g = model::ReadGraph(model.data(), model.size());
  ASSERT_TRUE(g.ok());
  const auto r = graph::QuantizedIo(**g);
  EXPECT_EQ(r.applied, 2);
  auto bytes = model::WriteGraph(**g);
  ASSERT_TRUE(bytes.ok());
  const auto names = OpNames(*bytes);
  EXPECT_EQ(names, std::vector<std::string>{"CONV_2D"});
  auto v = model::ReadModel(bytes->data(), bytes->size());
  ASSERT_TRUE(v.ok());
  const auto& sg = v->subgraphs[0];
  EXPECT_EQ(sg.tensors[static_cast<size_t>(sg.inputs[0])].type, model::TensorType::kInt8);
  EXPECT_EQ(sg.tensors[static_cast<size_t>(sg.outputs[0])].type, model::TensorType::kInt8);
  EXPECT_EQ(sg.tensors[static_cast<size_t>(sg.inputs[0])].name, "q");
}

TEST(QuantizedIo, LeavesInputsWithOtherReaders) {
  Builder b(true);
  const int32_t in = b.Activation("input", {1, 4, 4, 2});
  const int32_t y = b.Conv(in, 2, 1, 1, true);
  const auto model = b.Finish({in}, {y});
  auto g = model::ReadGraph(model.data(), model.size());
  ASSERT_TRUE(g.ok());
  const auto r = graph::QuantizedIo(**g);
  EXPECT_EQ(r.applied, 0);
  ASSERT_FALSE(r.skipped.empty());
  EXPECT_NE(r.skipped[0].find("not read by one QUANTIZE"), std::string::npos);
}

}  // namespace
}  // namespace arenaplan::testing
