// Stream segments of arenaplan's schedule (rules/schedule.h, kStream): a chain of CONV_2D,
// DEPTHWISE_CONV_2D, AVERAGE_POOL_2D and MAX_POOL_2D ops from a whole tensor X to a whole tensor Y,
// run row by row with no recomputation (StreamNet / fused-layer style):
//   * each intermediate tensor T (read by op j) is a window of the last R_j rows produced, where
//     R_j = min(H, (kernel_h - 1) * dilation_h + 1) is what one output row of op j reads; the
//     planner gives T a buffer of R_j * W * C elements (its real size, so the plan verifier sees
//     the real layout) and no whole-tensor bytes;
//   * the last op's rows are produced in order; before op j computes output row oy it pulls rows
//     from op j - 1 until its window ends at the last input row oy reads (demand-driven, one row
//     at a time, which is why R_j needs no "+ stride - 1": rows are never produced ahead);
//   * a produced row is appended to its window: when the window is full its rows move up by one
//     (memmove of R_j - 1 rows). A ring would save that copy but the kernel then needs the rows
//     contiguous (a second copy or a wrapped view no kernel takes); the shift keeps the window
//     exactly R_j rows and the kernels unchanged;
//   * the kernel runs once per output row on views [1, rows, W, C] of its input window and
//     [1, 1, W', C'] of its output row, the top padding given per row (KernelContext::StreamPadTop:
//     the rows above the image at the top border, none below it); taps past the view's end are
//     past the image. Every element is computed once, by the same kernel code from the same
//     inputs in the same order as the whole-tensor run: the output bytes are identical.
// Lifetimes: the segment runs as one step span, so every buffer alive during it (X, Y, the
// windows, the ops' scratch) lives across the whole span.
// Requirements (checked at AllocateTensors, one-line messages): batch 1, rank-4 input 0 / output 0,
// one output per op, each intermediate read only by the next op and not a model output, not kept,
// at most kMaxStreamOps ops, kernels whose registration streams_rows.
// Output over input (record b = 1, c = x_offset): X's rows that no later output row reads are
// dead while the segment still runs, so Y may be written over them. The planner then lays Y at
// the start of X's bytes less x_offset (Y's bytes from X's first step to Y's last, the rest of X
// above them until X dies: OverlapStreams) where X dies at the segment and both are planned
// online; otherwise two buffers, as without the mark. Safe because op 0 reads X by view while only the last op writes Y (from
// its window): when Y's row r is written, op 0 has yet to read X's rows from
// StreamRowsBegin(op 0, its next output row) on, and those bytes must lie above Y's row r end.
// The smallest such offset comes from running the demand-driven row order on counters
// (StreamOverlapOffset); a record asking for less is refused at AllocateTensors.
// Cost: O(sum of rows x ops) bookkeeping on top of the kernels; the memmoves copy (R_j - 1) times
// each intermediate's bytes.
#pragma once

#include <cstdint>

#include "rules/plan_buffer.h"
#include "rules/schedule.h"
#include "runtime/arena.h"
#include "runtime/model_binding.h"
#include "runtime/status.h"
#include "runtime/tail_tables.h"

namespace arenaplan::rt {

inline constexpr uint32_t kMaxStreamOps = 16;

// The rows of one streamed op: output row oy reads input rows [oy * stride - pad_top, that +
// extent) clipped to [0, in_h).
struct StreamOpRows {
  int32_t pad_top = 0, stride = 1, extent = 1;  // extent: (kernel_h - 1) * dilation_h + 1
  int32_t in_h = 0, out_h = 0;
  uint32_t in_row_bytes = 0, out_row_bytes = 0;  // W * C * element size
  int32_t input = -1, output = -1;               // subgraph-0 tensor indices
};

// First input row and end (exclusive) of the rows output row oy reads.
inline int32_t StreamRowsBegin(const StreamOpRows& r, int32_t oy) {
  const int32_t s = oy * r.stride - r.pad_top;
  return s < 0 ? 0 : s;
}
inline int32_t StreamRowsEnd(const StreamOpRows& r, int32_t oy) {
  const int32_t e = oy * r.stride - r.pad_top + r.extent;
  return e > r.in_h ? r.in_h : e;
}
// Rows of the window in front of this op.
inline int32_t StreamWindowRows(const StreamOpRows& r) { return r.extent < r.in_h ? r.extent : r.in_h; }

// The rows of op `op` of subgraph 0 (its options, filter, shapes and any explicit padding).
StatusCode StreamRowsOf(const BoundModel& model, uint32_t op, StreamOpRows* rows, ErrorText* error);

// The smallest 16-aligned x_offset for the segment rows[0, n) (see above), from the row order
// RunStream follows; *y_row / *x_row: the output row that binds it and the first input row op 0
// still reads then (-1 when nothing binds: x_offset 0). False when the rows do not chain (an op's
// input height is not the previous op's output height). O(sum of output rows x n).
bool StreamOverlapOffset(const StreamOpRows* rows, uint32_t n, uint64_t* x_offset, int32_t* y_row, int32_t* x_row);

// Checks every stream record against the model and the resolved kernels (see the header).
StatusCode CheckStreams(const BoundModel& model, const TailTables& tables, ErrorText* error);

// True when the schedule has a stream record.
bool HasStreams(const rules::Schedule& s);

// Planning: each intermediate's buffer becomes its window (size and lifetime), every buffer alive
// during a segment is stretched over it. `planned` are the sorted planned global tensor ids of
// buffers [0, num_planned); bufs has n entries (scratch after the tensors). Errors: an
// intermediate that is kept or outlives its segment.
StatusCode PlanStreams(const BoundModel& model, const uint32_t* planned, uint32_t num_planned, rules::PlanBuffer* bufs,
                       uint32_t n, ErrorText* error);

// Online and compiled plans (not a model's offline plan), after the in-place aliasing
// (head_planning.cc): each stream record with b = 1 whose X (the buffer its in-place chain lands
// on: in_place holds (input, output, narrowing) global tensor triples) and Y are planned online at
// their own sizes, X dying at the segment, Y born with it, c < |Y|, neither buffer tied above
// another (X's may carry a stack), is split like a narrowing QUANTIZE: Y's buffer becomes the
// bottom part (|Y| bytes, from X's first step to Y's last; they hold X's bytes, then Y's) and X's
// the rest tied directly above it (`above`, allocated in temp if null; c + |X| - |Y| bytes, none
// when Y covers X), dying with X. Chained segments stack up (Y then X then an earlier X's rest).
// (x, y, c) triples go to overlaps[0, 3 * *count) (room for one per stream record): once placed, X
// starts c bytes above Y, set in reverse order (a later segment's Y fixes the X that is an earlier
// one's Y first). O(records x n).
StatusCode OverlapStreams(const BoundModel& model, const uint32_t* planned, uint32_t num_planned, rules::PlanBuffer* bufs,
                          uint32_t n, const uint32_t* in_place, uint32_t num_in_place, Arena* arena, uint16_t** above,
                          uint32_t* overlaps, uint32_t* count, ErrorText* error);

}  // namespace arenaplan::rt
