// Stream segments (runtime/stream.h, graph/stream.h): a chain run row by row gives the bytes the
// whole-tensor run gives, with the head the windows make (derived by hand below); the chain cut
// picks streaming only where it lowers the chain's peak; what the runtime cannot stream is refused
// with a reason.
#include <gtest/gtest.h>

#include <algorithm>

#include "graph/pad_fold.h"
#include "graph/schedule.h"
#include "graph/stream.h"
#include "graph_testutil.h"
#include "runtime/interpreter.h"
#include "runtime/kernels/dsp/registrations.h"
#include "runtime/kernels/registrations.h"
#include "runtime/op_resolver.h"

namespace arenaplan::testing {
namespace {

uint32_t Aligned(uint32_t v) { return (v + 15) / 16 * 16; }

// AVERAGE_POOL_2D k x k, stride 1, SAME (padded taps neither count nor contribute).
int32_t AveragePoolSame(Builder& b, int32_t in, int32_t k) {
  tflo::TensorT like = *b.sg->tensors[static_cast<size_t>(in)];
  const int32_t o = graph::AddTensorLike(*b.sg, like, "avg" + std::to_string(b.sg->tensors.size()), b.Shape(in));
  auto& op = graph::AddOperator(*b.g, *b.sg, tflo::BuiltinOperator::AVERAGE_POOL_2D, {in}, {o});
  tflo::Pool2DOptionsT opt;
  opt.padding = tflo::Padding::SAME;
  opt.stride_h = opt.stride_w = 1;
  opt.filter_height = opt.filter_width = k;
  op.builtin_options.Set(opt);
  return o;
}

// input [1,17,15,3] -> conv 3x3 s1 SAME (8) -> depthwise 5x5 s2 SAME (9x8x8; top pad 2, so rows
// 0 and 1 read padding) -> conv 3x3 VALID dilation 2 (6; 5x4) -> max pool 2x2 s2 VALID (2x2)
// -> conv 1x1 (2): output [1,2,2,2].
std::vector<uint8_t> Chain(bool is_float, bool average_pool = false) {
  Builder b(is_float);
  const int32_t in = b.Activation("input", {1, 17, 15, 3});
  int32_t x = b.Conv(in, 8, 3, 1, true);
  if (average_pool) x = AveragePoolSame(b, x, 3);
  x = b.Depthwise(x, 5, 2, true);
  x = b.Conv(x, 6, 3, 1, false, 2);
  x = b.MaxPool(x, 2, 2);
  x = b.Conv(x, 2, 1, 1, true);
  return b.Finish({in}, {x});
}

// The model with stream records (first op, ops) added.
std::vector<uint8_t> Streamed(const std::vector<uint8_t>& model, std::vector<std::pair<int32_t, int32_t>> segments) {
  auto g = model::ReadGraph(model.data(), model.size());
  EXPECT_TRUE(g.ok());
  std::vector<graph::ScheduledPad> records = graph::ReadSchedule(**g);
  for (auto [first, ops] : segments) {
    graph::ScheduledPad p;
    p.op = (*g)->subgraphs[0]->operators[static_cast<size_t>(first)].get();
    p.stream_ops = ops;
    records.push_back(p);
  }
  graph::WriteSchedule(**g, records);
  auto bytes = model::WriteGraph(**g);
  return bytes.ok() ? *bytes : std::vector<uint8_t>{};
}

// AllocateTensors' record, or the error message in *error.
rt::MemoryRecord Record(const std::vector<uint8_t>& model, std::string* error = nullptr, bool dsp = false) {
  std::vector<uint8_t> storage((1u << 20) + 16);
  uint8_t* arena = storage.data() + (16 - reinterpret_cast<uintptr_t>(storage.data()) % 16) % 16;
  rt::InterpreterOptions o;
  o.planner = rt::PlannerKind::kTflmOrderBestFit;
  rt::Interpreter interp(model.data(), model.size(), dsp ? rt::DspOpsResolver() : rt::AllOpsResolver(), arena,
                         1u << 20, o);
  const rt::StatusCode s = interp.AllocateTensors();
  if (error != nullptr) *error = s == rt::StatusCode::kOk ? "" : interp.error_message();
  if (error == nullptr) {
    EXPECT_EQ(s, rt::StatusCode::kOk) << interp.error_message();
  }
  return interp.memory_record();
}

TEST(Stream, KernelsThatStreamRowsSaySo) {
  EXPECT_TRUE(rt::Register_CONV_2D()->streams_rows);
  EXPECT_TRUE(rt::Register_DEPTHWISE_CONV_2D()->streams_rows);
  EXPECT_TRUE(rt::Register_AVERAGE_POOL_2D()->streams_rows);
  EXPECT_TRUE(rt::Register_MAX_POOL_2D()->streams_rows);
  EXPECT_FALSE(rt::Register_ADD()->streams_rows);
  EXPECT_FALSE(rt::Register_FULLY_CONNECTED()->streams_rows);
}

TEST(Stream, WholeChainRowByRowGivesTheSameBytesAndTheWindowsHead) {
  for (bool is_float : {false, true}) {
    SCOPED_TRACE(is_float ? "float" : "int8");
    const auto model = Chain(is_float);
    std::string error;
    const auto want = RunModel(model, &error);
    ASSERT_FALSE(want.empty()) << error;
    const auto streamed = Streamed(model, {{0, 5}});
    ASSERT_FALSE(streamed.empty());
    EXPECT_EQ(RunModel(streamed, &error), want) << error;
    // By hand: everything lives through the one segment, so the head is the sum of X, Y and the
    // windows (rows the reader's kernel spans x W x C): 5 rows x 15 x 8 before the depthwise,
    // 5 (3 taps, dilation 2) x 8 x 8 before the dilated conv, 2 x 4 x 6 before the pool,
    // 1 x 2 x 6 before the 1x1 conv.
    const uint32_t e = is_float ? 4 : 1;
    const uint32_t head = Aligned(17 * 15 * 3 * e) + Aligned(2 * 2 * 2 * e) + Aligned(5 * 15 * 8 * e) +
                          Aligned(5 * 8 * 8 * e) + Aligned(2 * 4 * 6 * e) + Aligned(1 * 2 * 6 * e);
    EXPECT_EQ(head, is_float ? 7024u : 1776u);
    EXPECT_EQ(Record(streamed).head_bytes, head);
    // Whole tensors: the largest pair is the first conv's input and output.
    EXPECT_EQ(Record(model).head_bytes, Aligned(17 * 15 * 3 * e) + Aligned(17 * 15 * 8 * e));
  }
}

TEST(Stream, PartialSegmentsPaddedPoolAndFoldedPadGiveTheSameBytes) {
  for (bool is_float : {false, true}) {
    SCOPED_TRACE(is_float ? "float" : "int8");
    const auto model = Chain(is_float, true);  // conv, avg pool SAME 3x3, depthwise, conv, pool, conv
    std::string error;
    const auto want = RunModel(model, &error);
    ASSERT_FALSE(want.empty()) << error;
    for (auto segments : std::vector<std::vector<std::pair<int32_t, int32_t>>>{
             {{0, 6}}, {{0, 2}, {3, 3}}, {{1, 4}}, {{2, 2}, {4, 2}}}) {
      SCOPED_TRACE(std::to_string(segments.size()) + " segments from op " + std::to_string(segments[0].first));
      EXPECT_EQ(RunModel(Streamed(model, segments), &error), want) << error;
    }
  }
  // A PAD folded into a VALID conv (explicit top / bottom padding at the image border only).
  Builder b(false);
  const int32_t in = b.Activation("input", {1, 12, 9, 4});
  const int32_t p = b.Pad(in, 2, 1, 1, 2);
  int32_t x = b.Conv(p, 5, 4, 2, false);
  x = b.Depthwise(x, 3, 1, true);
  const auto model = b.Finish({in}, {b.Conv(x, 3, 1, 1, true)});
  std::string error;
  const auto want = RunModel(model, &error);
  ASSERT_FALSE(want.empty()) << error;
  auto g = model::ReadGraph(model.data(), model.size());
  ASSERT_TRUE(g.ok());
  ASSERT_EQ(graph::FoldPadsExplicit(**g).applied, 1);
  auto folded = model::WriteGraph(**g);
  ASSERT_TRUE(folded.ok());
  EXPECT_EQ(RunModel(Streamed(*folded, {{0, 3}}), &error), want) << error;
}

TEST(Stream, MarkStreamsCutsWhereThePeakFalls) {
  const auto model = Chain(false);
  auto g = model::ReadGraph(model.data(), model.size());
  ASSERT_TRUE(g.ok());
  const graph::PassReport r = graph::MarkStreams(**g);
  ASSERT_EQ(r.applied, 1);
  auto marked = model::WriteGraph(**g);
  ASSERT_TRUE(marked.ok());
  // By hand: the first four ops streamed cost X 768 + their output 2x2x6 (32) + windows 608 + 320
  // + 48 = 1776, the same as all five (Y 16 + window 16 instead of 32): the tie goes to fewer
  // streamed ops, and the last conv then holds 32 + 16.
  const auto records = graph::ReadSchedule(**g);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].stream_ops, 4);
  EXPECT_EQ(records[0].op, (*g)->subgraphs[0]->operators[0].get());
  EXPECT_EQ(Record(*marked).head_bytes, 1776u);
  std::string error;
  EXPECT_EQ(RunModel(*marked, &error), RunModel(model, &error)) << error;

