// Stream segments (runtime/stream.h, graph/stream.h): a chain run row by row gives the bytes the
// whole-tensor run gives, with the head the windows make (derived by hand below); the chain cut
// picks streaming only where it lowers the chain's peak; what the runtime cannot stream is refused
// with a reason.
#include <gtest/gtest.h>

#include <algorithm>

#include "graph/in_place.h"
#include "graph/pad_fold.h"
#include "graph/schedule.h"
#include "graph/stream.h"
#include "graph_testutil.h"
#include "runtime/interpreter.h"
#include "runtime/kernels/dsp/registrations.h"
#include "runtime/kernels/registrations.h"
#include "runtime/op_resolver.h"
#include "runtime/stream.h"
#include "util/aligned_bytes.h"

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

// The model with stream records (first op, ops) added; overlap >= 0: the first segment writes its
// output over its input, which starts `overlap` bytes above it.
std::vector<uint8_t> Streamed(const std::vector<uint8_t>& model, std::vector<std::pair<int32_t, int32_t>> segments,
                              int32_t overlap = -1) {
  auto g = model::ReadGraph(model.data(), model.size());
  EXPECT_TRUE(g.ok());
  std::vector<graph::ScheduledPad> records = graph::ReadSchedule(**g);
  for (auto [first, ops] : segments) {
    graph::ScheduledPad p;
    p.op = (*g)->subgraphs[0]->operators[static_cast<size_t>(first)].get();
    p.stream_ops = ops;
    p.stream_overlap = overlap;
    overlap = -1;
    records.push_back(p);
  }
  graph::WriteSchedule(**g, records);
  auto bytes = model::WriteGraph(**g);
  return bytes.ok() ? *bytes : std::vector<uint8_t>{};
}

// AllocateTensors' record, or the error message in *error.
rt::MemoryRecord Record(const std::vector<uint8_t>& model, std::string* error = nullptr, bool dsp = false) {
  const AlignedBytes arena(1u << 20);
  rt::InterpreterOptions o;
  o.planner = rt::PlannerKind::kTflmOrderBestFit;
  rt::Interpreter interp(model.data(), model.size(), dsp ? rt::DspOpsResolver() : rt::AllOpsResolver(), arena.data(),
                         arena.size(), o);
  const rt::StatusCode s = interp.AllocateTensors();
  if (error != nullptr) *error = s == rt::StatusCode::kOk ? "" : interp.error_message();
  if (error == nullptr) { EXPECT_EQ(s, rt::StatusCode::kOk) << interp.error_message(); }
  return interp.memory_record();
}

TEST(Stream, KernelsThatStreamRowsSaySo) {
  EXPECT_TRUE(rt::Register_CONV_2D()->streams_rows);
  EXPECT_TRUE(rt::Register_DEPTHWISE_CONV_2D()->streams_rows);
  EXPECT_TRUE(rt::Register_AVERAGE_POOL_2D()->streams_rows);
  EXPECT_TRUE(rt::Register_MAX_POOL_2D()->streams_rows);
  EXPECT_FALSE(rt::Register_ADD()->streams_rows);
  EXPECT_FALSE(rt::Register_FULLY_CONNECTED()->streams_rows);
  // The Cortex-M fast kernels stream the same ops, so that a model optimized for arenaplan runs on
  // the device's kernels too.
  EXPECT_TRUE(rt::Register_CONV_2D_DSP()->streams_rows);
  EXPECT_TRUE(rt::Register_DEPTHWISE_CONV_2D_DSP()->streams_rows);
  EXPECT_TRUE(rt::Register_AVERAGE_POOL_2D_DSP()->streams_rows);
  EXPECT_TRUE(rt::Register_MAX_POOL_2D_DSP()->streams_rows);
  EXPECT_FALSE(rt::Register_ADD_DSP()->streams_rows);
  EXPECT_FALSE(rt::Register_FULLY_CONNECTED_DSP()->streams_rows);
}

