// arenaplan's execution schedule: what `optimize --for arenaplan` tells the runtime beyond the
// graph, in the metadata entry kScheduleMetadataName (stock TFLM never reads it; a model that has
// one is for arenaplan's runtime only). int32 little-endian words
//   [version = 1, N, then N records of 8 words: subgraph, op, kind, a, b, c, d, value]
// read in place (any alignment). Kinds:
//   kExplicitPadding: the op (CONV_2D or DEPTHWISE_CONV_2D with VALID padding) reads its input as
//     if padded by a = top, b = bottom, c = left, d = right rows / columns of `value` (the input's
//     zero point; 0 for float): the PAD in front of it was folded away. The kernel checks the
//     amounts against its shapes and that `value` is the zero point (its padded taps are skipped,
//     which equals padding with the zero point and only that).
//   kInPlace: the op (DEPTHWISE_CONV_2D, depth multiplier 1, output shape = input shape) may write
//     its output over its input: the runtime plans the two as one buffer when the input is read by
//     no later op (its lifetime ends where the output's begins), and the kernel then computes one
//     channel plane at a time into scratch and stores it over that channel (output channel c reads
//     only input channel c). Also on ADD, SUB and MUL: the output may take the buffer of an input
//     of its own shape and type (input 0, else 1, whichever the lifetimes allow; the other may
//     broadcast): the kernels read that input at the index they write, walking forward, so
//     element i is read before it is overwritten and never after. Also on QUANTIZE from float32
//     (a narrowing op): the output takes the first bytes of the input's buffer where the input
//     dies at this op, and the rest of that buffer dies with the input (the runtime splits it in
//     its planning problem, runtime/head_planning.h); the kernel writes output element i (at most
//     2 bytes, at 2i or i) after reading input element i (bytes 4i..4i+3) walking forward, so it
//     never overwrites an input element it has yet to read. a..value are 0.
//   kStream: ops op .. op + a - 1 (a >= 2, subgraph 0 of a one-subgraph model) form a chain (each
//     op's input 0 is the previous op's only output, read by no other op) of CONV_2D,
//     DEPTHWISE_CONV_2D, AVERAGE_POOL_2D and MAX_POOL_2D that the runtime runs row by row: each
//     intermediate tensor is kept as a window of the rows its reader's kernel spans
//     (runtime/stream.h), so nothing is recomputed and the whole intermediates never exist.
//     b = 1: the output may be written over the input's rows op 0 no longer reads, the input
//     starting c bytes (a multiple of 16) above the output in one buffer; the runtime checks c
//     against the rows' order (runtime/stream.h) and uses it where the input dies at the segment.
//     b = 0: two buffers, c = 0. d and value are 0.
// Checked as the runtime relies on them: records sorted strictly by (subgraph, op, kind), every
// subgraph / op in range, a known kind, amounts >= 0 (in place: all 0), explicit padding only on
// CONV_2D and DEPTHWISE_CONV_2D, in place only on DEPTHWISE_CONV_2D, ADD, SUB, MUL and QUANTIZE,
// streams only over the ops named above, not overlapping each other nor any op marked in place
// (the runtime checks the chain's tensors, runtime/stream.h). Decoding and checking O(N), lookup O(log N).
#pragma once

#include <cstdint>

#include "rules/model.h"
#include "rules/status.h"

namespace arenaplan::rules {

inline constexpr const char kScheduleMetadataName[] = "arenaplan_schedule";
inline constexpr int32_t kScheduleVersion = 1;
inline constexpr uint32_t kScheduleRecordWords = 8;

enum class ScheduleKind : int32_t {
  kExplicitPadding = 1,
  kInPlace = 2,
  kStream = 3,
};

struct ScheduleRecord {
  int32_t subgraph = 0, op = 0;
  ScheduleKind kind = ScheduleKind::kExplicitPadding;
  int32_t a = 0, b = 0, c = 0, d = 0, value = 0;
};

struct Schedule {
  const uint8_t* records = nullptr;  // N records in the model; nullptr when the model has none
  uint32_t count = 0;
  bool present() const { return records != nullptr; }
};

// Record i (i < count).
ScheduleRecord ScheduleAt(const Schedule& s, uint32_t i);

// Decodes and checks the words against the subgraphs' ops (op_base as ModelIndex: subgraphs + 1
// entries, subgraph s has op_base[s + 1] - op_base[s] ops).
StatusCode DecodeSchedule(const uint8_t* data, uint64_t size, const uint32_t* op_base, uint32_t subgraphs,
                          Schedule* schedule, ErrorText* error);

// The stream records' checks that need the model: one subgraph, streamable ops, no overlap with
// other streams or in-place ops. O(N + streamed ops).
StatusCode CheckStreamRecords(const ModelIndex& index, const Schedule& s, ErrorText* error);

// The model's schedule, found, decoded and checked (present() is false when it has none). The
// model must have passed CheckModel.
StatusCode ReadSchedule(const ModelIndex& index, const ModelFile& file, Schedule* schedule, ErrorText* error);

// The record for (subgraph, op, kind), binary search; false when there is none.
bool FindScheduleRecord(const Schedule& s, uint32_t subgraph, uint32_t op, ScheduleKind kind, ScheduleRecord* out);

// Output over input (a kStream record with b = 1, c = x_offset), in a planning problem where X and
// Y are planned online and every buffer alive during the segment's steps [from, to] already lives
// across them: where X's buffer holds |X| bytes and dies at `to`, Y's holds |Y| bytes and is born
// at `from`, and c < |Y|, Y's buffer becomes the long-lived bottom (from X's first step: it holds
// X's first bytes, then Y) and X's the rest directly above it (c + |X| - |Y| bytes, none when Y
// covers X), dying with X; the caller ties X's buffer on Y's. False, nothing changed, otherwise.
// The one rule for the runtime's planning (rt::OverlapStreams) and the host's memory profile.
// Buffer: size, first, last (rules::PlanBuffer, lifetime::BufferLifetime).
template <typename Buffer>
bool SplitStreamPair(Buffer& x, Buffer& y, uint64_t x_bytes, uint64_t y_bytes, int64_t from, int64_t to, uint64_t c) {
  if (x.size != x_bytes || y.size != y_bytes || x.last != to || y.first != from || c >= y_bytes) return false;
  const uint64_t top = c + x_bytes;  // c < |Y|: no overflow for buffer sizes below 2^63
  y.first = x.first;
  x.size = static_cast<decltype(x.size)>(top > y_bytes ? top - y_bytes : 0);  // < |X|: fits
  return true;
}

}  // namespace arenaplan::rules
