#include "graph/optimize.h"

#include <algorithm>
#include <cstdint>

#include "graph/in_place.h"
#include "graph/int8_io.h"
#include "graph/pad_fold.h"
#include "graph/patch.h"
#include "graph/schedule.h"
#include "graph/stream.h"

namespace arenaplan::graph {

namespace {

struct Best {
  std::vector<uint8_t> bytes;
  Figures figures;
  uint64_t macs = 0;
  std::vector<std::string> what;  // one line per patched segment
  bool overlap = true;             // its streams write outputs over inputs (Measure's choice)
};

double ExtraPct(uint64_t macs, uint64_t base) {
  return base == 0 ? (macs > base ? 100.0 : 0.0)
                   : 100.0 * (static_cast<double>(macs) - static_cast<double>(base)) / static_cast<double>(base);
}

Result<MemoryProfile> Profile(const std::vector<uint8_t>& bytes) {
  auto view = model::ReadModel(bytes.data(), bytes.size());
  if (!view.ok()) return view.status();
  auto g = model::ReadGraph(bytes.data(), bytes.size());
  if (!g.ok()) return g.status();
  return ProfileMemory(*view, **g);
}

// The bytes with the rewrite lines recorded in model::kOptimizeMetadataName (`inspect` shows them).
std::vector<uint8_t> Annotated(const std::vector<uint8_t>& bytes, const std::vector<std::string>& lines) {
  auto g = model::ReadGraph(bytes.data(), bytes.size());
  if (!g.ok() || lines.empty()) return bytes;
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  SetMetadata(**g, model::kOptimizeMetadataName, text);
  auto out = model::WriteGraph(**g);
  return out.ok() ? *out : bytes;
}

std::vector<PatchGrid> Grids(int32_t max_grid) {
  std::vector<PatchGrid> out;
  for (int32_t r = 1; r <= max_grid; ++r) {
    for (int32_t c = std::max(1, r - 1); c <= std::min(max_grid, r + 1); ++c) {
      if (r * c > 1) out.push_back({r, c});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](PatchGrid a, PatchGrid b) { return a.rows * a.cols < b.rows * b.cols; });
  return out;
}

std::string Describe(const model::Graph& g, const Prefix& p, PatchGrid grid, int32_t ops_added) {
  const auto& sg = *g.subgraphs[0];
  return "patches: ops " + std::to_string(p.begin) + ".." + std::to_string(p.split - 1) + " (" +
         OpName(g, *sg.operators[static_cast<size_t>(p.begin)]) + " .. " +
         OpName(g, *sg.operators[static_cast<size_t>(p.split - 1)]) + ") run as a " + std::to_string(grid.rows) + "x" +
         std::to_string(grid.cols) + " grid up to tensor " + sg.tensors[static_cast<size_t>(p.tensor)]->name + " (" +
         std::to_string(ops_added) + " slice / pad / concatenation ops added)";
}

// A candidate as it is measured and written: with explicit padding its PADs folded (pad_fold.h),
// its depthwise convolutions marked in place (in_place.h) and its convolution chains cut into
// stream segments (stream.h), what that did in *report when given.
// overlap: stream segments may write their output over their input (stream.h).
Result<std::vector<uint8_t>> Lowered(const std::vector<uint8_t>& bytes, const OptimizeOptions& o,
                                     PassReport* report = nullptr, bool overlap = true) {
  if (!o.explicit_padding) return bytes;
  auto g = model::ReadGraph(bytes.data(), bytes.size());
  if (!g.ok()) return g.status();
  PassReport pass = FoldPadsExplicit(**g);
  for (const PassReport& more : {MarkInPlace(**g), o.streams ? MarkStreams(**g, overlap) : PassReport{}}) {
    pass.done.insert(pass.done.end(), more.done.begin(), more.done.end());
    pass.skipped.insert(pass.skipped.end(), more.skipped.begin(), more.skipped.end());
    pass.applied += more.applied;
  }
  if (report != nullptr) *report = pass;
  if (pass.applied == 0) return bytes;
  return model::WriteGraph(**g);
}

// Lowered, then measured; with streams both with and without outputs over inputs (the split
// pairs lower the live bytes but can leave the placement a gap elsewhere), the smaller total
// kept (*overlap says which).
Result<Figures> Measure(const std::vector<uint8_t>& bytes, const OptimizeOptions& o, const Evaluator& evaluate,
                        bool final, bool* overlap = nullptr) {
  auto lowered = Lowered(bytes, o);
  if (!lowered.ok()) return lowered.status();
  auto f = evaluate(*lowered, final);
  if (overlap != nullptr) *overlap = true;
  if (!o.explicit_padding || !o.streams) return f;
  auto plain = Lowered(bytes, o, nullptr, false);
  if (!plain.ok() || *plain == *lowered) return f;
  auto g = evaluate(*plain, final);
  if (g.ok() && (!f.ok() || g->min_arena < f->min_arena)) {
    if (overlap != nullptr) *overlap = false;
    return g;
  }
  return f;
}

// Tries the grids on one segment, coarse to fine, until the extra MACs pass the limit or the
// total grew twice in a row (finer grids trade head for tail); updates best / zero-extra.
// `done` holds the lines of the segments already patched in `g`.
void TrySplit(const model::Graph& g, const Prefix& p, const OptimizeOptions& o, const Evaluator& evaluate,
              uint64_t base_macs, const std::vector<std::string>& done, Best& best, Best& zero, OptimizeResult& r) {
  uint64_t local = UINT64_MAX;
  int32_t worse = 0;
  for (PatchGrid grid : Grids(o.max_grid)) {
    auto patched = PatchPrefix(g, p, grid);
    if (!patched.ok()) continue;
    const uint64_t macs = GraphMacs(*patched->graph);
    const double extra = ExtraPct(macs, base_macs);
    if (extra > o.max_extra_macs_pct + 1e-9) break;  // finer grids only add halo
    auto bytes = model::WriteGraph(*patched->graph);
    if (!bytes.ok()) continue;
    bool overlap = true;
    auto f = Measure(*bytes, o, evaluate, false, &overlap);
    ++r.candidates;
    if (!f.ok()) continue;
    if (f->min_arena < best.figures.min_arena) {
      best = {*bytes, *f, macs, done, overlap};
      best.what.push_back(Describe(g, p, grid, patched->ops_added));
    }
    if (macs <= base_macs && f->min_arena < zero.figures.min_arena) zero = {*bytes, *f, macs, {}, overlap};
    worse = f->min_arena < local ? 0 : worse + 1;
    local = std::min(local, f->min_arena);
    if (worse >= 2) break;
  }
}

// Indices i where exactly one non-constant tensor computed before op i is read from op i on.
std::vector<int32_t> NarrowPoints(const model::Graph& g) {
  const auto& sg = *g.subgraphs[0];
  const int32_t n = static_cast<int32_t>(sg.operators.size());
  std::vector<int32_t> producer(sg.tensors.size(), -1), last_read(sg.tensors.size(), -1);
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t t : sg.operators[static_cast<size_t>(i)]->outputs)
      if (t >= 0) producer[static_cast<size_t>(t)] = i;
    for (int32_t t : sg.operators[static_cast<size_t>(i)]->inputs)
      if (t >= 0) last_read[static_cast<size_t>(t)] = i;
  }
  for (int32_t t : sg.outputs)
    if (t >= 0) last_read[static_cast<size_t>(t)] = n;
  std::vector<int32_t> points;
  for (int32_t i = 1; i < n; ++i) {
    int32_t crossing = 0;
    for (size_t t = 0; t < sg.tensors.size(); ++t) crossing += producer[t] >= 0 && producer[t] < i && last_read[t] >= i;
    if (crossing == 1) points.push_back(i);
  }
  return points;
}

