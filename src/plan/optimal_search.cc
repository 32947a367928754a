// The decision portfolio (see optimal_search.h).
#include "plan/optimal_search.h"

#include <algorithm>
#include <exception>
#include <iterator>
#include <memory>
#include <numeric>
#include <system_error>
#include <thread>

#include "plan/block_merge.h"
#include "plan/gravity_search.h"
#include "plan/hole_fill.h"
#include "plan/skyline_search.h"
#include "plan/take_apart.h"

namespace arenaplan::plan::optimal_internal {
namespace {

// Problems whose free area (capacity x duration minus the buffers' area) is at most this share
// are tight: the skyline search joins the restarts. Above it wasted cells are common, and the
// skyline search (which wastes one cell per decision) only slows down.
constexpr double kTightFreeArea = 0.05;
// Problems whose free area is at most this share are nearly full: the block stage runs first. It
// packs pieces cut from a rectangle with some taken out, and MiniMalloc's D (5.7 % free at its
// bound) is such a problem: its blocks pack at the bound in 256 nodes. Problems of up to
// kLooseBlockMaxBuffers buffers count as nearly full up to kLooseBlockFreeArea: MiniMalloc's J
// (14 % free at its bound) gets plans of 1,013,760 there, 1,032,192 without. Larger problems do
// not: the stage then takes its share from the exact search of peak anchoring's windows (thousands
// of buffers), and IOPDDL S misses its bound (1.0021 in 10 s instead of the bound in 2.4 s).
constexpr double kNearlyFullFreeArea = 0.08;
constexpr double kLooseBlockFreeArea = 0.20;
constexpr size_t kLooseBlockMaxBuffers = 1000;
// Node cap of one block-stage search: this many nodes per block, plus a constant. Measured on
// the packing benchmark: glued problems that are solvable at all solve within a few nodes per
// block; the rest are usually glued wrongly.
constexpr int64_t kBlockNodesPerBlock = 50;
constexpr int64_t kBlockNodesBase = 5000;
// The block stage may use this share of the time left: it can only find plans, never refute, so
// on an infeasible capacity it is pure cost.
constexpr double kBlockStageShare = 0.75;

// The fill stage (hole_fill.h): at most this many ways to fill each segment, found in at most
// this many steps in all, ranked within this share of the stage's time, the best-ranked this many
// filler sets tried, and this share of the block stage's time (the rest is the unfilled
// problem's). Measured on packing_bench's slack-800-p20-s17: the construction's holes are the 21st
// way of one of its 8 segments, and ranking its 166 ways takes about 0.7 s of a 20 s limit.
constexpr size_t kFillerWays = 64;
constexpr int64_t kFillerNodes = 200000;
constexpr double kFillerRankShare = 0.1;
constexpr size_t kFillerSetsTried = 12;
constexpr double kFillStageShare = 0.75;
// The problem's own blocks as glued get at most this share first: on perfect packings they are
// the answer, on slack packings their searches are slow (about 3 s on packing_bench's slack-800).
constexpr double kOwnBlocksShare = 0.1;

// How the cautious stage spends its time: `stage`, its share of the block stage's time left after
// the problem's own blocks; `restarts`, the share of what is left, once glueing its blocks again
// has failed, for searching them plainly (the restarts) before taking them apart.
struct CautiousShares {
  double stage;
  double restarts;
};
// One direction after the other. The restarts: perfect-800-p20-s14 of packing_bench packs that
// way in about 1 s, and had no answer in 60 s (glueing its cautious blocks again joins wrongly).
// Not within a filled problem of the fill stage: there the time went missing (slack-800-p20-s13
// failed). Run before the glued searches, they slowed packing_bench's default run from 7.2 s to
// 10.2 s.
constexpr CautiousShares kCautiousShares{0.3, 0.5};
// The mirror image's side of a race (two threads) leans to the restarts, so that the two sides
// differ: perfect-800-p20-s16 packs by its mirror image's restarts after 2.5 s of them, -s17 and
// -p10-s7 by taking cautious blocks apart. With these shares on the mirror's side all three pack
// within 20 s; with kCautiousShares on both sides -s16 did not, with {0.3, 0.75} on both (or on
// the mirror's) -p10-s7 did not.
constexpr CautiousShares kMirrorRacerCautiousShares{0.5, 0.75};

// Glueing's cost in search steps per buffer (measured: about 4 us per buffer per call in
// Release, a search step about 1 us), charged to a work clock (Limits::Charge).
constexpr int64_t kGlueStepsPerBuffer = 4;

std::vector<Block> Glued(const std::vector<Buffer>& buffers, int rules, const Limits& limits) {
  limits.Charge(kGlueStepsPerBuffer * static_cast<int64_t>(buffers.size()));
  return MergeBlocks(buffers, rules);
}

// The gravity search's static orders (gravity_search.h), tried in turn.
const char* const kGravityOrders[] = {"WAT", "TAW", "TWA"};

// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ... (i >= 1).
int64_t Luby(int64_t i) {
  int64_t k = 1;
  while ((int64_t{1} << k) - 1 < i) ++k;
  if ((int64_t{1} << k) - 1 == i) return int64_t{1} << (k - 1);
  return Luby(i - (int64_t{1} << (k - 1)) + 1);
}

// Skyline run i: the base orders in turn, then seeded variants of them. Each round of six branches
// on the cell with the fewest alternatives, alternately in any valley and (first) in the lowest
// valley unless another has fewer: on perfect-800-p20-s19's cautious blocks 35 of 300 and 4 of 200
// seeded runs of 10k nodes packed, against 1 of 300 with the lowest valley's best piece; each rule packs
// instances the other does not (the README's "Fewest alternatives first").
SkylineOrder SkylineVariant(int64_t i) {
  static const char* const kKeys[] = {"WAZ", "OWA", "AWZ", "ZWA", "CWA", "WZA"};
  constexpr int64_t kCount = sizeof(kKeys) / sizeof(kKeys[0]);
  SkylineOrder o;
  o.keys = kKeys[i % kCount];
  o.seed = i < kCount ? 0 : static_cast<uint32_t>(i);
  o.cell = (i / kCount) % 2 == 1 ? SkylineCell::kFewest : SkylineCell::kFewestElseLowest;
  return o;
}

}  // namespace

struct DecisionSearch::Impl {
  std::vector<Buffer> buffers;
  GravitySearch gravity;
  std::unique_ptr<SkylineSearch> skyline;  // when applicable
  double area = 0, duration = 0;           // sum of size x lifetime; sum of section widths
  std::vector<std::vector<Block>> glued;   // the block stage's problems, built on first use
  std::vector<Bytes> glue_failed;          // capacities the block stage has already failed at
  int64_t block_nodes = 0;
  Bytes g = 0;                   // gcd of the sizes
  std::unique_ptr<Impl> mirror;  // the problem mirrored in time (MirroredInTime), built on first use
  // While the problem and its mirror image race on two threads (DecisionSearch::Decide): each
  // searches only its own direction, and the mirror's counters are its thread's.
  bool racing = false;
  CautiousShares cautious_shares = kCautiousShares;  // kMirrorRacerCautiousShares on a race's mirror side
  int64_t raced_nodes = 0;                           // the mirror's plain nodes of past races

