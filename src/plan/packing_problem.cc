#include "plan/packing_problem.h"

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>

namespace arenaplan::plan {
namespace {

using Rng = std::mt19937_64;
constexpr int kCells = static_cast<int>(kPackingSide / kPackingGrid);  // cells per side

// A rectangle of grid cells: time [t0, t1), address [a0, a1).
struct Piece {
  int t0, t1, a0, a1;
  int64_t Area() const { return int64_t{t1 - t0} * (a1 - a0); }
};

int Uniform(Rng& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }  // inclusive

// Time cut positions strictly inside (t0, t1) that avoid the open window (lo, hi) (none: lo >= hi).
std::vector<int> TimeCuts(const Piece& p, int lo, int hi) {
  std::vector<int> out;
  for (int x = p.t0 + 1; x < p.t1; ++x) {
    if (!(lo < x && x < hi)) out.push_back(x);
  }
  return out;
}

// Two distinct sorted positions from `v` (size >= 2).
std::pair<int, int> TwoOf(Rng& rng, const std::vector<int>& v) {
  int i = Uniform(rng, 0, static_cast<int>(v.size()) - 1), j = Uniform(rng, 0, static_cast<int>(v.size()) - 2);
  if (j >= i) ++j;
  return {std::min(v[i], v[j]), std::max(v[i], v[j])};
}

// The four pieces wound round the centre [x1, x2) x [y1, y2) of p, then the centre.
std::vector<Piece> Pinwheel(const Piece& p, int x1, int x2, int y1, int y2) {
  return {{p.t0, x2, p.a0, y1}, {x2, p.t1, p.a0, y2}, {x1, p.t1, y2, p.a1}, {p.t0, x1, y1, p.a1}, {x1, x2, y1, y2}};
}

struct Cutter {
  Rng& rng;
  double pinwheel_share;
  int window_lo = 0, window_hi = 0;  // time cuts never fall strictly inside (lo, hi)
  int guillotine = 0, pinwheel = 0;

  // Replaces pieces[k] by the pieces of one cut; `room` = how many pieces may still be added.
  // False when the piece cannot be cut.
  bool Cut(std::vector<Piece>& pieces, size_t k, size_t room) {
    const Piece p = pieces[k];
    const std::vector<int> tcuts = TimeCuts(p, window_lo, window_hi);
    const int acuts = p.a1 - p.a0 - 1;
    if (room >= 4 && tcuts.size() >= 2 && acuts >= 2 &&
        std::uniform_real_distribution<double>(0, 1)(rng) < pinwheel_share) {
      const auto [x1, x2] = TwoOf(rng, tcuts);
      const int y1 = Uniform(rng, p.a0 + 1, p.a1 - 2), y2 = Uniform(rng, y1 + 1, p.a1 - 1);
      std::vector<Piece> five = Pinwheel(p, x1, x2, y1, y2);
      pieces[k] = five[4];
      pieces.insert(pieces.end(), five.begin(), five.begin() + 4);
      ++pinwheel;
      return true;
    }
    if (tcuts.empty() && acuts <= 0) return false;
    // Cut across the longer side more often, so that pieces stay roughly square.
    const bool in_time = acuts <= 0 || (!tcuts.empty() && Uniform(rng, 1, static_cast<int>(tcuts.size()) + acuts) <=
                                                              static_cast<int>(tcuts.size()));
    Piece a = p, b = p;
    if (in_time) {
      a.t1 = b.t0 = tcuts[Uniform(rng, 0, static_cast<int>(tcuts.size()) - 1)];
    } else {
      a.a1 = b.a0 = Uniform(rng, p.a0 + 1, p.a1 - 1);
    }
    pieces[k] = a;
    pieces.push_back(b);
    ++guillotine;
    return true;
  }