// The int8 chains of the tests above, streamed, on the DSP fast kernels (emulated on the host):
// the bytes of the portable kernels running them whole. The chain's depth 3 input takes the
// convolution's staged columns, its depth 8 tensors the per-tap ones; the depthwise reads padding
// rows at the top of its first output rows, the dilated conv falls back to the portable kernel.
TEST(Stream, DspKernelsRowByRowGiveThePortableBytes) {
  for (bool average_pool : {false, true}) {
    SCOPED_TRACE(average_pool ? "with a SAME average pool" : "plain chain");
    const auto model = Chain(false, average_pool);
    std::string error;
    const auto want = RunModel(model, &error);
    ASSERT_FALSE(want.empty()) << error;
    const int32_t ops = average_pool ? 6 : 5;
    for (auto segments : std::vector<std::vector<std::pair<int32_t, int32_t>>>{
             {{0, ops}}, {{0, 2}, {3, ops - 3}}, {{1, ops - 1}}, {{2, 2}}}) {
      SCOPED_TRACE(std::to_string(segments.size()) + " segments from op " + std::to_string(segments[0].first));
      const auto streamed = Streamed(model, segments);
      EXPECT_EQ(RunModel(streamed, &error, true), want) << error;
      std::string record_error;
      Record(streamed, &record_error, true);
      EXPECT_EQ(record_error, "");
    }
  }
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

// One op's rows: output row oy reads input rows [oy * stride - pad_top, + extent).
rt::StreamOpRows Rows(int32_t in_h, int32_t out_h, int32_t extent, int32_t stride, int32_t pad_top, uint32_t in_row,
                      uint32_t out_row) {
  rt::StreamOpRows r;
  r.in_h = in_h;
  r.out_h = out_h;
  r.extent = extent;
  r.stride = stride;
  r.pad_top = pad_top;
  r.in_row_bytes = in_row;
  r.out_row_bytes = out_row;
  return r;
}

uint64_t Overlap(std::vector<rt::StreamOpRows> rows, int32_t* y_row = nullptr, int32_t* x_row = nullptr) {
  uint64_t offset = 0;
  int32_t y = 0, x = 0;
  EXPECT_TRUE(rt::StreamOverlapOffset(rows.data(), static_cast<uint32_t>(rows.size()), &offset, &y, &x));
  if (y_row != nullptr) *y_row = y;
  if (x_row != nullptr) *x_row = x;
  return offset;
}

TEST(StreamOverlap, OffsetsDerivedByHand) {
  // Two 3x3 stride-1 SAME ops (top pad 1) over 8 rows. Output row r of op 1 needs op 0's rows up
  // to r + 1, so when Y's row r is written op 0 has made min(r + 2, 8) rows and still reads X
  // from row r + 1 (none once done, r >= 6). Y's row r ends at (r + 1) * ry, X's live rows start
  // at (r + 1) * rx: with ry = rx nothing binds (offset 0).
  int32_t y = 0, x = 0;
  EXPECT_EQ(Overlap({Rows(8, 8, 3, 1, 1, 32, 32), Rows(8, 8, 3, 1, 1, 32, 32)}, &y, &x), 0u);
  EXPECT_EQ(y, -1);
  // ry = 2 rx (32 -> 64 bytes): row r needs (r + 1) * 32 for r <= 5, 7 * 64 - 8 * 32 = 192 at
  // r = 6, 8 * 64 - 8 * 32 = 256 at r = 7 (the last row passes X's end: X sits in Y's upper half).
  EXPECT_EQ(Overlap({Rows(8, 8, 3, 1, 1, 32, 32), Rows(8, 8, 3, 1, 1, 32, 64)}, &y, &x), 256u);
  EXPECT_EQ(y, 7);
  EXPECT_EQ(x, 8);
  // Stride 2, kernel 3, SAME on 8 rows (top pad 0), then a 1x1: Y's row r follows op 0's row r,
  // after which X is read from row 2 (r + 1) (r < 3). ry = rx: never binds; ry = 4 rx (16 -> 64):
  // (r + 1) * 64 - 2 (r + 1) * 16 = 32 (r + 1) for r <= 2 (96), 4 * 64 - 8 * 16 = 128 at r = 3.
  EXPECT_EQ(Overlap({Rows(8, 4, 3, 2, 0, 16, 16), Rows(4, 4, 1, 1, 0, 16, 16)}), 0u);
  EXPECT_EQ(Overlap({Rows(8, 4, 3, 2, 0, 16, 64), Rows(4, 4, 1, 1, 0, 64, 64)}, &y, &x), 128u);
  EXPECT_EQ(y, 3);
  // Stride 2 with top padding 1 (odd input, 7 rows -> 4): op 0's row q reads from 2q - 1; after
  // Y's row r, X is read from 2r + 1 (r < 3). ry = 3 rx (16 -> 48): 48 (r + 1) - 16 (2r + 1)
  // = 32 + 16 r: 32, 48, 64, then 4 * 48 - 7 * 16 = 80 at r = 3.
  EXPECT_EQ(Overlap({Rows(7, 4, 3, 2, 1, 16, 48), Rows(4, 4, 1, 1, 0, 48, 48)}), 80u);
  // Dilation 2 (3 taps span 5 rows, SAME top pad 2) over 6 rows, then a 1x1, rx = ry = 16: after
  // Y's row r, X is read from max(r - 1, 0) (r < 5): 16 (r + 1) - 16 max(r - 1, 0) = 16, 32, 32,
  // 32, 32, then 0 at r = 5. The halo of two rows above is why Y starts 32 bytes below X.
  EXPECT_EQ(Overlap({Rows(6, 6, 5, 1, 2, 16, 16), Rows(6, 6, 1, 1, 0, 16, 16)}, &y, &x), 32u);
  EXPECT_EQ(y, 1);
  EXPECT_EQ(x, 0);
  // Pull on demand through a stride-2 middle: conv 3x3 s2 (96 -> 48, pad 0), depthwise 3x3 s1 (pad
  // 1), depthwise 3x3 s2 (48 -> 24, pad 0). Y's row r needs the middle's rows up to 2r + 3, hence
  // op 0's rows up to 2r + 4, so X is read from row 2 (2r + 4) = 4r + 8 on: with 288-byte X rows
  // and 384-byte Y rows, 384 (r + 1) - 288 (4r + 8) < 0 always (until op 0 is done).
  EXPECT_EQ(
      Overlap({Rows(96, 48, 3, 2, 0, 288, 384), Rows(48, 48, 3, 1, 1, 384, 384), Rows(48, 24, 3, 2, 0, 384, 384)}), 0u);
  // Rows that do not chain are refused.
  uint64_t offset = 0;
  const rt::StreamOpRows bad[2] = {Rows(8, 8, 3, 1, 1, 16, 16), Rows(7, 7, 3, 1, 1, 16, 16)};
  EXPECT_FALSE(rt::StreamOverlapOffset(bad, 2, &offset, &y, &x));
}

// input [1, 16, 8, c_in] -> conv 3x3 (stride) SAME (c_mid) -> depthwise 3x3 s1 SAME -> conv 1x1 (c_out).
std::vector<uint8_t> Block(bool is_float, int32_t c_in, int32_t stride, int32_t c_mid, int32_t c_out,
                           int32_t dilation = 1) {
  Builder b(is_float);
  const int32_t in = b.Activation("input", {1, 16, 8, c_in});
  int32_t x = b.Conv(in, c_mid, 3, stride, true, dilation);
  x = b.Depthwise(x, 3, 1, true);
  return b.Finish({in}, {b.Conv(x, c_out, 1, 1, true)});
}

TEST(StreamOverlap, OutputOverInputGivesTheSameBytesAndTheHandDerivedHead) {
  for (bool is_float : {false, true}) {
    SCOPED_TRACE(is_float ? "float" : "int8");
    const uint32_t e = is_float ? 4 : 1;
    // Stride 2, 8 -> 4 channels: X 16 x 8 x 8, Y 8 x 4 x 4. Y's row r needs the conv's rows up to
    // r + 1, so X is read from row 2 (r + 2) - 0 = 2r + 4 on: Y's rows (32 e) never reach it,
    // offset 0, and X and Y take max(|X|, |Y|) = |X|.
    {
      const auto model = Block(is_float, 8, 2, 4, 4);
      std::string error;
      const auto want = RunModel(model, &error);
      ASSERT_FALSE(want.empty()) << error;
      const auto streamed = Streamed(model, {{0, 3}}, 0);
      EXPECT_EQ(RunModel(streamed, &error), want) << error;
      const rt::MemoryRecord r = Record(streamed);
      EXPECT_EQ(r.stream_overlaps, 1u);
      // X + windows: 3 rows x 4 x 4 before the depthwise, 1 x 4 x 4 before the 1x1 conv.
      EXPECT_EQ(r.head_bytes, Aligned(16 * 8 * 8 * e) + Aligned(3 * 4 * 4 * e) + Aligned(4 * 4 * e));
      EXPECT_EQ(Record(Streamed(model, {{0, 3}})).head_bytes,
                Aligned(16 * 8 * 8 * e) + Aligned(8 * 4 * 4 * e) + Aligned(3 * 4 * 4 * e) + Aligned(4 * 4 * e));
      // The graph pass finds the same offset; it streams only the conv and the depthwise (1024 +
      // 48; the 1x1 conv alone then holds 128 + 128, while streaming it adds a 16-byte window).
      auto g = model::ReadGraph(model.data(), model.size());
      ASSERT_TRUE(g.ok());
      ASSERT_EQ(graph::MarkStreams(**g).applied, 1);
      const auto records = graph::ReadSchedule(**g);
      ASSERT_EQ(records.size(), 1u);
      EXPECT_EQ(records[0].stream_ops, 2);
      EXPECT_EQ(records[0].stream_overlap, 0);
    }
    // Stride 1, 4 -> 8 channels (rows double): by the first case of OffsetsDerivedByHand with a
    // depthwise in between, Y's row r needs the conv's rows up to r + 2 and X is read from r + 1:
    // 64 e (r + 1) - 32 e (r + 1), largest at r = 13 (448 e), then 16 x 64 e - 16 x 32 e = 512 e
    // at r = 15: X lies in Y's upper half, and X and Y take |Y| = 1024 e instead of 1536 e.
    {
      const auto model = Block(is_float, 4, 1, 8, 8);
      std::string error;
      const auto want = RunModel(model, &error);
      ASSERT_FALSE(want.empty()) << error;
      const int32_t offset = static_cast<int32_t>(512 * e);
      const auto streamed = Streamed(model, {{0, 3}}, offset);
      EXPECT_EQ(RunModel(streamed, &error), want) << error;
      EXPECT_EQ(Record(streamed).head_bytes, 1024 * e + Aligned(3 * 8 * 8 * e) + Aligned(8 * 8 * e));
      // One row less is refused, naming the rows.
      Record(Streamed(model, {{0, 3}}, offset - 16), &error);
      EXPECT_NE(error.find("its row 15 would overwrite input row 16"), std::string::npos) << error;
      Record(Streamed(model, {{0, 3}}, 16), &error);
      EXPECT_NE(error.find("would overwrite input row"), std::string::npos) << error;
    }
    // Dilation 2 in the first conv (5 rows spanned, top pad 2), rx = ry = 32 e: Y's row r needs
    // the depthwise's row r, so the conv's rows up to r + 1 (r + 2 made), and the conv's next row
    // r + 2 reads X from row r (r <= 13): Y's row r ends 32 e past X's first live byte, so X
    // starts one row (32 e) above Y, and X and Y take 544 e instead of 1024 e.
    {
      const auto model = Block(is_float, 4, 1, 4, 4, 2);
      std::string error;
      const auto want = RunModel(model, &error);
      ASSERT_FALSE(want.empty()) << error;
      const int32_t offset = static_cast<int32_t>(32 * e);
      const auto streamed = Streamed(model, {{0, 3}}, offset);
      EXPECT_EQ(RunModel(streamed, &error), want) << error;
      EXPECT_EQ(Record(streamed).head_bytes, 544 * e + Aligned(3 * 8 * 4 * e) + Aligned(8 * 4 * e));
      if (!is_float) {
        Record(Streamed(model, {{0, 3}}, 16), &error);
        EXPECT_NE(error.find("its row 0 would overwrite input row 0"), std::string::npos) << error;
        Record(Streamed(model, {{0, 3}}, 0), &error);
        EXPECT_NE(error.find("needs 32 bytes"), std::string::npos) << error;
      }
      auto g = model::ReadGraph(model.data(), model.size());
      ASSERT_TRUE(g.ok());
      ASSERT_EQ(graph::MarkStreams(**g).applied, 1);
      const auto records = graph::ReadSchedule(**g);
      ASSERT_EQ(records.size(), 1u);
      EXPECT_EQ(records[0].stream_overlap, offset);
    }
  }
  // The decoder refuses an offset that is not a multiple of 16, and an offset without the mark.
  std::string error;
  Record(Streamed(Block(false, 8, 2, 4, 4), {{0, 3}}, 8), &error);
  EXPECT_NE(error.find("16-multiple offset"), std::string::npos) << error;
}

TEST(StreamOverlap, StacksOnAQuantizeRunningOverItsFloatInput) {
  // float [1,16,8,8] -> QUANTIZE in place (its int8 output on the float input's first quarter,
  // the rest tied above it) -> conv 3x3 s2 + depthwise streamed with the output over the int8
  // tensor -> conv 1x1. The planner stacks three parts: the depthwise's output (128 B, from step
  // 0), the int8 tensor's rest (1024 - 128 = 896 B, until the stream ends), the float input's
  // rest (3072 B, until the QUANTIZE).
  Builder b(false);
  const int32_t in = b.FloatActivation("input", {1, 16, 8, 8});
  int32_t x = b.Quantize(in);
  x = b.Conv(x, 4, 3, 2, true);
  x = b.Depthwise(x, 3, 1, true);
  const auto model = b.Finish({in}, {b.Conv(x, 4, 1, 1, true)});
  std::string error;
  const auto want = RunModel(model, &error);
  ASSERT_FALSE(want.empty()) << error;
  auto g = model::ReadGraph(model.data(), model.size());
  ASSERT_TRUE(g.ok());
  ASSERT_EQ(graph::MarkInPlace(**g).applied, 2);  // the QUANTIZE and the depthwise: keep the first
  std::vector<graph::ScheduledPad> records = graph::ReadSchedule(**g);
  records.erase(
      std::remove_if(records.begin(), records.end(),
                     [&](const graph::ScheduledPad& p) { return p.op != (*g)->subgraphs[0]->operators[0].get(); }),
      records.end());
  ASSERT_EQ(records.size(), 1u);
  graph::WriteSchedule(**g, records);
  auto marked = model::WriteGraph(**g);
  ASSERT_TRUE(marked.ok());
  const auto streamed = Streamed(*marked, {{1, 2}}, 0);
  EXPECT_EQ(RunModel(streamed, &error), want) << error;
  const rt::MemoryRecord r = Record(streamed);
  EXPECT_EQ(r.in_place_ops, 1u);
  EXPECT_EQ(r.stream_overlaps, 1u);
  // The float input (4096 B) is the peak either way; the window (48 B) and the last output go
  // over its dead rest.
  EXPECT_EQ(r.head_bytes, 4096u);
}

TEST(StreamOverlap, IgnoredWhereTheInputLivesOn) {
  // The input is also read by a later op: the mark is valid for the rows but the input does not
  // die at the segment, so the runtime plans two buffers (as the in-place marks do).
  Builder b(false);
  const int32_t in = b.Activation("input", {1, 16, 8, 8});
  int32_t x = b.Conv(in, 4, 3, 2, true);
  x = b.Depthwise(x, 3, 1, true);
  x = b.Conv(x, 8, 1, 1, true);
  const int32_t skip = b.Conv(in, 8, 3, 2, true);
  const auto model = b.Finish({in}, {b.Add(x, skip)});
  std::string error;
  const auto want = RunModel(model, &error);
  ASSERT_FALSE(want.empty()) << error;
  const auto streamed = Streamed(model, {{0, 3}}, 0);
  EXPECT_EQ(RunModel(streamed, &error), want) << error;
  EXPECT_EQ(Record(streamed).stream_overlaps, 0u);
  auto g = model::ReadGraph(model.data(), model.size());
  ASSERT_TRUE(g.ok());
  graph::MarkStreams(**g);
  for (const auto& rec : graph::ReadSchedule(**g)) EXPECT_EQ(rec.stream_overlap, -1);
}

TEST(Stream, MarkStreamsCutsWhereThePeakFalls) {
  const auto model = Chain(false);
  auto g = model::ReadGraph(model.data(), model.size());
  ASSERT_TRUE(g.ok());
  const graph::PassReport r = graph::MarkStreams(**g);
  ASSERT_EQ(r.applied, 1);
  auto marked = model::WriteGraph(**g);
  ASSERT_TRUE(marked.ok());
  // By hand (int8; whole tensors 768, 2048, 576, 128, 32, 16; windows in front of ops 1..4: 608,
  // 320, 48, 16): alone, the first two ops cost 768 + 2048 and 2048 + 576. Streamed, the first
  // conv and the depthwise write the depthwise's 9 rows (64 B each) over the input (45 B rows):
  // row r is written once the conv has made 2r + 3 rows, the input then read from row 2r + 2, so
  // 64 (r + 1) - 45 (2r + 2) < 0 always and the offset is 0: X and Y cost max(576, 768), and the
  // piece 768 + 608 = 1376. Longer pieces add windows (1696, 1744, 1760); after it the ops alone
  // cost at most 576 + 128 = 704, so the tie goes to no more streamed ops.
  const auto records = graph::ReadSchedule(**g);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].stream_ops, 2);
  EXPECT_EQ(records[0].stream_overlap, 0);
  EXPECT_EQ(records[0].op, (*g)->subgraphs[0]->operators[0].get());
  EXPECT_EQ(Record(*marked).head_bytes, 1376u);
  std::string error;
  EXPECT_EQ(RunModel(*marked, &error), RunModel(model, &error)) << error;
  // Without the overlap the same cut would cost 768 + 576 + 608.
  EXPECT_EQ(Record(Streamed(model, {{0, 2}})).head_bytes, 1952u);
  // Without the lever (MarkStreams(g, false), which the optimizer also measures) the first four
  // ops cost X 768 + their output 32 + windows 608 + 320 + 48 = 1776, the same as all five (Y 16 +
  // window 16 instead of 32): the tie goes to fewer streamed ops.
  auto plain = model::ReadGraph(model.data(), model.size());
  ASSERT_TRUE(plain.ok());
  ASSERT_EQ(graph::MarkStreams(**plain, false).applied, 1);
  ASSERT_EQ(graph::ReadSchedule(**plain).size(), 1u);
  EXPECT_EQ(graph::ReadSchedule(**plain)[0].stream_ops, 4);
  EXPECT_EQ(graph::ReadSchedule(**plain)[0].stream_overlap, -1);
  auto plain_marked = model::WriteGraph(**plain);
  ASSERT_TRUE(plain_marked.ok());
  EXPECT_EQ(Record(*plain_marked).head_bytes, 1776u);

  // A narrow middle (1 KiB) between two 16 KiB tensors: streamed without the overlap it would hold
  // X and Y together (32 KiB, worse than X + the middle); with Y's row r written over X's row r
  // (read already: X is then read from row r + 1, rows of 512 B each way, offset 0) the piece
  // costs X + the middle's one-row window (32 B): 16416 < 17408.
  Builder b(false);
  const int32_t in = b.Activation("input", {1, 32, 32, 16});
  const int32_t mid = b.Conv(in, 1, 1, 1, true);
  const auto narrow = b.Finish({in}, {b.Conv(mid, 16, 1, 1, true)});
  auto n = model::ReadGraph(narrow.data(), narrow.size());
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(graph::MarkStreams(**n).applied, 1);
  ASSERT_EQ(graph::ReadSchedule(**n).size(), 1u);
  EXPECT_EQ(graph::ReadSchedule(**n)[0].stream_overlap, 0);
  auto narrow_marked = model::WriteGraph(**n);
  ASSERT_TRUE(narrow_marked.ok());
  EXPECT_EQ(Record(*narrow_marked).head_bytes, 16416u);
  EXPECT_EQ(RunModel(*narrow_marked, &error), RunModel(narrow, &error)) << error;
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
  // A kernel that does not take partial inputs (here the portable CONV_2D registered without
  // streams_rows, as a firmware's own kernel might be).
  static const rt::KernelRegistration kWhole = [] {
    rt::KernelRegistration r = *rt::Register_CONV_2D();
    r.streams_rows = false;
    return r;
  }();
  static const rt::OpResolverEntry kEntries[] = {
      {static_cast<int32_t>(tfl::BuiltinOperator::CONV_2D), nullptr, [] { return &kWhole; }}};
  const rt::OpResolver whole_conv{kEntries, 1, &rt::AllOpsResolver};
  const auto streamed = Streamed(Chain(false), {{0, 5}});
  const AlignedBytes arena(1u << 20);
  rt::Interpreter interp(streamed.data(), streamed.size(), whole_conv, arena.data(), arena.size());
  EXPECT_EQ(interp.AllocateTensors(), rt::StatusCode::kUnsupported);
  EXPECT_NE(std::string(interp.error_message()).find("the kernel of op 0 (CONV_2D) cannot run row by row"),
            std::string::npos)
      << interp.error_message();
}

}  // namespace
}  // namespace arenaplan::testing