// One more round: segments around the current peak of `best` (begin at a narrow point or 0 at or
// before the peak op, end at one of the next narrow points after it). True when best improved.
bool PatchAroundPeak(const OptimizeOptions& o, const Evaluator& evaluate, uint64_t base_macs, Best& best, Best& zero,
                     OptimizeResult& r) {
  constexpr size_t kEnds = 6, kBegins = 6;
  auto g = model::ReadGraph(best.bytes.data(), best.bytes.size());
  auto profile = g.ok() ? Profile(best.bytes) : Result<MemoryProfile>(g.status());
  if (!g.ok() || !profile.ok() || profile->peak_step < 1) return false;
  const int32_t peak_op = static_cast<int32_t>(profile->peak_step) - 1;
  const std::vector<int32_t> points = NarrowPoints(**g);
  std::vector<int32_t> begins{0}, ends;
  for (auto it = points.rbegin(); it != points.rend() && begins.size() <= kBegins; ++it) {
    if (*it <= peak_op) begins.push_back(*it);
  }
  for (int32_t k : points) {
    if (k > peak_op && ends.size() < kEnds) ends.push_back(k);
  }
  const uint64_t before = best.figures.min_arena;
  const std::vector<std::string> done = best.what;
  for (int32_t a : begins) {
    for (int32_t k : ends) {
      auto p = AnalyzeSegment(**g, a, k);
      if (p.ok()) TrySplit(**g, *p, o, evaluate, base_macs, done, best, zero, r);
    }
  }
  return best.figures.min_arena < before;
}

}  // namespace

