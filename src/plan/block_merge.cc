#include "plan/block_merge.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "plan/lower_bound.h"

namespace arenaplan::plan::optimal_internal {
namespace {

// Appends b's members to a, lifted by `at` within a.
void Absorb(Block* a, const Block& b, Offset at) {
  for (size_t k = 0; k < b.members.size(); ++k) {
    a->members.push_back(b.members[k]);
    a->relative.push_back(b.relative[k] + at);
  }
}

Step End(const Block& b) { return b.buffer.last + 1; }

// One block from parts placed at the given offsets (lifetime and size given).
Block Glue(Step first, Step end, Bytes size, std::initializer_list<std::pair<const Block*, Offset>> parts) {
  Block out;
  out.buffer.first = first;
  out.buffer.last = end - 1;
  out.buffer.size = size;
  for (const auto& [b, at] : parts) Absorb(&out, *b, at);
  return out;
}

// Stacks: every group of blocks with the same lifetime becomes one.
bool Stacks(std::vector<Block>* blocks) {
  std::vector<Block>& v = *blocks;
  std::stable_sort(v.begin(), v.end(), [](const Block& a, const Block& b) {
    return std::tie(a.buffer.first, a.buffer.last) < std::tie(b.buffer.first, b.buffer.last);
  });
  std::vector<Block> out;
  bool changed = false;
  for (Block& b : v) {
    if (!out.empty() && out.back().buffer.first == b.buffer.first && out.back().buffer.last == b.buffer.last) {
      Absorb(&out.back(), b, out.back().buffer.size);
      out.back().buffer.size += b.buffer.size;
      changed = true;
    } else {
      out.push_back(std::move(b));
    }
  }
  v = std::move(out);
  return changed;
}

// Stacks, cautiously: a group of blocks with one lifetime [f, e) is stacked only where something
// else says it was cut from one rectangle: its sum is the peak (nothing else is alive then, so any
// order is as good), or a block or another group's sum of that size ends at f or starts at e (the
// rectangle's neighbour across a time cut). Other groups wait; so do groups with a coincidental
// member (stacking a subset that matches a neighbour glued more wrong pairs than right ones on
// the packing benchmark).
bool StacksWithEvidence(std::vector<Block>* blocks, Bytes peak) {
  std::vector<Block>& v = *blocks;
  std::map<std::pair<Step, Step>, std::vector<size_t>> groups;
  for (size_t i = 0; i < v.size(); ++i) groups[{v[i].buffer.first, End(v[i])}].push_back(i);
  std::map<std::pair<Step, Step>, Bytes> sums;
  std::map<Step, std::set<Bytes>> ending, starting;  // sizes of blocks and groups ending / starting
  for (const auto& [span, members] : groups) {
    Bytes sum = 0;
    for (size_t i : members) {
      sum += v[i].buffer.size;
      ending[span.second].insert(v[i].buffer.size);
      starting[span.first].insert(v[i].buffer.size);
    }
    sums[span] = sum;
    ending[span.second].insert(sum);
    starting[span.first].insert(sum);
  }
  auto has = [](const std::map<Step, std::set<Bytes>>& m, Step t, Bytes size) {
    auto it = m.find(t);
    return it != m.end() && it->second.count(size) > 0;
  };
  std::vector<uint8_t> gone(v.size(), 0);
  std::vector<Block> out;
  for (const auto& [span, members] : groups) {
    const Bytes sum = sums[span];
    if (members.size() < 2 || !(sum == peak || has(ending, span.first, sum) || has(starting, span.second, sum)))
      continue;
    Block glued = v[members[0]];
    for (size_t k = 1; k < members.size(); ++k) {
      Absorb(&glued, v[members[k]], glued.buffer.size);
      glued.buffer.size += v[members[k]].buffer.size;
    }
    for (size_t i : members) gone[i] = 1;
    out.push_back(std::move(glued));
  }
  if (out.empty()) return false;
  for (size_t i = 0; i < v.size(); ++i) {
    if (!gone[i]) out.push_back(std::move(v[i]));
  }
  v = std::move(out);
  return true;
}

// Blocks by (end, size) and by (first step, size), and how many blocks have each lifetime.
struct ChainIndex {
  std::map<std::pair<Step, Bytes>, std::vector<size_t>> ending, starting;
  std::map<std::pair<Step, Step>, int> spans;
  explicit ChainIndex(const std::vector<Block>& v) {
    for (size_t i = 0; i < v.size(); ++i) {
      ending[{End(v[i]), v[i].buffer.size}].push_back(i);
      starting[{v[i].buffer.first, v[i].buffer.size}].push_back(i);
      ++spans[{v[i].buffer.first, End(v[i])}];
    }
  }
};

// Chains, eagerly: at each step, a block ending there and one starting there of the same size,
// when each is the only one of that size on its side (and, if asked, neither has a block of the
// same lifetime to stack with first: a block that does is part of a band that ends at its ends).
bool ChainPairs(std::vector<Block>* blocks, bool skip_stackable) {
  std::vector<Block>& v = *blocks;
  ChainIndex index(v);
  const auto& ending = index.ending;
  const auto& starting = index.starting;
  auto& spans = index.spans;
  auto stackable = [&](size_t i) { return spans[{v[i].buffer.first, End(v[i])}] > 1; };
  std::vector<uint8_t> gone(v.size(), 0);
  std::vector<Block> out;
  for (const auto& [key, ends] : ending) {
    auto it = starting.find(key);
    if (ends.size() != 1 || it == starting.end() || it->second.size() != 1) continue;
    const size_t a = ends[0], b = it->second[0];
    if (a == b || gone[a] || gone[b] || (skip_stackable && (stackable(a) || stackable(b)))) continue;
    out.push_back(Glue(v[a].buffer.first, End(v[b]), v[a].buffer.size, {{&v[a], 0}, {&v[b], 0}}));
    gone[a] = gone[b] = 1;
  }
  if (out.empty()) return false;
  for (size_t i = 0; i < v.size(); ++i) {
    if (!gone[i]) out.push_back(std::move(v[i]));
  }
  v = std::move(out);
  return true;
}

// Chains, cautiously: blocks of one size linked end to start, each link the only one of that size at its
// step, form paths; a stretch of a path is glued when the lifetime it spans is one some other
// block already has (it can then be stacked with it: the trace of an address cut above the time
// cuts) or the whole problem's. Stretches without such evidence wait: two pieces of one size
// meeting at a step by chance are common, and glueing them would break the rectangle each
// belongs to.
bool ChainsWithEvidence(std::vector<Block>* blocks, Step first, Step end) {
  std::vector<Block>& v = *blocks;
  ChainIndex index(v);
  const auto& ending = index.ending;
  const auto& starting = index.starting;
  auto& spans = index.spans;
  std::vector<int> next(v.size(), -1), prev(v.size(), -1);
  for (const auto& [key, ends] : ending) {
    auto it = starting.find(key);
    if (ends.size() != 1 || it == starting.end() || it->second.size() != 1 || ends[0] == it->second[0]) continue;
    next[ends[0]] = static_cast<int>(it->second[0]);
    prev[it->second[0]] = static_cast<int>(ends[0]);
  }
  std::vector<uint8_t> gone(v.size(), 0);
  std::vector<Block> out;
  for (size_t head = 0; head < v.size(); ++head) {
    if (prev[head] >= 0 || next[head] < 0) continue;
    std::vector<size_t> path{head};
    while (next[path.back()] >= 0) path.push_back(static_cast<size_t>(next[path.back()]));
    // Longest stretches with evidence first, left to right.
    for (size_t i = 0; i + 1 < path.size();) {
      size_t best = i;
      for (size_t j = path.size() - 1; j > i; --j) {
        const std::pair<Step, Step> span{v[path[i]].buffer.first, End(v[path[j]])};
        const auto found = spans.find(span);
        if ((found != spans.end() && found->second > 0) || (span.first == first && span.second == end)) {
          best = j;
          break;
        }
      }
      if (best == i) {
        ++i;
        continue;
      }
      Block glued = v[path[i]];
      for (size_t k = i + 1; k <= best; ++k) {
        Absorb(&glued, v[path[k]], 0);
        glued.buffer.last = v[path[k]].buffer.last;
      }
      for (size_t k = i; k <= best; ++k) gone[path[k]] = 1;
      out.push_back(std::move(glued));
      i = best + 1;
    }
  }
  if (out.empty()) return false;
  for (size_t i = 0; i < v.size(); ++i) {
    if (!gone[i]) out.push_back(std::move(v[i]));
  }
  v = std::move(out);
  return true;
}

// Pinwheels round a centre c = [x1, x2): in orientation A, left [t0, x1) and bottom [t0, x2)
// below... see Glue calls for the layouts. Sizes must add up so that the five tile a rectangle.
bool Pinwheels(std::vector<Block>* blocks) {
  std::vector<Block>& v = *blocks;
  std::map<Step, std::vector<size_t>> by_first, by_end;
  for (size_t i = 0; i < v.size(); ++i) {
    by_first[v[i].buffer.first].push_back(i);
    by_end[End(v[i])].push_back(i);
  }
  auto at = [](std::map<Step, std::vector<size_t>>& m, Step t) -> const std::vector<size_t>& {
    static const std::vector<size_t> kNone;
    auto it = m.find(t);
    return it == m.end() ? kNone : it->second;
  };
  std::vector<uint8_t> gone(v.size(), 0);
  std::vector<Block> out;
  for (size_t c = 0; c < v.size(); ++c) {
    if (gone[c]) continue;
    const Step x1 = v[c].buffer.first, x2 = End(v[c]);
    const Bytes cs = v[c].buffer.size;
    bool done = false;
    for (size_t l : at(by_end, x1)) {
      if (done) break;
      if (gone[l] || v[l].buffer.size <= cs) continue;
      const Step t0 = v[l].buffer.first;
      const Bytes ls = v[l].buffer.size;
      // A: left [t0, x1) over bottom [t0, x2); top [x1, t1) = left - c; right [x2, t1) = bottom + c.
      for (size_t bot : at(by_first, t0)) {
        if (done) break;
        if (bot == l || gone[bot] || End(v[bot]) != x2) continue;
        for (size_t top : at(by_first, x1)) {
          if (done) break;
          if (top == c || gone[top] || End(v[top]) <= x2 || v[top].buffer.size != ls - cs) continue;
          for (size_t r : at(by_first, x2)) {
            if (r == c || gone[r] || End(v[r]) != End(v[top]) || v[r].buffer.size != v[bot].buffer.size + cs) continue;
            const Bytes b = v[bot].buffer.size;
            out.push_back(
                Glue(t0, End(v[top]), b + ls, {{&v[bot], 0}, {&v[r], 0}, {&v[c], b}, {&v[l], b}, {&v[top], b + cs}}));
            gone[c] = gone[l] = gone[bot] = gone[top] = gone[r] = 1;
            done = true;
            break;
          }
        }
      }
      // B: left [t0, x1) under top [t0, x2); bottom [x1, t1) = left - c; right [x2, t1) = c + top.
      for (size_t top : at(by_first, t0)) {
        if (done) break;
        if (top == l || gone[top] || End(v[top]) != x2) continue;
        for (size_t bot : at(by_first, x1)) {
          if (done) break;
          if (bot == c || gone[bot] || End(v[bot]) <= x2 || v[bot].buffer.size != ls - cs) continue;
          for (size_t r : at(by_first, x2)) {
            if (r == c || gone[r] || End(v[r]) != End(v[bot]) || v[r].buffer.size != cs + v[top].buffer.size) continue;
            const Bytes b = v[bot].buffer.size;
            out.push_back(Glue(t0, End(v[bot]), ls + v[top].buffer.size,
                               {{&v[l], 0}, {&v[bot], 0}, {&v[c], b}, {&v[r], b}, {&v[top], ls}}));
            gone[c] = gone[l] = gone[bot] = gone[top] = gone[r] = 1;
            done = true;
            break;
          }
        }
      }
    }
  }
  if (out.empty()) return false;
  for (size_t i = 0; i < v.size(); ++i) {
    if (!gone[i]) out.push_back(std::move(v[i]));
  }
  v = std::move(out);
  return true;
}

}  // namespace

std::vector<Block> MergeBlocks(const std::vector<Buffer>& buffers, int rules) {
  std::vector<Block> blocks(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    blocks[i].buffer = buffers[i];
    blocks[i].members = {i};
    blocks[i].relative = {0};
  }
  Step first = 0, end = 0;
  for (size_t i = 0; i < buffers.size(); ++i) {
    first = i == 0 ? buffers[i].first : std::min(first, buffers[i].first);
    end = std::max(end, buffers[i].last + 1);
  }
  // Pinwheels first unless stacks are: their five pieces are the most specific match, and a stack
  // or a chain that takes one of them away by coincidence would hide the pinwheel for good.
  const bool skip = (rules & kChainsAfterStacks) != 0;
  Bytes peak = 0;
  if (rules & kStacksWithEvidence) {
    Problem whole;
    whole.buffers = buffers;
    peak = LiveBytesLowerBound(whole);
  }
  while (true) {
    if ((rules & kStacksFirst) && (rules & kStacks) && Stacks(&blocks)) continue;
    if ((rules & kPinwheels) && Pinwheels(&blocks)) continue;
    bool changed = false;
    if (rules & kChainPairs) changed |= ChainPairs(&blocks, skip);
    if (rules & kChainsWithEvidence) changed |= ChainsWithEvidence(&blocks, first, end);
    if (changed) continue;
    if ((rules & kStacks) && Stacks(&blocks)) continue;
    if ((rules & kStacksWithEvidence) && StacksWithEvidence(&blocks, peak)) continue;
    break;
  }
  return blocks;
}

std::vector<Block> TakenApart(const std::vector<Buffer>& buffers, const std::vector<Block>& glued,
                              const std::vector<size_t>& apart) {
  std::vector<Block> out;
  for (size_t k = 0; k < glued.size(); ++k) {
    if (std::find(apart.begin(), apart.end(), k) == apart.end()) out.push_back(glued[k]);
  }
  for (size_t k : apart) {
    for (size_t m : glued[k].members) out.push_back(Block{buffers[m], {m}, {0}});
  }
  return out;
}

std::vector<Buffer> BlockBuffers(const std::vector<Block>& blocks) {
  std::vector<Buffer> out;
  out.reserve(blocks.size());
  for (const Block& b : blocks) out.push_back(b.buffer);
  return out;
}

std::vector<Offset> PlaceMembers(const std::vector<Block>& blocks, const std::vector<Offset>& at, size_t buffers) {
  std::vector<Offset> offsets(buffers, 0);
  for (size_t k = 0; k < blocks.size(); ++k) {
    for (size_t m = 0; m < blocks[k].members.size(); ++m) offsets[blocks[k].members[m]] = at[k] + blocks[k].relative[m];
  }
  return offsets;
}

}  // namespace arenaplan::plan::optimal_internal
