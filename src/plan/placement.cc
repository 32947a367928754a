#include "plan/placement.h"

#include <algorithm>
#include <limits>

namespace arenaplan::plan {

Offset BestFitOffset(const std::vector<Span>& placed, Bytes size, Bytes alignment) {
  Offset top = 0;  // end of the merged occupied range seen so far
  Offset best = -1;
  Bytes best_waste = std::numeric_limits<Bytes>::max();
  for (const Span& s : placed) {
    if (s.offset > top) {
      const Offset cand = AlignUp(top, alignment);
      if (cand + size <= s.offset && s.offset - top - size < best_waste) {
        best_waste = s.offset - top - size;
        best = cand;
      }
    }
    top = std::max(top, s.end);
  }
  return best >= 0 ? best : AlignUp(top, alignment);
}

Offset FirstFitOffset(const std::vector<Span>& placed, Bytes size, Bytes alignment) {
  // TFLM aligns the candidate after every neighbour; AlignUp is monotone, so aligning the running
  // maximum end only where a hole might fit gives the same offset without a division per span.
  Offset top = 0;
  for (const Span& s : placed) {
    if (s.offset - top >= size && s.offset - AlignUp(top, alignment) >= size) break;
    top = std::max(top, s.end);
  }
  return AlignUp(top, alignment);
}

std::vector<uint32_t> OnlineBuffers(const Problem& problem) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    if (!problem.buffers[i].fixed()) out.push_back(static_cast<uint32_t>(i));
  }
  return out;
}

Plan PlaceInOrder(const Problem& problem, const std::vector<uint32_t>& order, GapRule rule, TimeIndex* index,
                  const StopFn& stop, Bytes give_up_at) {
  const auto& bufs = problem.buffers;
  Plan plan;
  plan.offsets.assign(bufs.size(), kUnfixed);
  index->Clear();
  for (size_t i = 0; i < bufs.size(); ++i) {
    if (!bufs[i].fixed()) continue;
    plan.offsets[i] = bufs[i].fixed_offset;
    index->Insert(i, plan.offsets[i]);
  }
  std::vector<Span> placed;
  size_t done = 0;
  Bytes height = 0;  // of the online buffers placed so far
  for (uint32_t i : order) {
    if (stop && (++done & 4095) == 0 && stop()) return Plan{};
    // Both walks only see the union of these ranges, so equal offsets may come in any order.
    index->SortedOccupied(i, &placed);
    const Buffer& b = bufs[i];
    plan.offsets[i] = rule == GapRule::kFirstFit ? FirstFitOffset(placed, b.size, b.alignment)
                                                 : BestFitOffset(placed, b.size, b.alignment);
    index->Insert(i, plan.offsets[i]);
    height = std::max(height, plan.offsets[i] + b.size);
    if (give_up_at > 0 && height >= give_up_at) return Plan{};
  }
  plan.height = PlanHeight(problem, plan.offsets);
  return plan;
}

}  // namespace arenaplan::plan