  // A narrow middle: streaming would hold X and Y together (2 x 16 KiB), the whole tensors never
  // more than X + the 1 KiB middle: nothing is streamed.
  Builder b(false);
  const int32_t in = b.Activation("input", {1, 32, 32, 16});
  const int32_t mid = b.Conv(in, 1, 1, 1, true);
  const auto narrow = b.Finish({in}, {b.Conv(mid, 16, 1, 1, true)});
  auto n = model::ReadGraph(narrow.data(), narrow.size());
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(graph::MarkStreams(**n).applied, 0);
}

TEST(Stream, WhatCannotStreamIsRefusedWithAReason) {
  // A residual ADD inside: the conv output is read by the depthwise and by the ADD, so a window
  // of it would not do (the ADD needs the whole tensor); MarkStreams stops the chain there.
  Builder b(false);
  const int32_t in = b.Activation("input", {1, 10, 10, 4});
  const int32_t x = b.Conv(in, 4, 1, 1, true);
  const int32_t y = b.Depthwise(x, 3, 1, true);
  const int32_t z = b.Add(y, x);
  const auto model = b.Finish({in}, {b.Conv(z, 2, 1, 1, true)});
  auto g = model::ReadGraph(model.data(), model.size());
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(graph::MarkStreams(**g).applied, 0);
  std::string error;
  Record(Streamed(model, {{0, 2}}), &error);
  EXPECT_NE(error.find("read only by op 1"), std::string::npos) << error;
  Record(Streamed(model, {{1, 2}}), &error);  // the ADD itself
  EXPECT_NE(error.find("is not a CONV_2D, DEPTHWISE_CONV_2D or 2D pool"), std::string::npos) << error;
  // The fast kernels do not take partial inputs.
  Record(Streamed(Chain(false), {{0, 5}}), &error, true);
  EXPECT_NE(error.find("cannot run row by row"), std::string::npos) << error;
}

}  // namespace
}  // namespace arenaplan::testing
