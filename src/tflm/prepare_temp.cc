#include "tflm/prepare_temp.h"

#include <algorithm>

#include "rules/limits.h"
#include "util/align.h"

namespace arenaplan::tflm {
namespace {
constexpr uint64_t kAlign = rules::kBufferAlignment;  // arenas and the tail end are 16-aligned
}  // namespace

void PrepareTempModel::BeginNode(uint64_t head) {
  temp_ = head;
  critical_.clear();
  critical_last_.clear();
}

void PrepareTempModel::Temp(const TempAllocation& t, uint64_t tail_used) {
  const uint64_t start = AlignUp<uint64_t>(temp_, t.align);
  temp_ = start + t.size;
  // AllocateTemp fails unless tail - aligned temp >= size.
  lower_ = std::max(lower_, tail_used + temp_);
  if (t.critical > 0) critical_.push_back({start, start + t.critical});
  if (t.critical_last > 0) critical_last_.push_back({start, start + t.critical_last});
}

void PrepareTempModel::Persistent(uint64_t bytes, uint64_t tail_used_after, OpAllocation::Write write) {
  if (write == OpAllocation::Write::kUnwritten) return;
  const std::vector<Range>& critical = write == OpAllocation::Write::kWrittenLast ? critical_last_ : critical_;
  if (!critical.empty()) overlaps_.push_back({tail_used_after, bytes, critical});
}

bool PrepareTempModel::Works(uint64_t arena) const {
  if (arena < lower_) return false;
  for (const Overlap& o : overlaps_) {
    // The tail end is 16-aligned, so the buffer starts at arena - tail_used_after.
    if (arena < o.tail_used_after) return false;
    const uint64_t begin = arena - o.tail_used_after, end = begin + o.bytes;
    for (const Range& c : o.critical) {
      if (begin < c.second && c.first < end) return false;
    }
  }
  return true;
}

uint64_t PrepareTempModel::Smallest(uint64_t floor) const {
  uint64_t a = std::max(floor, AlignUp(lower_, kAlign));
  while (!Works(a)) a += kAlign;  // ends by Safe(): past every critical range nothing overlaps
  return a;
}

uint64_t PrepareTempModel::Safe(uint64_t floor) const {
  uint64_t a = std::max(floor, AlignUp(lower_, kAlign));
  for (const Overlap& o : overlaps_) {
    for (const Range& c : o.critical) a = std::max(a, o.tail_used_after + AlignUp(c.second, kAlign));
  }
  return a;
}

}  // namespace arenaplan::tflm
