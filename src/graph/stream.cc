#include "graph/stream.h"

#include <algorithm>
#include <limits>
#include <string>

#include "graph/geometry.h"
#include "graph/schedule.h"
#include "rules/model.h"
#include "runtime/stream.h"

namespace arenaplan::graph {

namespace {

uint64_t Aligned(uint64_t v) { return (v + 15) / 16 * 16; }

// What the cost model needs of one streamable op.
struct RowOp {
  int32_t input = -1, output = -1;
  uint64_t in_bytes = 0, out_bytes = 0;  // whole tensors, 16-aligned
  uint64_t window = 0;                   // the window in front of it, 16-aligned
  uint64_t plane = 0;                    // one output channel plane (in place), 16-aligned
  bool in_place = false;
  rt::StreamOpRows rows;  // as the runtime computes them (rt::StreamRowsOf)
};

uint64_t Bytes(const tflo::TensorT& t) {
  uint64_t n = rules::TypeBytes(static_cast<tfl::TensorType>(t.type));
  for (int32_t d : t.shape) n *= static_cast<uint64_t>(std::max(d, 0));
  return n;
}

bool Batch1Rank4(const tflo::TensorT& t) { return t.shape.size() == 4 && t.shape[0] == 1 && t.shape[1] > 0; }

// The op as a stream member, or false (not a convolution / pool, shapes the runtime refuses).
// pad_top >= 0: the op's explicit top padding (a kExplicitPadding record), else TFLM's rule.
bool AsRowOp(const model::Graph& g, const tflo::SubGraphT& sg, const tflo::OperatorT& op, RowOp* r,
             int32_t pad_top = -1) {
  const BuiltinOperator code = OpCode(g, op);
  if (op.inputs.empty() || op.outputs.size() != 1 || op.inputs[0] < 0 || op.outputs[0] < 0) return false;
  const auto& in = *sg.tensors[static_cast<size_t>(op.inputs[0])];
  const auto& out = *sg.tensors[static_cast<size_t>(op.outputs[0])];
  if (!Batch1Rank4(in) || !Batch1Rank4(out) || IsConstant(g, sg, op.inputs[0])) return false;
  int32_t kernel_h = 1, dilation = 1, stride = 1;
  bool same = true;
  if (code == BuiltinOperator::CONV_2D || code == BuiltinOperator::DEPTHWISE_CONV_2D) {
    if (op.inputs.size() < 2 || op.inputs[1] < 0) return false;
    const auto& f = *sg.tensors[static_cast<size_t>(op.inputs[1])];
    if (f.shape.size() != 4) return false;
    kernel_h = f.shape[1];
    if (const auto* o = op.builtin_options.AsConv2DOptions()) {
      dilation = o->dilation_h_factor;
      stride = o->stride_h;
      same = o->padding == tflo::Padding::SAME;
    }
    if (const auto* o = op.builtin_options.AsDepthwiseConv2DOptions()) {
      dilation = o->dilation_h_factor;
      stride = o->stride_h;
      same = o->padding == tflo::Padding::SAME;
    }
  } else if (code == BuiltinOperator::AVERAGE_POOL_2D || code == BuiltinOperator::MAX_POOL_2D) {
    const auto* o = op.builtin_options.AsPool2DOptions();
    if (o == nullptr) return false;
    kernel_h = o->filter_height;
    stride = o->stride_h;
    same = o->padding == tflo::Padding::SAME;
  } else {
    return false;
  }
  if (kernel_h < 1 || dilation < 1 || stride < 1) return false;
  const Window w{kernel_h, stride, dilation, 0};
  r->rows.pad_top = pad_top >= 0 ? pad_top : PadBefore(same, in.shape[1], w);
  r->rows.stride = stride;
  r->rows.extent = w.effective();
  r->rows.in_h = in.shape[1];
  r->rows.out_h = out.shape[1];
  r->rows.in_row_bytes = static_cast<uint32_t>(Bytes(in) / static_cast<uint64_t>(in.shape[1]));
  r->rows.out_row_bytes = static_cast<uint32_t>(Bytes(out) / static_cast<uint64_t>(out.shape[1]));
  r->rows.input = op.inputs[0];
  r->rows.output = op.outputs[0];
  r->input = op.inputs[0];
  r->output = op.outputs[0];
  r->in_bytes = Aligned(Bytes(in));
  r->out_bytes = Aligned(Bytes(out));
  const int64_t extent = static_cast<int64_t>(kernel_h - 1) * dilation + 1;
  const uint64_t rows = static_cast<uint64_t>(std::min<int64_t>(extent, in.shape[1]));
  r->window = Aligned(Bytes(in) / static_cast<uint64_t>(in.shape[1]) * rows);
  r->plane = Aligned(Bytes(out) / static_cast<uint64_t>(std::max(out.shape[3], 1)));
  return true;
}

// Y over X for the piece ops[j, i): X's offset above Y in their one buffer when that beats two
// buffers and X dies in the piece (`dies`), else -1.
int64_t PieceOverlap(const std::vector<RowOp>& ops, int32_t j, int32_t i, bool dies) {
  if (!dies || i - j < 2) return -1;
  rt::StreamOpRows rows[rt::kMaxStreamOps];
  for (int32_t k = j; k < i; ++k) rows[k - j] = ops[static_cast<size_t>(k)].rows;
  uint64_t offset = 0;
  int32_t y_row = 0, x_row = 0;
  if (!rt::StreamOverlapOffset(rows, static_cast<uint32_t>(i - j), &offset, &y_row, &x_row)) return -1;
  const RowOp& a = ops[static_cast<size_t>(j)];
  const RowOp& b = ops[static_cast<size_t>(i - 1)];
  if (std::max(b.out_bytes, offset + a.in_bytes) >= a.in_bytes + b.out_bytes || offset > static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) return -1;
  return static_cast<int64_t>(offset);
}

struct Cut {
  uint64_t peak = UINT64_MAX;
  int32_t streamed = 0;  // ops in streamed pieces
  bool Better(const Cut& o) const { return peak != o.peak ? peak < o.peak : streamed < o.streamed; }
};

struct Piece {
  int32_t start = 0, length = 0;
  int64_t overlap = -1;  // PieceOverlap
};

// The streamed pieces of chain ops[0, n), by the dynamic program. first_dies: the chain's input is
// read by its first op only (every later piece's input is an intermediate of the chain);
// overlap: pieces may write their output over their input.
std::vector<Piece> CutChain(const std::vector<RowOp>& ops, bool first_dies, bool overlap) {
  const int32_t n = static_cast<int32_t>(ops.size());
  std::vector<Cut> best(static_cast<size_t>(n) + 1);
  std::vector<int32_t> from(static_cast<size_t>(n) + 1, 0);
  best[0] = Cut{0, 0};
  for (int32_t i = 1; i <= n; ++i) {
    for (int32_t j = i - 1; j >= 0 && i - j <= static_cast<int32_t>(rt::kMaxStreamOps); --j) {
      const RowOp& a = ops[static_cast<size_t>(j)];
      const RowOp& b = ops[static_cast<size_t>(i - 1)];
      uint64_t cost = 0;
      if (i - j == 1) {
        cost = a.in_place ? a.in_bytes + a.plane : a.in_bytes + a.out_bytes;
      } else {
        const int64_t offset = PieceOverlap(ops, j, i, overlap && (j > 0 || first_dies));
        cost = offset >= 0 ? std::max(b.out_bytes, static_cast<uint64_t>(offset) + a.in_bytes)
                           : a.in_bytes + b.out_bytes;
        for (int32_t k = j + 1; k < i; ++k) cost += ops[static_cast<size_t>(k)].window;
      }
      const Cut prev = best[static_cast<size_t>(j)];
      const Cut c{std::max(prev.peak, cost), prev.streamed + (i - j > 1 ? i - j : 0)};
      if (c.Better(best[static_cast<size_t>(i)])) {
        best[static_cast<size_t>(i)] = c;
        from[static_cast<size_t>(i)] = j;
      }
    }
  }
  std::vector<Piece> pieces;
  for (int32_t i = n; i > 0; i = from[static_cast<size_t>(i)]) {
    const int32_t j = from[static_cast<size_t>(i)];
    if (i - j > 1) pieces.push_back({j, i - j, PieceOverlap(ops, j, i, overlap && (j > 0 || first_dies))});
  }
  std::reverse(pieces.begin(), pieces.end());
  return pieces;
}

}  // namespace

uint64_t StreamWindowBytes(const model::Graph& g, int32_t op) {
  RowOp r;
  if (g.subgraphs.empty() || op < 0 || static_cast<size_t>(op) >= g.subgraphs[0]->operators.size()) return 0;
  return AsRowOp(g, *g.subgraphs[0], *g.subgraphs[0]->operators[static_cast<size_t>(op)], &r) ? r.window : 0;
}

PassReport MarkStreams(model::Graph& g, bool overlap) {
  PassReport r;
  if (g.subgraphs.size() != 1) {
    if (!g.subgraphs.empty()) r.skipped.push_back("streams: the model has several subgraphs");
    return r;
  }
  const auto& sg = *g.subgraphs[0];
  std::vector<ScheduledPad> records = ReadSchedule(g);
  std::vector<int32_t> reads(sg.tensors.size(), 0);
  for (const auto& op : sg.operators)
    for (int32_t t : op->inputs)
      if (t >= 0) ++reads[static_cast<size_t>(t)];
  auto is_output = [&](int32_t t) { return std::find(sg.outputs.begin(), sg.outputs.end(), t) != sg.outputs.end(); };
  auto in_place = [&](const tflo::OperatorT* op) {
    return std::any_of(records.begin(), records.end(), [&](const ScheduledPad& p) { return p.in_place && p.op == op; });
  };
  auto pad_top = [&](const tflo::OperatorT* op) {
    for (const ScheduledPad& p : records) {
      if (p.op == op && !p.in_place && p.stream_ops == 0) return p.pad.top;
    }
    return -1;
  };
  std::vector<Piece> segments;  // start: the first op's index
  const int32_t n = static_cast<int32_t>(sg.operators.size());
  for (int32_t i = 0; i < n;) {
    std::vector<RowOp> chain;
    RowOp op;
    int32_t k = i;
    while (k < n && AsRowOp(g, sg, *sg.operators[static_cast<size_t>(k)], &op,
                            pad_top(sg.operators[static_cast<size_t>(k)].get()))) {
      if (!chain.empty()) {
        const int32_t t = chain.back().output;
        if (op.input != t || reads[static_cast<size_t>(t)] != 1 || is_output(t)) break;
      }
      op.in_place = in_place(sg.operators[static_cast<size_t>(k)].get());
      chain.push_back(op);
      ++k;
    }
    if (chain.size() >= 2) {
      const int32_t x = chain[0].input;
      const bool dies = reads[static_cast<size_t>(x)] == 1 && !is_output(x);
      for (Piece piece : CutChain(chain, dies, overlap)) {
        piece.start += i;
        segments.push_back(piece);
      }
    }
    i = chain.empty() ? i + 1 : k;
  }
  if (segments.empty()) return r;
  int32_t ops = 0;
  std::vector<ScheduledPad> kept;
  for (const ScheduledPad& p : records) {
    const auto at = std::find_if(sg.operators.begin(), sg.operators.end(), [&](const auto& o) { return o.get() == p.op; });
    const int32_t index = static_cast<int32_t>(at - sg.operators.begin());
    const bool inside = std::any_of(segments.begin(), segments.end(), [&](const Piece& s) {
      return index >= s.start && index < s.start + s.length;
    });
    if (!(p.in_place && inside)) kept.push_back(p);
  }
  int32_t overlaps = 0;
  for (const Piece& s : segments) {
    ScheduledPad p;
    p.op = sg.operators[static_cast<size_t>(s.start)].get();
    p.stream_ops = s.length;
    p.stream_overlap = static_cast<int32_t>(s.overlap);
    kept.push_back(p);
    ops += s.length;
    overlaps += s.overlap >= 0;
    ++r.applied;
  }
  WriteSchedule(g, kept);
  std::string where;
  for (size_t k = 0; k < segments.size() && k < 8; ++k) {
    where += (k > 0 ? ", " : "") + std::to_string(segments[k].start) + ".." +
             std::to_string(segments[k].start + segments[k].length - 1);
  }
  if (segments.size() > 8) where += ", ...";
  r.done.push_back("streams: " + std::to_string(r.applied) + " segments of " + std::to_string(ops) +
                   " convolution / pool ops (ops " + where +
                   ") run row by row, intermediates kept as row windows, no recomputation" +
                   (overlaps > 0 ? ", " + std::to_string(overlaps) + " writing their output over their input's read rows"
                                 : std::string()) +
                   " (arenaplan_schedule; arenaplan's runtime only)");
  return r;
}

}  // namespace arenaplan::graph
