// In-place depthwise and elementwise ops: MarkInPlace marks the depthwise convolutions whose input
// no later op reads, and ADD / SUB / MUL with such an input of the output's shape;
// the runtime then gives input and output one buffer (a smaller head) and computes the same bytes
// as the model without the mark, with the portable and the fast kernels; where the lifetimes do
// not allow it (the input is read later) the runtime keeps two buffers even with the mark.
#include <gtest/gtest.h>

#include <algorithm>

#include "graph/analysis.h"
#include "graph/in_place.h"
#include "graph/schedule.h"
#include "graph_testutil.h"
#include "runtime/interpreter.h"
#include "runtime/op_resolver.h"
#include "util/aligned_bytes.h"

namespace arenaplan::testing {
namespace {

// input -> 1x1 conv -> depthwise k (SAME, stride 1, dilation) -> [ADD of the conv output] -> 1x1 conv.
std::vector<uint8_t> DepthwiseModel(bool is_float, int32_t k, int32_t dilation, bool residual) {
  Builder b(is_float);
  const int32_t in = b.Activation("input", {1, 13, 11, 3});
  const int32_t x = b.Conv(in, 8, 1, 1, true);
  int32_t y = b.Depthwise(x, k, 1, true, dilation);
  if (residual) y = b.Add(y, x);
  const int32_t z = b.Conv(y, 2, 1, 1, true);
  return b.Finish({in}, {z});
}

rt::MemoryRecord Record(const std::vector<uint8_t>& model) {
  const AlignedBytes arena(1u << 20);
  rt::InterpreterOptions o;
  o.planner = rt::PlannerKind::kTflmOrderBestFit;
  rt::Interpreter interp(model.data(), model.size(), rt::AllOpsResolver(), arena.data(), arena.size(), o);
  EXPECT_EQ(interp.AllocateTensors(), rt::StatusCode::kOk) << interp.error_message();
  return interp.memory_record();
}

std::vector<uint8_t> Marked(const std::vector<uint8_t>& model, int32_t* applied) {
  auto g = model::ReadGraph(model.data(), model.size());
  EXPECT_TRUE(g.ok());
  *applied = graph::MarkInPlace(**g).applied;
  auto bytes = model::WriteGraph(**g);
  return bytes.ok() ? *bytes : std::vector<uint8_t>{};
}

TEST(InPlace, DepthwiseOverItsInputKeepsBytesAndLowersTheHead) {
  for (bool is_float : {false, true}) {
    for (int32_t k : {3, 5}) {
      SCOPED_TRACE(std::string(is_float ? "float" : "int8") + " k" + std::to_string(k));
      const auto model = DepthwiseModel(is_float, k, k == 3 ? 2 : 1, false);
      std::string error;
      const auto want = RunModel(model, &error);
      ASSERT_FALSE(want.empty()) << error;
      int32_t applied = 0;
      const auto marked = Marked(model, &applied);
      ASSERT_EQ(applied, 1);
      EXPECT_EQ(RunModel(marked, &error), want) << error;
      EXPECT_EQ(RunModel(marked, &error, true), want) << error;
      const rt::MemoryRecord before = Record(model), after = Record(marked);
      EXPECT_EQ(before.in_place_ops, 0u);
      EXPECT_EQ(after.in_place_ops, 1u);
      // By hand (16-aligned): the plain model peaks at the depthwise input and output, 13 x 11 x 8
      // values each; in place at the first conv (model input 13 x 11 x 3 and its output), the
      // depthwise now holding one tensor and one 13 x 11 plane.
      auto aligned = [](uint32_t v) { return (v + 15) / 16 * 16; };
      const uint32_t elem = is_float ? 4 : 1;
      const uint32_t tensor = aligned(13 * 11 * 8 * elem), plane = aligned(13 * 11 * elem);
      const uint32_t input = aligned(13 * 11 * 3 * elem);
      EXPECT_EQ(before.head_bytes, 2 * tensor);
      EXPECT_EQ(after.head_bytes, std::max(input + tensor, tensor + plane));
      EXPECT_LT(after.head_bytes, before.head_bytes);
      // The profile optimize reports counts the alias as the runtime plans it (tensors only).
      auto view = model::ReadModel(marked.data(), marked.size());
      auto mg = model::ReadGraph(marked.data(), marked.size());
      ASSERT_TRUE(view.ok() && mg.ok());
      auto profile = graph::ProfileMemory(*view, **mg);
      ASSERT_TRUE(profile.ok());
      EXPECT_EQ(profile->peak_bytes, input + tensor);
    }
  }
}

TEST(InPlace, InputReadLaterIsNotMarkedAndNotAliased) {
  const auto model = DepthwiseModel(false, 3, 1, true);
  int32_t applied = 0;
  Marked(model, &applied);
  EXPECT_EQ(applied, 1);  // the ADD after it (its depthwise input is read by it alone), not the depthwise
  // A mark the lifetimes contradict (forced into the schedule): the runtime keeps two buffers.
  auto g = model::ReadGraph(model.data(), model.size());
  ASSERT_TRUE(g.ok());
  const auto& sg = *(*g)->subgraphs[0];
  const auto it = std::find_if(sg.operators.begin(), sg.operators.end(), [&](const auto& op) {
    return graph::OpCode(**g, *op) == tflo::BuiltinOperator::DEPTHWISE_CONV_2D;
  });
  ASSERT_NE(it, sg.operators.end());
  graph::ScheduledPad p;
  p.op = it->get();
  p.in_place = true;
  graph::WriteSchedule(**g, {p});
  auto forced = model::WriteGraph(**g);
  ASSERT_TRUE(forced.ok());
  std::string error;
  const auto want = RunModel(model, &error);
  EXPECT_EQ(RunModel(*forced, &error), want) << error;
  EXPECT_EQ(Record(*forced).in_place_ops, 0u);
}

TEST(InPlace, StrideTwoIsNotMarked) {
  Builder b(false);
  const int32_t in = b.Activation("input", {1, 12, 12, 4});
  const int32_t y = b.Depthwise(in, 3, 2, true);
  const auto model = b.Finish({in}, {b.Conv(y, 2, 1, 1, true)});
  auto g = model::ReadGraph(model.data(), model.size());
  ASSERT_TRUE(g.ok());
  const auto r = graph::MarkInPlace(**g);
  EXPECT_EQ(r.applied, 0);
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_NE(r.skipped[0].find("differs from its input in shape"), std::string::npos) << r.skipped[0];
}

// a = conv(in), b = conv(a), c = ADD(a, b) -> 1x1 conv: b is read only by the ADD, so c takes
// b's buffer (a is read by both convs and the ADD, its lifetime ends at the ADD too: the runtime
// takes input 0, a, first). By hand: the plain peak is at the ADD, a + b + c; in place a + b.
TEST(InPlace, ElementwiseAddOverAnInputKeepsBytes) {
  for (bool is_float : {false, true}) {
    SCOPED_TRACE(is_float ? "float" : "int8");
    Builder b(is_float);
    const int32_t in = b.Activation("input", {1, 9, 7, 2});
    const int32_t x = b.Conv(in, 8, 1, 1, true);
    const int32_t y = b.Conv(x, 8, 3, 1, true);
    const int32_t z = b.Add(x, y);
    const auto model = b.Finish({in}, {b.Conv(z, 2, 1, 1, true)});
    std::string error;
    const auto want = RunModel(model, &error);
    ASSERT_FALSE(want.empty()) << error;
    int32_t applied = 0;
    const auto marked = Marked(model, &applied);
    ASSERT_EQ(applied, 1);
    EXPECT_EQ(RunModel(marked, &error), want) << error;
    EXPECT_EQ(RunModel(marked, &error, true), want) << error;
    const rt::MemoryRecord before = Record(model), after = Record(marked);
    EXPECT_EQ(after.in_place_ops, 1u);
    const uint32_t tensor = (9 * 7 * 8 * (is_float ? 4 : 1) + 15) / 16 * 16;
    EXPECT_EQ(before.head_bytes, 3 * tensor);
    EXPECT_EQ(after.head_bytes, 2 * tensor);
  }
}

// ADD(x, row) with row broadcast along the rows: the full-shape x may take the output (read at
// the index written), the broadcast row never.
TEST(InPlace, BroadcastingAddAliasesOnlyTheFullShapeInput) {
  Builder a(false);
  const int32_t a_in = a.Activation("input", {1, 6, 6, 4});
  const int32_t a_x = a.Conv(a_in, 4, 1, 1, true);
  const int32_t a_row = a.Activation("row", {1, 1, 6, 4}, 1);
  const auto full = a.Finish({a_in, a_row}, {a.Conv(a.Add(a_x, a_row), 2, 1, 1, true)});
  int32_t applied = 0;
  const auto marked = Marked(full, &applied);
  EXPECT_EQ(applied, 1);
  std::string error;
  EXPECT_EQ(RunModel(marked, &error), RunModel(full, &error)) << error;
  EXPECT_EQ(RunModel(marked, &error, true), RunModel(full, &error)) << error;
  EXPECT_EQ(Record(marked).in_place_ops, 1u);

  // x read again after the ADD: only the broadcast row ends there, and it is never aliased.
  Builder b(false);
  const int32_t in = b.Activation("input", {1, 6, 6, 4});
  const int32_t x = b.Conv(in, 4, 1, 1, true);
  const int32_t row = b.Activation("row", {1, 1, 6, 4}, 1);
  const int32_t z = b.Add(x, row);
  const auto model = b.Finish({in, row}, {b.Conv(b.Add(z, x), 2, 1, 1, true)});
  Marked(model, &applied);
  EXPECT_EQ(applied, 1);  // the second ADD (z is read by it alone), not the first
  // The first ADD forced into the schedule: the runtime does not alias it.
  auto g = model::ReadGraph(model.data(), model.size());
  ASSERT_TRUE(g.ok());
  const auto& sg = *(*g)->subgraphs[0];
  graph::ScheduledPad p;
  p.op = sg.operators[1].get();
  ASSERT_EQ(graph::OpCode(**g, *p.op), tflo::BuiltinOperator::ADD);
  p.in_place = true;
  graph::WriteSchedule(**g, {p});
  auto forced = model::WriteGraph(**g);
  ASSERT_TRUE(forced.ok());
  EXPECT_EQ(RunModel(*forced, &error), RunModel(model, &error)) << error;
  EXPECT_EQ(Record(*forced).in_place_ops, 0u);
}

// A chain: y = depthwise(x) in place on x's buffer, then z = ADD(y, y) in place on y, which is
// x's buffer again: by hand the head holds the model input and x at the first conv, then x and
// one plane; nothing else is ever 13 x 11 x 8 at the same time.
TEST(InPlace, ChainsLandOnTheFirstBuffer) {
  Builder b(false);
  const int32_t in = b.Activation("input", {1, 13, 11, 3});
  const int32_t x = b.Conv(in, 8, 1, 1, true);
  const int32_t y = b.Depthwise(x, 3, 1, true);
  const int32_t z = b.Add(y, y);
  const auto model = b.Finish({in}, {b.Conv(z, 2, 1, 1, true)});
  std::string error;
  const auto want = RunModel(model, &error);
  ASSERT_FALSE(want.empty()) << error;
  int32_t applied = 0;
  const auto marked = Marked(model, &applied);
  ASSERT_EQ(applied, 2);
  EXPECT_EQ(RunModel(marked, &error), want) << error;
  EXPECT_EQ(RunModel(marked, &error, true), want) << error;
  const rt::MemoryRecord after = Record(marked);
  EXPECT_EQ(after.in_place_ops, 2u);
  EXPECT_EQ(after.head_bytes, 432u + 1152u);  // input 13x11x3 and x 13x11x8, 16-aligned
  auto view = model::ReadModel(marked.data(), marked.size());
  auto mg = model::ReadGraph(marked.data(), marked.size());
  ASSERT_TRUE(view.ok() && mg.ok());
  auto profile = graph::ProfileMemory(*view, **mg);
  ASSERT_TRUE(profile.ok());
  EXPECT_EQ(profile->peak_bytes, 432u + 1152u);
}

// float input [1, 10, 10, 4] -> QUANTIZE (int8) -> 1x1 conv (8 channels) -> 1x1 conv (2 channels).
std::vector<uint8_t> QuantizeModel(bool input_read_later) {
  Builder b(false);
  const int32_t in = b.FloatActivation("input", {1, 10, 10, 4});
  const int32_t q = b.Quantize(in);
  const int32_t x = b.Conv(q, 8, 1, 1, true);
  const int32_t z = b.Conv(x, 2, 1, 1, true);
  if (!input_read_later) return b.Finish({in}, {z});
  return b.Finish({in}, {z, in});  // the float input is also a model output: it must stay whole
}

TEST(InPlace, QuantizeNarrowsOverItsInputAndFreesTheRest) {
  const auto model = QuantizeModel(false);
  std::string error;
  const auto want = RunModel(model, &error);
  ASSERT_FALSE(want.empty()) << error;
  int32_t applied = 0;
  const auto marked = Marked(model, &applied);
  ASSERT_EQ(applied, 1);
  // The kernel runs over its own input (same bytes as with two buffers): this pins its forward walk.
  EXPECT_EQ(RunModel(marked, &error), want) << error;
  const rt::MemoryRecord before = Record(model), after = Record(marked);
  EXPECT_EQ(before.in_place_ops, 0u);
  EXPECT_EQ(after.in_place_ops, 1u);
  // By hand: float input 1600 B, int8 copy 400, conv outputs 800 and 200 (208 aligned). Two
  // buffers: the QUANTIZE holds 1600 + 400. Narrowed: its output is the input's first 400 bytes
  // and the other 1200 die with it, so the head is the input alone (the first conv then holds
  // 400 + 800 = 1200).
  EXPECT_EQ(before.head_bytes, 2000u);
  EXPECT_EQ(after.head_bytes, 1600u);
  auto view = model::ReadModel(marked.data(), marked.size());
  auto mg = model::ReadGraph(marked.data(), marked.size());
  ASSERT_TRUE(view.ok() && mg.ok());
  auto profile = graph::ProfileMemory(*view, **mg);
  ASSERT_TRUE(profile.ok());
  EXPECT_EQ(profile->peak_bytes, 1600u);
}

TEST(InPlace, QuantizeOfAnInputStillNeededIsNotMarked) {
  int32_t applied = 0;
  Marked(QuantizeModel(true), &applied);
  EXPECT_EQ(applied, 0);
}

}  // namespace
}  // namespace arenaplan::testing
