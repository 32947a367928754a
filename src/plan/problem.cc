#include "plan/problem.h"

#include <algorithm>

namespace arenaplan::plan {

Bytes PlanHeight(const Problem& problem, const std::vector<Offset>& offsets) {
  Bytes height = 0;
  for (size_t i = 0; i < problem.buffers.size() && i < offsets.size(); ++i) {
    height = std::max(height, offsets[i] + problem.buffers[i].size);
  }
  return height;
}

}  // namespace arenaplan::plan