  // Cuts pieces[first..] (area-weighted draws) until there are `target` pieces or none can be cut.
  void CutUntil(std::vector<Piece>& pieces, size_t first, size_t target) {
    while (pieces.size() < target) {
      int64_t total = 0;
      for (size_t k = first; k < pieces.size(); ++k) total += pieces[k].Area();
      if (total <= 0) return;
      int64_t r = std::uniform_int_distribution<int64_t>(0, total - 1)(rng);
      size_t k = first;
      while (r >= pieces[k].Area()) r -= pieces[k++].Area();
      if (!Cut(pieces, k, target - pieces.size())) {
        // Uncuttable (one cell, or pinned by the window): move it out of the drawing range.
        std::swap(pieces[k], pieces[first]);
        if (++first == pieces.size()) return;
      }
    }
  }
};

// A pattern of unit buffers over `steps` steps with exactly `g` live units at every step.
struct Pattern {
  int g = 0, steps = 0;
  std::vector<Piece> buffers;  // t0, t1 in steps; a1 - a0 = size in units (a0 = 0)
};

Pattern RandomPattern(Rng& rng) {
  Pattern pat;
  pat.g = Uniform(rng, 3, 6);
  pat.steps = Uniform(rng, 3, 6);
  std::vector<int> load(pat.steps, 0);
  for (int t = 0; t < pat.steps; ++t) {
    while (load[t] < pat.g) {
      const int s = Uniform(rng, 1, pat.g - load[t]);
      int len = 1;
      while (t + len < pat.steps && load[t + len] + s <= pat.g && Uniform(rng, 0, 9) < 6) ++len;
      for (int u = t; u < t + len; ++u) load[u] += s;
      pat.buffers.push_back({t, t + len, 0, s});
    }
  }
  return pat;
}

// Exhaustive: do the pattern's buffers fit in g units? (Every offset of every buffer, biggest first.)
bool PatternFits(const Pattern& pat) {
  std::vector<Piece> b = pat.buffers;
  std::sort(b.begin(), b.end(), [](const Piece& x, const Piece& y) { return x.a1 > y.a1; });
  std::vector<int> off(b.size(), 0);
  auto fits = [&](auto&& self, size_t k) -> bool {
    if (k == b.size()) return true;
    for (int o = 0; o + b[k].a1 <= pat.g; ++o) {
      bool clash = false;
      for (size_t j = 0; j < k && !clash; ++j) {
        clash = b[j].t0 < b[k].t1 && b[k].t0 < b[j].t1 && off[j] < o + b[k].a1 && o < off[j] + b[j].a1;
      }
      if (clash) continue;
      off[k] = o;
      if (self(self, k + 1)) return true;
    }
    return false;
  };
  return fits(fits, 0);
}

// A pattern that does not fit, with no buffer alive at every step (that one would just be a wall).
Pattern InfeasiblePattern(Rng& rng) {
  while (true) {
    Pattern pat = RandomPattern(rng);
    const bool wall = std::any_of(pat.buffers.begin(), pat.buffers.end(),
                                  [&](const Piece& b) { return b.t0 == 0 && b.t1 == pat.steps; });
    if (!wall && !PatternFits(pat)) return pat;
  }
}

Buffer ToBuffer(const Piece& p) {
  Buffer b;
  b.first = Step{p.t0} * kPackingGrid;
  b.last = Step{p.t1} * kPackingGrid - 1;
  b.size = Bytes{p.a1 - p.a0} * kPackingGrid;
  return b;
}

}  // namespace

const char* PackingVariantName(PackingVariant variant) {
  switch (variant) {
    case PackingVariant::kPerfect: return "perfect";
    case PackingVariant::kSlack: return "slack";
    case PackingVariant::kGadget: return "gadget";
    case PackingVariant::kHeadroom: return "headroom";
  }
  return "?";
}

PackingInstance MakePackingProblem(const PackingOptions& options) {
  Rng rng(options.seed);
  Cutter cutter{rng, options.pinwheel_share};
  std::vector<Piece> pieces{{0, kCells, 0, kCells}};
  std::vector<Piece> gadget;
  PackingInstance out;
  if (options.variant == PackingVariant::kGadget) {
    const Pattern pat = InfeasiblePattern(rng);
    const int ut = Uniform(rng, 4, kCells / 4 / pat.steps), ua = Uniform(rng, 4, kCells / 4 / pat.g);
    const int x1 = Uniform(rng, 1, kCells - 1 - pat.steps * ut), y1 = Uniform(rng, 1, kCells - 1 - pat.g * ua);
    pieces = Pinwheel(pieces[0], x1, x1 + pat.steps * ut, y1, y1 + pat.g * ua);
    pieces.pop_back();  // the centre holds the pattern instead
    ++cutter.pinwheel;
    for (const Piece& b : pat.buffers) gadget.push_back({x1 + b.t0 * ut, x1 + b.t1 * ut, 0, b.a1 * ua});
    cutter.window_lo = x1;
    cutter.window_hi = x1 + pat.steps * ut;
  }
  const size_t target = options.buffers > gadget.size() ? options.buffers - gadget.size() : 1;
  cutter.CutUntil(pieces, 0, target);
  out.guillotine_cuts = cutter.guillotine;
  out.pinwheel_cuts = cutter.pinwheel;

  if (options.variant == PackingVariant::kSlack) {
    std::shuffle(pieces.begin(), pieces.end(), rng);
    const int64_t want = static_cast<int64_t>(options.slack * kCells * kCells);
    int64_t removed = 0;
    std::vector<Piece> kept;
    for (const Piece& p : pieces) {
      if (removed < want && removed + p.Area() <= want + want / 4) {
        removed += p.Area();
        out.removed.push_back(ToBuffer(p));
      } else {
        kept.push_back(p);
      }
    }
    pieces = std::move(kept);
  }
  // Shuffle pieces and pattern together; remember where the pattern went.
  std::vector<std::pair<Piece, bool>> all;
  for (const Piece& p : pieces) all.push_back({p, false});
  for (const Piece& p : gadget) all.push_back({p, true});
  std::shuffle(all.begin(), all.end(), rng);
  out.problem.capacity = kPackingSide;
  if (options.variant == PackingVariant::kHeadroom) {
    out.problem.capacity += static_cast<Bytes>(options.slack * kCells) * kPackingGrid;
  }
  out.feasible = options.variant != PackingVariant::kGadget;
  for (size_t i = 0; i < all.size(); ++i) {
    out.problem.buffers.push_back(ToBuffer(all[i].first));
    if (all[i].second) out.gadget.push_back(i);
    if (out.feasible) out.packing.push_back(Offset{all[i].first.a0} * kPackingGrid);
  }
  out.window_first = Step{cutter.window_lo} * kPackingGrid;
  out.window_last = Step{cutter.window_hi} * kPackingGrid - 1;
  return out;
}

PackingOptions PackingBenchOptions(PackingVariant variant, size_t buffers, double pinwheel_share, int seed) {
  PackingOptions o;
  o.variant = variant;
  o.buffers = buffers;
  o.pinwheel_share = pinwheel_share;
  o.seed = 1000003ull * buffers + 101ull * static_cast<uint64_t>(pinwheel_share * 100) +
           7ull * static_cast<uint64_t>(variant) + static_cast<uint64_t>(seed);
  return o;
}

std::string PackingBenchName(const PackingOptions& options, int seed) {
  char name[64];
  std::snprintf(name, sizeof name, "%s-%zu-p%02d-s%d", PackingVariantName(options.variant), options.buffers,
                static_cast<int>(options.pinwheel_share * 100), seed);
  return name;
}

std::optional<PackingOptions> ParsePackingBenchName(const std::string& name) {
  char variant[16];
  unsigned buffers = 0;
  int pin = 0, seed = 0, used = 0;
  const int got = std::sscanf(name.c_str(), "%15[a-z]-%u-p%d%n-s%d%n", variant, &buffers, &pin, &used, &seed, &used);
  if (got < 3 || static_cast<size_t>(used) != name.size() || pin < 0 || pin > 100 || seed < 0) return std::nullopt;
  for (PackingVariant v :
       {PackingVariant::kPerfect, PackingVariant::kSlack, PackingVariant::kHeadroom, PackingVariant::kGadget}) {
    if (std::string(variant) == PackingVariantName(v)) return PackingBenchOptions(v, buffers, pin / 100.0, seed);
  }
  return std::nullopt;
}

}  // namespace arenaplan::plan