  explicit Impl(const std::vector<Buffer>& b) : buffers(b), gravity(b) {
    if (SkylineSearch::Applicable(b)) skyline = std::make_unique<SkylineSearch>(b);
    const Sections sec = BuildSections(b);
    for (int s = 0; s < sec.num_sections; ++s) { duration += static_cast<double>(sec.points[s + 1] - sec.points[s]); }
    for (const Buffer& x : b) area += static_cast<double>(x.size) * static_cast<double>(x.last - x.first + 1);
    for (const Buffer& x : b) g = std::gcd(g, x.size);
  }
  bool FreeAreaAtMost(Bytes capacity, double share) const {
    return skyline != nullptr && duration > 0 && 1.0 - area / (static_cast<double>(capacity) * duration) <= share;
  }
  bool Tight(Bytes capacity) const { return FreeAreaAtMost(capacity, kTightFreeArea); }
  bool NearlyFull(Bytes capacity) const {
    return FreeAreaAtMost(capacity,
                          buffers.size() <= kLooseBlockMaxBuffers ? kLooseBlockFreeArea : kNearlyFullFreeArea);
  }
  Outcome SolveGlued(const std::vector<Block>& blocks, Bytes capacity, const Limits& limits,
                     std::vector<Offset>* offsets);
  void Glue(const Limits& limits);
  int64_t BlockNodes() const {
    return block_nodes + raced_nodes + (mirror != nullptr && !racing ? mirror->block_nodes : 0);
  }
  int64_t PlainNodes() const { return gravity.nodes() + (skyline != nullptr ? skyline->nodes() : 0); }
  // The block stage where the problem is nearly full, then the restarts.
  Outcome Pipeline(Bytes capacity, const Limits& limits, std::vector<Offset>* offsets) {
    if (NearlyFull(capacity)) {
      const Outcome r = BlockStage(capacity, limits, offsets);
      if (r == Outcome::kFound || r == Outcome::kCancelled) return r;
    }
    return Restarts(capacity, limits, offsets);
  }
  Outcome Race(Bytes capacity, const Limits& limits, std::vector<Offset>* offsets);
  Impl& Mirror() {
    if (mirror == nullptr) mirror = std::make_unique<Impl>(MirroredInTime(buffers));
    return *mirror;
  }
  template <typename Stage>
  Outcome BothWays(Bytes capacity, const Limits& limits, const Stage& stage);
  Outcome BlockStage(Bytes capacity, const Limits& limits, std::vector<Offset>* offsets);
  Outcome FillStage(Bytes capacity, const Limits& limits, std::vector<Offset>* offsets);
  Outcome CautiousStage(Bytes capacity, const Limits& limits, bool restarts, std::vector<Offset>* offsets);
  // What a derived problem's block search tries between its glued blocks and taking them apart.
  enum class Between { kNothing, kCautiousStage, kRestarts };
  Outcome SearchBlocks(Bytes capacity, const Limits& limits, Between between, std::vector<Offset>* offsets);
  Outcome SearchVariants(Bytes capacity, const Limits& limits, std::vector<Offset>* offsets);
  Outcome SearchTakenApart(Bytes capacity, const Limits& limits, std::vector<Offset>* offsets);
  Outcome Restarts(Bytes capacity, const Limits& limits, std::vector<Offset>* offsets);
};

// Searches the blocks as buffers (skyline and gravity runs in turn, the gravity search through its
// three orders, Luby budgets) under the node cap; on success writes every member's offset.
Outcome DecisionSearch::Impl::SolveGlued(const std::vector<Block>& blocks, Bytes capacity, const Limits& limits,
                                         std::vector<Offset>* offsets) {
  const std::vector<Buffer> as_buffers = BlockBuffers(blocks);
  SkylineSearch sky(as_buffers);
  GravitySearch grav(as_buffers);
  std::vector<Offset> at;
  const int64_t cap = kBlockNodesPerBlock * static_cast<int64_t>(blocks.size()) + kBlockNodesBase;
  const int64_t unit = 2 * static_cast<int64_t>(blocks.size()) + 64;
  Outcome r = Outcome::kBudget;
  for (int64_t i = 1; r == Outcome::kBudget && sky.nodes() + grav.nodes() < cap; ++i) {
    const int64_t budget = std::min(unit * Luby((i + 1) / 2), cap - sky.nodes() - grav.nodes());
    r = i % 2 == 1 ? sky.Run(capacity, SkylineVariant(i / 2), budget, limits, &at)
                   : grav.Run(capacity, kGravityOrders[(i / 2) % 3], i % 4 == 0, budget, limits, &at);
  }
  block_nodes += sky.nodes() + grav.nodes();
  if (r != Outcome::kFound) return r == Outcome::kNotFound ? Outcome::kBudget : r;  // glued: no proof
  *offsets = PlaceMembers(blocks, at, buffers.size());
  return Outcome::kFound;
}

// The blocks of every glueing variant (kGlueVariants), built once; those already there (the fill
// stage hands over the first variant's, which ranked the filler sets) are kept. Stops when the time
// is up (a later call goes on): five glueings of a filled problem's share that is almost spent
// took the optimal planner 3-8 ms past a 0.2 s limit.
void DecisionSearch::Impl::Glue(const Limits& limits) {
  for (size_t v = glued.size(); v < std::size(kGlueVariants) && !limits.Expired(); ++v) {
    glued.push_back(Glued(buffers, kGlueVariants[v], limits));
  }
}

// The problem's own blocks as glued (kOwnBlocksShare); then, where the capacity leaves room, the
// fill stage (kFillStageShare of the stage's time left); then the searches that take the
// problem's own blocks apart.
Outcome DecisionSearch::Impl::BlockStage(Bytes capacity, const Limits& outer, std::vector<Offset>* offsets) {
  if (std::find(glue_failed.begin(), glue_failed.end(), capacity) != glue_failed.end()) return Outcome::kBudget;
  const Limits limits = ShareOf(outer, kBlockStageShare);
  const Limits quick = ShareOf(limits, kOwnBlocksShare);
  Outcome r = BothWays(capacity, quick,
                       [&](Impl& im, const Limits& l) { return im.SearchVariants(capacity, l, offsets); });
  if (r == Outcome::kFound || r == Outcome::kCancelled) return r;
  // With no area free the cautious stage goes first (there is nothing to fill); else the fill
  // stage does, as the holes explain most wrong glues of slack packings.
  Outcome cautious = Outcome::kBudget;
  auto run_cautious = [&] {
    cautious = BothWays(capacity, limits,
                        [&](Impl& im, const Limits& l) { return im.CautiousStage(capacity, l, true, offsets); });
    return cautious == Outcome::kFound || cautious == Outcome::kCancelled;
  };
  const bool full = FreeAreaAtMost(capacity, 0);
  if (full && run_cautious()) return cautious;
  const Outcome filled = FillStage(capacity, ShareOf(limits, kFillStageShare), offsets);
  if (filled == Outcome::kFound || filled == Outcome::kCancelled) return filled;
  if (!full && run_cautious()) return cautious;
  r = BothWays(capacity, limits, [&](Impl& im, const Limits& l) { return im.SearchTakenApart(capacity, l, offsets); });
  if (r == Outcome::kFound || r == Outcome::kCancelled) return r;
  // Only a stage that ran every search to its node cap is not worth repeating: one cut short by
  // its share of a brief probe's time gets another chance under a later, longer probe.
  if (r == Outcome::kBudget && filled == Outcome::kBudget && cautious == Outcome::kBudget) {
    glue_failed.push_back(capacity);
  }
  return Outcome::kBudget;
}

// A block stage's step on the problem (half the time) and then on its mirror image: each solves
// instances the other does not (packing_bench's perfect-800-p10-s7 and perfect-700-p50-s9 pack
// only mirrored). kBudget when both spent their node caps. Only on tight capacities: with more
// area free the stage finds plans on most probes, and halving its time costs more than the
// mirror brings (MiniMalloc's J: 1,035,264 in 10 s instead of 1,019,904).
template <typename Stage>
Outcome DecisionSearch::Impl::BothWays(Bytes capacity, const Limits& limits, const Stage& stage) {
  Glue(limits);
  if (racing || !Tight(capacity) || !CanMirrorInTime(buffers)) return stage(*this, limits);
  const Outcome r = stage(*this, ShareOf(limits, 0.5));
  if (r == Outcome::kFound || r == Outcome::kCancelled) return r;
  if (limits.Expired()) return Outcome::kTimeout;
  Impl& m = Mirror();
  m.Glue(limits);
  const Outcome mirrored = stage(m, limits);
  if (mirrored == Outcome::kFound || mirrored == Outcome::kCancelled) return mirrored;
  return r == Outcome::kBudget && mirrored == Outcome::kBudget ? Outcome::kBudget : Outcome::kTimeout;
}

// The problem glued cautiously (kCautiousRules) and the blocks then searched as a problem of
// their own, within cautious_shares.stage of the time left: glued again by every variant, as glued; then
// (`restarts`) plainly, by the restarts of the unglued search; then taken apart. Taking a block
// apart there frees cautious blocks, not single buffers, so the wrong glue is found among fewer,
// likelier parts.
Outcome DecisionSearch::Impl::CautiousStage(Bytes capacity, const Limits& outer, bool restarts,
                                            std::vector<Offset>* offsets) {
  if (outer.Expired()) return Outcome::kTimeout;
  const std::vector<Block> blocks = Glued(buffers, kCautiousRules, outer);
  if (blocks.size() == buffers.size()) return Outcome::kBudget;
  const Limits limits = ShareOf(outer, cautious_shares.stage);
  Impl cautious(BlockBuffers(blocks));
  cautious.cautious_shares = cautious_shares;
  std::vector<Offset> at;
  const Outcome r = cautious.SearchBlocks(capacity, limits, restarts ? Between::kRestarts : Between::kNothing, &at);
  block_nodes += cautious.BlockNodes();
  if (r == Outcome::kFound) *offsets = PlaceMembers(blocks, at, buffers.size());
  return r;
}

// The filler sets of hole_fill.h, best-ranked first, each filled problem glued into its own blocks
// and searched like the problem's (as glued, glued cautiously, then taken apart) with a share of
// the time left that falls with its rank. kBudget when nothing was found (or there is nothing to
// fill), kTimeout when the time ran out first.
Outcome DecisionSearch::Impl::FillStage(Bytes capacity, const Limits& limits, std::vector<Offset>* offsets) {
  if (skyline == nullptr) return Outcome::kBudget;
  int64_t steps = 0;
  const std::vector<FillerSegment> segments = FillerChoices(buffers, capacity, g, kFillerWays, kFillerNodes, &steps);
  limits.Charge(steps);
  if (segments.empty()) return Outcome::kBudget;
  auto with = [&](const std::vector<size_t>& pick) {
    std::vector<Buffer> b = buffers;
    for (size_t s = 0; s < segments.size(); ++s) {
      b.insert(b.end(), segments[s].ways[pick[s]].begin(), segments[s].ways[pick[s]].end());
    }
    return b;
  };
  // Fillers that explain the holes right let more pieces glue back, so each segment's ways are
  // scored by the blocks the first glueing variant leaves with every other segment filled
  // plainly (first ways first, every segment in turn, within kFillerRankShare), and the picks of
  // the lowest score sum are glued whole and tried in order of their blocks, then of their score.
  // Glueing only the buffers alive in the segment costs a tenth, but it misses chains that reach
  // beyond: on slack-800-p20-s17 it ties the construction's holes with two other ways, glueing the
  // whole problem ranks them first by 15 blocks.
  const Limits ranking = ShareOf(limits, kFillerRankShare);
  const std::vector<size_t> plainest(segments.size(), 0);
  const auto plain_blocks = static_cast<int64_t>(Glued(with(plainest), kGlueVariants[0], limits).size());
  std::vector<std::vector<int64_t>> scores(segments.size(), std::vector<int64_t>{plain_blocks});
  for (size_t way = 1;; ++way) {
    bool any = false;
    for (size_t s = 0; s < segments.size(); ++s) {
      if (way >= segments[s].ways.size()) continue;
      if (limits.Expired()) return Outcome::kTimeout;
      if (ranking.Expired()) break;
      std::vector<size_t> pick = plainest;
      pick[s] = way;
      scores[s].push_back(static_cast<int64_t>(Glued(with(pick), kGlueVariants[0], limits).size()));
      any = true;
    }
    if (!any) break;
  }
  const std::vector<std::vector<size_t>> picks = LowestPicks(scores, kFillerSetsTried);
  std::vector<std::vector<Block>> first_variant(picks.size());
  std::vector<std::pair<size_t, size_t>> order;  // (blocks, pick)
  for (size_t k = 0; k < picks.size(); ++k) {
    if (limits.Expired()) return Outcome::kTimeout;
    first_variant[k] = Glued(with(picks[k]), kGlueVariants[0], limits);
    order.emplace_back(first_variant[k].size(), k);
  }
  std::stable_sort(order.begin(), order.end());
  // The k-th set tried has weight 1 / (k + 1)^2, so the first gets 63 % of the stage: the right
  // set usually ranks first, and with 1 / (k + 1) (31 %) slack-800-p20-s2's ran out of time there.
  auto weight = [](size_t k) { return 1.0 / static_cast<double>((k + 1) * (k + 1)); };
  double weights = 0;
  for (size_t k = 0; k < order.size(); ++k) weights += weight(k);
  std::vector<Offset> at;
  for (size_t k = 0; k < order.size(); ++k) {
    if (limits.Expired()) return Outcome::kTimeout;
    const Limits share = ShareOf(limits, weight(k) / weights);
    weights -= weight(k);
    Impl filled(with(picks[order[k].second]));
    filled.racing = racing;
    filled.cautious_shares = cautious_shares;
    filled.glued.push_back(std::move(first_variant[order[k].second]));
    const Outcome r = filled.BothWays(capacity, share, [&](Impl& im, const Limits& l) {
      return im.SearchBlocks(capacity, l, Between::kCautiousStage, &at);
    });
    block_nodes += filled.BlockNodes();
    if (r == Outcome::kFound) {
      offsets->assign(at.begin(), at.begin() + static_cast<std::ptrdiff_t>(buffers.size()));
      return r;
    }
    if (r == Outcome::kCancelled) return r;
  }
  return limits.Expired() ? Outcome::kTimeout : Outcome::kBudget;
}

// A derived problem's blocks (the cautious stage's, a filled one's): every variant as glued, then
// `between` (a filled problem, a perfect packing when its fillers are right: the cautious stage;
// the cautious blocks: the plain restarts, cautious_shares.restarts of the time left, their nodes
// counted as block nodes), then taken apart.
Outcome DecisionSearch::Impl::SearchBlocks(Bytes capacity, const Limits& limits, Between between,
                                           std::vector<Offset>* offsets) {
  // Each step ends when the time is up: what follows would only build problems to time out in.
  Glue(limits);
  Outcome r = SearchVariants(capacity, limits, offsets);
  if (r != Outcome::kBudget && r != Outcome::kTimeout) return r;
  if (limits.Expired()) return Outcome::kTimeout;
  if (between == Between::kCautiousStage) {
    r = CautiousStage(capacity, limits, false, offsets);
    if (r != Outcome::kBudget && r != Outcome::kTimeout) return r;
  } else if (between == Between::kRestarts) {
    const int64_t before = PlainNodes();
    r = Restarts(capacity, ShareOf(limits, cautious_shares.restarts), offsets);
    block_nodes += PlainNodes() - before;
    // A refutation of glued blocks proves nothing about the buffers: they are still taken apart.
    if (r == Outcome::kFound || r == Outcome::kCancelled) return r;
  }
  if (limits.Expired()) return Outcome::kTimeout;
  return SearchTakenApart(capacity, limits, offsets);
}

// Each glueing variant's blocks searched as they are (a variant that glues nothing is skipped).
Outcome DecisionSearch::Impl::SearchVariants(Bytes capacity, const Limits& limits, std::vector<Offset>* offsets) {
  for (const std::vector<Block>& blocks : glued) {
    if (blocks.size() == buffers.size()) continue;
    const Outcome r = SolveGlued(blocks, capacity, limits, offsets);
    if (r != Outcome::kBudget) return r;
  }
  return Outcome::kBudget;
}

// Each variant's wrong glues looked for by taking blocks apart (take_apart.h), then the first
// variant's blocks with one block at a time taken apart under the whole portfolio (it solves slack
// packings the skyline-only probes of take_apart.h do not).
Outcome DecisionSearch::Impl::SearchTakenApart(Bytes capacity, const Limits& limits, std::vector<Offset>* offsets) {
  for (const std::vector<Block>& blocks : glued) {
    if (blocks.size() == buffers.size()) continue;
    const Outcome r = TakeApart(buffers, blocks, capacity, limits, offsets, &block_nodes);
    if (r != Outcome::kBudget) return r;
  }
  if (glued.empty()) return Outcome::kTimeout;  // Glue stopped at the start: the time is up
  const std::vector<Block>& eager = glued[0];
  for (size_t k = 0; k < eager.size(); ++k) {
    if (eager[k].members.size() < 2) continue;
    const Outcome r = SolveGlued(TakenApart(buffers, eager, {k}), capacity, limits, offsets);
    if (r != Outcome::kBudget) return r;
  }
  return Outcome::kBudget;
}

// Rounds with doubling budgets, every variant once per round: the gravity variants are
// deterministic, so rerunning one under the same budget (as a Luby schedule would) learns nothing.
// On tight capacities each round also runs twelve skyline orders, both cell rules on all six keys.
// Measured with packing_bench (session 26) against three per round: perfect-800-p20-s41 and
// -p30-s4 pack (1.8 and 2.8 s; no answer in 20 s before), no instance of the regression sets was
// lost, and the default run takes 8.4 s instead of 9.2.
Outcome DecisionSearch::Impl::Restarts(Bytes capacity, const Limits& limits, std::vector<Offset>* offsets) {
  const int skyline_variants = Tight(capacity) ? 12 : 0;
  int64_t budget = 2 * static_cast<int64_t>(buffers.size()) + 64;
  int64_t skyline_runs = 0;
  for (;; budget *= 2) {
    for (int v = 0; v < 6 + skyline_variants; ++v) {
      const Outcome r = v < 6 ? gravity.Run(capacity, kGravityOrders[v % 3], v < 3, budget, limits, offsets)
                              : skyline->Run(capacity, SkylineVariant(skyline_runs++), budget, limits, offsets);
      if (r != Outcome::kBudget) return r;
    }
  }
}

// The problem (on this thread) and its mirror image (on a second one) searched at once, each
// through the whole pipeline in its own direction with the whole time, the mirror's side with
// kMirrorRacerCautiousShares; the first answer (a plan or a proof) stops the other. Sequentially
// each direction's stage gets half the time.
Outcome DecisionSearch::Impl::Race(Bytes capacity, const Limits& limits, std::vector<Offset>* offsets) {
  Impl& m = Mirror();
  const int64_t mirror_plain = m.PlainNodes();
  std::atomic<bool> answered{false};
  Limits mine = limits;
  mine.answered = &answered;
  Limits theirs = mine;
  theirs.heartbeat = nullptr;  // progress is reported from the caller's thread only
  auto conclusive = [](Outcome r) { return r == Outcome::kFound || r == Outcome::kNotFound; };
  auto race = [&](bool on) {  // a later sequential decision (a work clock) searches as before
    racing = m.racing = on;
    m.cautious_shares = on ? kMirrorRacerCautiousShares : kCautiousShares;
  };
  std::vector<Offset> at;
  Outcome mirrored = Outcome::kTimeout;
  std::exception_ptr mirror_failed;  // what the second thread threw (std::bad_alloc), thrown here
  race(true);
  std::thread other;
  try {
    other = std::thread([&] {
      try {
        mirrored = m.Pipeline(capacity, theirs, &at);
      } catch (...) { mirror_failed = std::current_exception(); }
      if (conclusive(mirrored) || mirror_failed) answered = true;
    });
  } catch (const std::system_error&) {  // no thread to be had: one direction after the other
    race(false);
    return Pipeline(capacity, limits, offsets);
  }
  Outcome r = Outcome::kTimeout;
  try {
    r = Pipeline(capacity, mine, offsets);
  } catch (...) {
    answered = true;
    other.join();
    race(false);
    throw;
  }
  if (conclusive(r)) answered = true;
  other.join();
  race(false);
  if (mirror_failed) std::rethrow_exception(mirror_failed);
  raced_nodes += m.PlainNodes() - mirror_plain;
  if (conclusive(r)) return r;
  if (conclusive(mirrored)) {
    *offsets = std::move(at);
    return mirrored;
  }
  if (limits.Cancelled()) return Outcome::kCancelled;
  return r == Outcome::kBudget && mirrored == Outcome::kBudget ? Outcome::kBudget : Outcome::kTimeout;
}

DecisionSearch::DecisionSearch(const std::vector<Buffer>& buffers, int threads)
    : impl_(std::make_unique<Impl>(buffers)), threads_(threads) {}
DecisionSearch::~DecisionSearch() = default;

Bytes DecisionSearch::lower_bound() const { return impl_->gravity.lower_bound(); }

bool DecisionSearch::Tight(Bytes capacity) const { return impl_->Tight(capacity); }

int64_t DecisionSearch::nodes() const { return impl_->PlainNodes() + impl_->BlockNodes(); }

Outcome DecisionSearch::Decide(Bytes capacity, const Limits& limits, std::vector<Offset>* offsets) {
  if (capacity < impl_->gravity.lower_bound()) return Outcome::kNotFound;
  // Only on the wall clock: on a work clock the two threads' steps would interleave differently
  // on every run, and the answer must repeat.
  if (threads_ >= 2 && limits.work == nullptr && impl_->Tight(capacity) && CanMirrorInTime(impl_->buffers)) {
    return impl_->Race(capacity, limits, offsets);
  }
  return impl_->Pipeline(capacity, limits, offsets);
}

}  // namespace arenaplan::plan::optimal_internal
