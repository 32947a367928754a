#include "graph/geometry.h"

#include <algorithm>

namespace arenaplan::graph {

int32_t OutputSize(bool same, int32_t in, const Window& w) {
  if (w.stride < 1) return 0;
  if (same) return (in + w.stride - 1) / w.stride;
  return (in - w.effective() + w.stride) / w.stride;
}

int32_t PadBefore(bool same, int32_t in, const Window& w) {
  if (!same) return 0;
  const int32_t out = OutputSize(true, in, w);
  return std::max(0, ((out - 1) * w.stride + w.effective() - in) / 2);
}

int32_t PadAfter(int32_t in, int32_t out, const Window& w) {
  if (out <= 0) return 0;
  return std::max(0, (out - 1) * w.stride - w.pad_before + w.effective() - in);
}

Span WindowInput(Span out, const Window& w) {
  if (out.empty()) return {};
  return {out.begin * w.stride - w.pad_before, (out.end - 1) * w.stride - w.pad_before + w.effective()};
}

Span Clip(Span s, int32_t extent) {
  const Span c{std::max(s.begin, 0), std::min(s.end, extent)};
  return c.empty() ? Span{} : c;
}

Span Hull(Span a, Span b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return {std::min(a.begin, b.begin), std::max(a.end, b.end)};
}

int32_t Before(Span s) { return s.empty() ? 0 : std::max(0, -s.begin); }
int32_t After(Span s, int32_t extent) { return s.empty() ? 0 : std::max(0, s.end - extent); }

std::vector<Span> SplitEven(int32_t extent, int32_t parts) {
  std::vector<Span> out;
  if (parts < 1 || extent < parts) return out;
  const int32_t base = extent / parts, extra = extent % parts;
  int32_t at = 0;
  for (int32_t i = 0; i < parts; ++i) {
    const int32_t n = base + (i < extra ? 1 : 0);
    out.push_back({at, at + n});
    at += n;
  }
  return out;
}

}  // namespace arenaplan::graph
