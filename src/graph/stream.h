// Zero-recompute streaming for arenaplan's runtime (`optimize --for arenaplan`): chains of
// CONV_2D, DEPTHWISE_CONV_2D, AVERAGE_POOL_2D and MAX_POOL_2D (consecutive ops, each reading the
// previous one's only output, which nothing else reads) are cut into stream segments written as
// kStream records of the arenaplan_schedule (rules/schedule.h; the runtime runs them row by row,
// runtime/stream.h). Each chain is cut by a small dynamic program minimising its local peak:
// a streamed piece costs X + Y + its windows (each window: the rows its reader's kernel spans,
// dilation included, times W x C), an op left alone its input + output (input + one plane when it
// runs in place). Where X dies in the piece (read by its first op only, not a model output) Y may
// be written over X's rows the piece no longer reads: X and Y then cost max(Y, offset + X), the
// offset from the rows' order (rt::StreamOverlapOffset), and the record says so (b = 1, c =
// offset) when that beats X + Y. Ties go to fewer streamed ops (each streamed row costs a kernel call and a
// memmove). Segments replace the in-place marks of their ops. The runtime's measurement decides
// whether the result is kept (optimize.cc). One-subgraph models only. O(ops + chain length^2 x
// window sums), chains capped at runtime::kMaxStreamOps ops per segment.
#pragma once

#include "graph/pad_fold.h"

namespace arenaplan::graph {

// overlap false: no segment writes its output over its input (the cut without that lever; the
// optimizer measures both, since a split pair can place worse than two buffers on some models).
PassReport MarkStreams(model::Graph& g, bool overlap = true);

// The window (16-aligned bytes) that op `op` of subgraph 0 reads its input 0 through in a stream
// (rows its kernel spans x W x C); 0 when it cannot stream.
uint64_t StreamWindowBytes(const model::Graph& g, int32_t op);

}  // namespace arenaplan::graph
