// Stream segments: their rows, their checks and their planning (stream.h). The row loop is
// Interpreter::RunStream (stream_execution.cc).
#include "runtime/stream.h"

#include "rules/lifetimes.h"
#include "rules/schedule.h"
#include "runtime/arena.h"
#include "runtime/kernels/conv_util.h"

namespace arenaplan::rt {
namespace {

using rules::PlanBuffer;
using Op = tfl::BuiltinOperator;

bool Rank4Batch1(const tfl::Tensor& t) {
  return rules::Size(t.shape()) == 4 && t.shape()->Get(0) == 1 && t.shape()->Get(1) > 0;
}

// True when buffer b is tied above another (rules/greedy.h `above`).
bool Tied(const uint16_t* above, uint32_t n, uint32_t b) {
  if (above == nullptr) return false;
  for (uint32_t i = 0; i < n; ++i) {
    if (above[i] == b) return true;
  }
  return false;
}

}  // namespace

StatusCode StreamRowsOf(const BoundModel& model, uint32_t op_index, StreamOpRows* r, ErrorText* error) {
  *r = StreamOpRows{};
  const tfl::Operator& op = model.index.op(0, op_index);
  const int32_t code = rules::BuiltinCode(model.index.code_of(op));
  if (rules::Size(op.inputs()) < 1 || rules::Size(op.outputs()) != 1 || op.inputs()->Get(0) < 0 ||
      op.outputs()->Get(0) < 0) {
    SetError(error, "stream: op %u needs an input 0 and exactly one output", op_index);
    return StatusCode::kInvalidModel;
  }
  r->input = op.inputs()->Get(0);
  r->output = op.outputs()->Get(0);
  const tfl::Tensor& in = model.tensor(static_cast<uint32_t>(r->input));
  const tfl::Tensor& out = model.tensor(static_cast<uint32_t>(r->output));
  if (!Rank4Batch1(in) || !Rank4Batch1(out)) {
    SetError(error, "stream: op %u: input and output must be [1, H, W, C]", op_index);
    return StatusCode::kUnsupported;
  }
  int32_t kernel_h = 1, stride = 1, dilation = 1;
  tfl::Padding padding = tfl::Padding::SAME;
  if (code == static_cast<int32_t>(Op::CONV_2D) || code == static_cast<int32_t>(Op::DEPTHWISE_CONV_2D)) {
    if (rules::Size(op.inputs()) < 2 || op.inputs()->Get(1) < 0 ||
        rules::Size(model.tensor(static_cast<uint32_t>(op.inputs()->Get(1))).shape()) != 4) {
      SetError(error, "stream: op %u has no rank-4 filter", op_index);
      return StatusCode::kInvalidModel;
    }
    kernel_h = model.tensor(static_cast<uint32_t>(op.inputs()->Get(1))).shape()->Get(1);
    if (code == static_cast<int32_t>(Op::CONV_2D)) {
      if (const auto* o = op.builtin_options_as_Conv2DOptions()) {
        stride = o->stride_h();
        dilation = o->dilation_h_factor();
        padding = o->padding();
      }
    } else if (const auto* o = op.builtin_options_as_DepthwiseConv2DOptions()) {
      stride = o->stride_h();
      dilation = o->dilation_h_factor();
      padding = o->padding();
    }
  } else if (code == static_cast<int32_t>(Op::AVERAGE_POOL_2D) || code == static_cast<int32_t>(Op::MAX_POOL_2D)) {
    const auto* o = op.builtin_options_as_Pool2DOptions();
    if (o == nullptr) {
      SetError(error, "stream: pool op %u has no options", op_index);
      return StatusCode::kInvalidModel;
    }
    kernel_h = o->filter_height();
    stride = o->stride_h();
    padding = o->padding();
  } else {
    SetError(error, "stream: op %u is not a convolution or a 2D pool", op_index);
    return StatusCode::kInvalidModel;
  }
  if (kernel_h < 1 || stride < 1 || dilation < 1 || kernel_h > 0xFFFF || dilation > 0xFFFF) {
    SetError(error, "stream: op %u: kernel height %d, stride %d, dilation %d", op_index, kernel_h, stride, dilation);
    return StatusCode::kInvalidModel;
  }
  r->stride = stride;
  r->extent = (kernel_h - 1) * dilation + 1;
  r->in_h = in.shape()->Get(1);
  r->out_h = out.shape()->Get(1);
  rules::ScheduleRecord pad;
  r->pad_top = rules::FindScheduleRecord(model.schedule, 0, op_index, rules::ScheduleKind::kExplicitPadding, &pad)
                   ? pad.a
                   : ComputePaddingForDim(padding, stride, dilation, r->in_h, kernel_h);
  // Row sizes fit: whole tensors are <= kMaxBufferBytes (rules::CheckModel).
  r->in_row_bytes = static_cast<uint32_t>(rules::TensorBytes(in) / static_cast<uint64_t>(r->in_h));
  r->out_row_bytes = static_cast<uint32_t>(rules::TensorBytes(out) / static_cast<uint64_t>(r->out_h));
  return StatusCode::kOk;
}

bool StreamOverlapOffset(const StreamOpRows* rows, uint32_t n, uint64_t* x_offset, int32_t* y_row, int32_t* x_row) {
  *x_offset = 0;
  *y_row = *x_row = -1;
  if (n < 1 || n > kMaxStreamOps) return false;
  for (uint32_t j = 1; j < n; ++j) {
    if (rows[j].in_h != rows[j - 1].out_h) return false;
  }
  // RunStream's order on counters: the latest op whose next output row has its input rows.
  int32_t produced[kMaxStreamOps] = {};
  const StreamOpRows& last = rows[n - 1];
  int64_t need = 0;  // bytes Y's end may pass X's first byte still to be read, at most
  while (produced[n - 1] < last.out_h) {
    uint32_t j = n - 1;
    while (j > 0 && produced[j - 1] < StreamRowsEnd(rows[j], produced[j])) --j;
    if (produced[j] >= rows[j].out_h) return false;  // a malformed chain would loop
    if (j + 1 == n) {
      const int32_t oy = produced[j];
      // op 0 still reads from the first row of its next output row on (rows only move forward).
      int32_t first = rows[0].in_h;
      if (produced[0] < rows[0].out_h) {
        const int32_t b = StreamRowsBegin(rows[0], produced[0]);
        first = b < first ? b : first;
      }
      const int64_t y_end = static_cast<int64_t>(oy + 1) * last.out_row_bytes;
      const int64_t x_first = static_cast<int64_t>(first) * rows[0].in_row_bytes;
      if (y_end - x_first > need) {
        need = y_end - x_first;
        *y_row = oy;
        *x_row = first;
      }
    }
    ++produced[j];
  }
  *x_offset = AlignUp<uint64_t>(static_cast<uint64_t>(need), rules::kBufferAlignment);
  return true;
}

bool HasStreams(const rules::Schedule& s) {
  for (uint32_t k = 0; k < s.count; ++k) {
    if (rules::ScheduleAt(s, k).kind == rules::ScheduleKind::kStream) return true;
  }
  return false;
}

StatusCode CheckStreams(const BoundModel& model, const TailTables& tables, ErrorText* error) {
  const rules::Schedule& s = model.schedule;
  for (uint32_t k = 0; k < s.count; ++k) {
    const rules::ScheduleRecord rec = rules::ScheduleAt(s, k);
    if (rec.kind != rules::ScheduleKind::kStream) continue;
    const uint32_t first = static_cast<uint32_t>(rec.op), n = static_cast<uint32_t>(rec.a);
    if (n > kMaxStreamOps) {
      SetError(error, "stream at op %u: %u ops, this runtime streams at most %u", first, n, kMaxStreamOps);
      return StatusCode::kUnsupported;
    }
    const tfl::SubGraph& sg = model.subgraph(0);
    StreamOpRows rows[kMaxStreamOps];
    for (uint32_t j = 0; j < n; ++j) {
      if (!KernelOf(model, tables, 0, first + j)->streams_rows) {
        SetError(error, "stream: the kernel of op %u (%s) cannot run row by row", first + j,
                 KernelOf(model, tables, 0, first + j)->name);
        return StatusCode::kUnsupported;
      }
      StreamOpRows& r = rows[j];
      RT_RETURN_IF_ERROR(StreamRowsOf(model, first + j, &r, error));
      if (j == 0) continue;
      const int32_t t = r.input;  // the intermediate between op first + j - 1 and this op
      StreamOpRows prev;
      RT_RETURN_IF_ERROR(StreamRowsOf(model, first + j - 1, &prev, error));
      uint32_t reads = 0;
      for (uint32_t i = 0; i < rules::Size(sg.operators()); ++i) {
        const auto* ins = sg.operators()->Get(i)->inputs();
        for (uint32_t q = 0; q < rules::Size(ins); ++q) reads += ins->Get(q) == t;
      }
      bool output = false;
      for (uint32_t q = 0; q < rules::Size(sg.outputs()); ++q) output = output || sg.outputs()->Get(q) == t;
      uint64_t constant = 0;
      const tfl::Tensor& tensor = model.tensor(static_cast<uint32_t>(t));
      if (prev.output != t || reads != 1 || output || tensor.is_variable() ||
          model.ConstantData(tensor, &constant) != nullptr) {
        SetError(error,
                 "stream at op %u: tensor %d must be op %u's output read only by op %u (not a model output, variable "
                 "or constant)",
                 first, t, first + j - 1, first + j);
        return StatusCode::kInvalidModel;
      }
    }
    if (rec.b == 0) continue;
    // Output over input: refused unless no output row lands on an input row op 0 has yet to read.
    uint64_t need = 0;
    int32_t y_row = -1, x_row = -1;
    if (!StreamOverlapOffset(rows, n, &need, &y_row, &x_row)) {
      SetError(error, "stream at op %u: the ops' row counts do not chain", first);
      return StatusCode::kInvalidModel;
    }
    if (static_cast<uint64_t>(rec.c) < need) {
      SetError(error,
               "stream at op %u: output tensor %d at %d bytes below input tensor %d: its row %d would overwrite input "
               "row %d before op %u reads it (needs %llu bytes)",
               first, rows[n - 1].output, rec.c, rows[0].input, y_row, x_row, first,
               static_cast<unsigned long long>(need));
      return StatusCode::kInvalidModel;
    }
  }
  return StatusCode::kOk;
}

StatusCode PlanStreams(const BoundModel& model, const uint32_t* planned, uint32_t num_planned, PlanBuffer* bufs,
                       uint32_t n, ErrorText* error) {
  const rules::Schedule& s = model.schedule;
  for (uint32_t k = 0; k < s.count; ++k) {
    const rules::ScheduleRecord rec = rules::ScheduleAt(s, k);
    if (rec.kind != rules::ScheduleKind::kStream) continue;
    // One subgraph (rules::CheckStreamRecords): op i runs at step i + 1 (rules/lifetimes.h).
    const int32_t from = rec.op + 1, to = rec.op + rec.a;
    for (uint32_t b = 0; b < n; ++b) {
      if (bufs[b].first < 0 || bufs[b].first > to || bufs[b].last < from) continue;
      if (bufs[b].first > from) bufs[b].first = from;
      if (bufs[b].last < to) bufs[b].last = to;
    }
    for (int32_t j = 1; j < rec.a; ++j) {
      StreamOpRows r;
      RT_RETURN_IF_ERROR(StreamRowsOf(model, static_cast<uint32_t>(rec.op + j), &r, error));
      const int32_t b = rules::PlannedBufferOf(planned, num_planned, static_cast<uint32_t>(r.input));
      if (b < 0) {
        SetError(error, "stream at op %d: intermediate tensor %d is not planned", rec.op, r.input);
        return StatusCode::kInvalidModel;
      }
      if (bufs[b].last > to) {
        SetError(error, "stream at op %d: tensor %d is kept, but a stream holds only a window of it", rec.op, r.input);
        return StatusCode::kUnsupported;
      }
      const uint64_t window = static_cast<uint64_t>(StreamWindowRows(r)) * r.in_row_bytes;  // <= the whole tensor
      bufs[b].size = AlignUp<uint32_t>(static_cast<uint32_t>(window), rules::kBufferAlignment);
    }
  }
  return StatusCode::kOk;
}

StatusCode OverlapStreams(const BoundModel& model, const uint32_t* planned, uint32_t num_planned, PlanBuffer* bufs,
                          uint32_t n, const uint32_t* in_place, uint32_t num_in_place, Arena* arena, uint16_t** above,
                          uint32_t* overlaps, uint32_t* count, ErrorText* error) {
  *count = 0;
  const rules::Schedule& s = model.schedule;
  for (uint32_t k = 0; k < s.count; ++k) {
    const rules::ScheduleRecord rec = rules::ScheduleAt(s, k);
    if (rec.kind != rules::ScheduleKind::kStream || rec.b == 0) continue;
    StreamOpRows first, last;
    RT_RETURN_IF_ERROR(StreamRowsOf(model, static_cast<uint32_t>(rec.op), &first, error));
    RT_RETURN_IF_ERROR(StreamRowsOf(model, static_cast<uint32_t>(rec.op + rec.a - 1), &last, error));
    uint32_t x = static_cast<uint32_t>(first.input);
    const uint32_t y = static_cast<uint32_t>(last.output);
    for (uint32_t a = 0; a < num_in_place; ++a) {  // X on an in-place op's input: that buffer holds it
      if (in_place[3 * a + 1] == x && in_place[3 * a + 2] == 0) x = in_place[3 * a];
    }
    const int32_t bx = rules::PlannedBufferOf(planned, num_planned, x);
    const int32_t by = rules::PlannedBufferOf(planned, num_planned, y);
    if (bx < 0 || by < 0 || bx == by) continue;
    PlanBuffer& in = bufs[bx];
    PlanBuffer& out = bufs[by];
    const int32_t from = rec.op + 1, to = rec.op + rec.a;  // the segment's steps (PlanStreams)
    const uint32_t x_bytes = AlignUp<uint32_t>(static_cast<uint32_t>(rules::TensorBytes(model.tensor(x))),
                                               rules::kBufferAlignment);
    const uint32_t y_bytes = AlignUp<uint32_t>(static_cast<uint32_t>(rules::TensorBytes(model.tensor(y))),
                                               rules::kBufferAlignment);
    // Only what the mark assumes: both planned online, Y's buffer and X's not tied above another
    // (X's may carry a stack: an earlier split); the rest is rules::SplitStreamPair's (X dead
    // after the segment, Y born with it, both at their own size, an offset below |Y|).
    if (in.offset != rules::kOnline || out.offset != rules::kOnline || rec.c < 0 ||
        Tied(*above, n, static_cast<uint32_t>(bx)) || Tied(*above, n, static_cast<uint32_t>(by)) ||
        (*above != nullptr && (*above)[by] != 0xFFFFu)) {
      continue;
    }
    // Whatever was tied above X's buffer stays above it.
    if (!rules::SplitStreamPair(in, out, x_bytes, y_bytes, from, to, static_cast<uint64_t>(rec.c))) continue;
    if (*above == nullptr) {
      uint32_t off = 0;
      RT_RETURN_IF_ERROR(ArenaAllocTemp(arena, 2 * n, 2, &off, error, "tied buffers"));
      *above = reinterpret_cast<uint16_t*>(ArenaPtr(*arena, off));
      for (uint32_t b = 0; b < n; ++b) (*above)[b] = 0xFFFFu;
    }
    (*above)[by] = static_cast<uint16_t>(bx);
    overlaps[3 * *count] = x;
    overlaps[3 * *count + 1] = y;
    overlaps[3 * *count + 2] = static_cast<uint32_t>(rec.c);
    ++*count;
  }
  return StatusCode::kOk;
}

}  // namespace arenaplan::rt
