// Patch geometry: which input positions an output range of a convolution-like window reads, with
// TFLM's padding rule (conv_util / padding.h: SAME pads max(0, (out-1)*stride + eff - in) / 2 in
// front, eff = (kernel-1)*dilation + 1; VALID pads nothing). One spatial dimension at a time; a
// rectangle is two spans. Every function is O(1) except SplitEven, O(parts).
#pragma once

#include <cstdint>
#include <vector>

namespace arenaplan::graph {

// Half-open [begin, end); empty when end <= begin. Positions may be negative or past the extent
// (reads of padding).
struct Span {
  int32_t begin = 0;
  int32_t end = 0;
  int32_t size() const { return end > begin ? end - begin : 0; }
  bool empty() const { return end <= begin; }
  bool operator==(const Span& o) const { return begin == o.begin && end == o.end; }
  bool operator!=(const Span& o) const { return !(*this == o); }
};

struct Window {
  int32_t kernel = 1;
  int32_t stride = 1;
  int32_t dilation = 1;
  int32_t pad_before = 0;  // leading padding (TFLM's pad value for this dimension)
  int32_t effective() const { return (kernel - 1) * dilation + 1; }
};

// Output size TFLM computes: SAME ceil(in / stride), VALID (in - eff + stride) / stride.
int32_t OutputSize(bool same, int32_t in, const Window& w);
// TFLM's leading pad for SAME (0 for VALID), from the output size it computes itself.
int32_t PadBefore(bool same, int32_t in, const Window& w);
// Padding the window reads after the last input position, for `out` outputs over `in` inputs.
int32_t PadAfter(int32_t in, int32_t out, const Window& w);

// Input positions outputs [out.begin, out.end) read, unclipped: the halo of the window.
Span WindowInput(Span out, const Window& w);
Span Clip(Span s, int32_t extent);
// Smallest span containing both (an empty span is the identity).
Span Hull(Span a, Span b);
// How far `s` reaches before 0 and past `extent` (the padding a patch reads), each >= 0.
int32_t Before(Span s);
int32_t After(Span s, int32_t extent);

// `parts` consecutive spans covering [0, extent), sizes differing by at most one (larger first).
std::vector<Span> SplitEven(int32_t extent, int32_t parts);

}  // namespace arenaplan::graph
