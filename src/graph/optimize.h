// `arenaplan optimize`: the passes and the search. In order: int8 I/O (when asked), PAD folding,
// then patch-based execution of a prefix: every split point whose prefix can run patch by patch
// (patch.h) and whose remaining model needs less than the best total so far is tried with grids
// from 1x2 to 8x8 (rows and columns differing by at most one), within the extra-MACs limit; the
// candidate with the smallest total arena wins (an Evaluator measures it: for stock TFLM the
// target's smallest working arena, whose tail grows with every op added; for arenaplan's runtime
// what the runtime reports). The result must beat the input model, else the input is returned
// unchanged with the reasons. With explicit_padding, each candidate is measured (and the winner
// written) with its PADs folded into the convolutions; the search itself runs on the standard-op
// graph. A model that already has an arenaplan schedule is returned unchanged.
// O(splits x grids x evaluation).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "graph/analysis.h"
#include "util/result.h"

namespace arenaplan::graph {

struct Figures {
  uint64_t head = 0;
  uint64_t tail = 0;
  uint64_t arena_used = 0;  // head + tail
  uint64_t min_arena = 0;   // the smallest arena that works (the figure optimized)
};

// Measures a candidate model. `final` asks for the exact figure (e.g. with the best planner);
// otherwise a fast estimate good for ranking.
using Evaluator = std::function<Result<Figures>(const std::vector<uint8_t>& model, bool final)>;

struct OptimizeOptions {
  double max_extra_macs_pct = 20.0;
  bool int8_io = false;
  int32_t max_grid = 8;
  // arenaplan's runtime: every candidate's remaining PADs folded into explicit convolution
  // padding (FoldPadsExplicit, pad_fold.h) and its depthwise convolutions marked in place
  // (MarkInPlace, in_place.h) before it is measured and written. Not for stock TFLM.
  bool explicit_padding = false;
  // With explicit_padding: convolution / pool chains also cut into stream segments (MarkStreams,
  // stream.h: zero recompute, so they are what lowers the head at --max-extra-macs 0).
  bool streams = true;
};

struct OptimizeResult {
  std::vector<uint8_t> bytes;  // the model to write (the input when nothing helped)
  bool changed = false;
  Figures before, after;
  uint64_t macs_before = 0, macs_after = 0;
  double extra_macs_pct = 0;
  uint64_t zero_extra_min_arena = 0;  // best total among candidates with no extra MACs
  uint64_t zero_extra_head = 0;       // its head
  std::vector<std::string> rewrites;  // what changed, one line each
  std::vector<std::string> skipped;   // what was left alone and why
  MemoryProfile profile_before, profile_after;
  int32_t candidates = 0;  // patch candidates evaluated
};

// `finish` turns the chosen graph's bytes into the bytes to write (e.g. adds an offline plan) and
// measures them exactly. Errors: a malformed model (InvalidArgument), an evaluator failure on
// the input model.
Result<OptimizeResult> Optimize(const std::vector<uint8_t>& input, const OptimizeOptions& options,
                                const Evaluator& evaluate,
                                const std::function<Result<std::vector<uint8_t>>(const std::vector<uint8_t>&)>& finish);

}  // namespace arenaplan::graph