Result<OptimizeResult> Optimize(
    const std::vector<uint8_t>& input, const OptimizeOptions& o, const Evaluator& evaluate,
    const std::function<Result<std::vector<uint8_t>>(const std::vector<uint8_t>&)>& finish) {
  auto graph = model::ReadGraph(input.data(), input.size());
  if (!graph.ok()) return graph.status();
  OptimizeResult r;
  auto profile = Profile(input);
  if (!profile.ok()) return profile.status();
  r.profile_before = r.profile_after = *profile;
  r.macs_before = r.macs_after = profile->macs;
  auto before = evaluate(input, true);
  if (!before.ok() && before.status().code() == ErrorCode::kUnsupported) {
    r.bytes = input;  // nothing to compare against: left as it is
    r.skipped.push_back(before.status().message() + ": the model is written unchanged");
    return r;
  }
  if (!before.ok()) return before.status();
  r.before = r.after = *before;
  model::Graph& g = **graph;
  if (HasSchedule(g)) {
    r.bytes = input;
    r.skipped.push_back("the model already has an arenaplan schedule (it was optimized for arenaplan): written unchanged");
    return r;
  }
  for (int k = 0; k < 2; ++k) {
    const PassReport pass = k == 0 ? (o.int8_io ? QuantizedIo(g) : PassReport{}) : FoldPads(g);
    r.rewrites.insert(r.rewrites.end(), pass.done.begin(), pass.done.end());
    // With explicit padding, the PADs SAME cannot take are folded later (and reported then).
    if (k == 0 || !o.explicit_padding) r.skipped.insert(r.skipped.end(), pass.skipped.begin(), pass.skipped.end());
  }
  auto base_bytes = model::WriteGraph(g);
  if (!base_bytes.ok()) return base_bytes.status();
  bool base_overlap = true;
  auto base = Measure(*base_bytes, o, evaluate, false, &base_overlap);
  if (!base.ok()) return base.status();
  const uint64_t base_macs = GraphMacs(g);
  Best best{*base_bytes, *base, base_macs, {}, base_overlap}, zero = best;
  auto base_profile = Profile(*base_bytes);
  if (!base_profile.ok()) return base_profile.status();
  const size_t ops = g.subgraphs.empty() ? 0 : g.subgraphs[0]->operators.size();
  std::string last_reason;
  for (size_t k = ops > 0 ? ops - 1 : 0; k >= 1; --k) {
    auto p = AnalyzePrefix(g, static_cast<int32_t>(k));
    if (!p.ok()) {
      last_reason = p.status().message();
      continue;
    }
    // The rest of the model alone needs at least its live peak after the split.
    const auto& live = base_profile->live_bytes;
    const uint64_t rest = live.size() > k + 1 ? *std::max_element(live.begin() + static_cast<long>(k) + 1, live.end())
                                              : 0;
    if (rest >= best.figures.head) continue;
    TrySplit(g, *p, o, evaluate, base_macs, {}, best, zero, r);
    // For the runtime a leading QUANTIZE from float runs over its input (in_place.h): the patches
    // may then start after it, on the narrow int8 tensor, while the float buffer's rest is free.
    if (o.explicit_padding && k > 1 && OpCode(g, *g.subgraphs[0]->operators[0]) == BuiltinOperator::QUANTIZE) {
      auto q = AnalyzeSegment(g, 1, static_cast<int32_t>(k));
      if (q.ok()) TrySplit(g, *q, o, evaluate, base_macs, {}, best, zero, r);
    }
  }
  for (int round = 0; round < 3 && !best.what.empty(); ++round) {
    if (!PatchAroundPeak(o, evaluate, base_macs, best, zero, r)) break;
  }
  if (best.what.empty())
    r.skipped.push_back("patches: no prefix helps" +
                        (last_reason.empty() ? "" : " (deepest reason: " + last_reason + ")"));
  r.rewrites.insert(r.rewrites.end(), best.what.begin(), best.what.end());
  PassReport lowering;
  // With the variant the search measured for it: no second measurement of the winner.
  auto lowered = Lowered(best.bytes, o, &lowering, best.overlap);
  if (!lowered.ok()) return lowered.status();
  r.rewrites.insert(r.rewrites.end(), lowering.done.begin(), lowering.done.end());
  r.skipped.insert(r.skipped.end(), lowering.skipped.begin(), lowering.skipped.end());
  auto out = finish(Annotated(*lowered, r.rewrites));
  if (!out.ok()) {
    r.skipped.push_back("finishing: " + out.status().message());
    out = *lowered;
  }
  auto after = evaluate(*out, true);
  if (!after.ok()) return after.status();
  r.zero_extra_min_arena = std::min(zero.figures.min_arena, r.before.min_arena);
  r.zero_extra_head = zero.figures.min_arena < r.before.min_arena ? zero.figures.head : r.before.head;
  if (after->min_arena >= r.before.min_arena) {
    r.bytes = input;
    r.after = r.before;
    r.macs_after = r.macs_before;
    r.profile_after = r.profile_before;
    r.skipped.push_back("nothing lowers the arena: the model is written unchanged");
    r.rewrites.clear();
    return r;
  }
  r.bytes = std::move(*out);
  r.changed = true;
  r.after = *after;
  if (after->head < best.figures.head || r.rewrites.empty()) {
    r.rewrites.push_back("offline plan: head " + std::to_string(after->head) + " bytes as planned into the model");
  }
  auto prof = Profile(r.bytes);
  if (!prof.ok()) return prof.status();
  r.profile_after = *prof;
  r.macs_after = prof->macs;
  r.extra_macs_pct = ExtraPct(r.macs_after, r.macs_before);
  return r;
}

}  // namespace arenaplan::graph
