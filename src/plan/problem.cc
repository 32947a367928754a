#include "plan/problem.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace arenaplan::plan {

Step StepsBetween(Step first, Step last) {
  const uint64_t width = static_cast<uint64_t>(last) - static_cast<uint64_t>(first);
  return width >= static_cast<uint64_t>(std::numeric_limits<Step>::max()) ? std::numeric_limits<Step>::max()
                                                                          : static_cast<Step>(width);
}

Step LifetimeSteps(const Buffer& buffer) {
  const Step width = StepsBetween(buffer.first, buffer.last);
  return width == std::numeric_limits<Step>::max() ? width : width + 1;
}

Step MedianLifetime(const std::vector<Buffer>& buffers) {
  std::vector<Step> len;
  len.reserve(buffers.size());
  for (const Buffer& x : buffers) len.push_back(LifetimeSteps(x));
  if (len.empty()) return 1;
  std::nth_element(len.begin(), len.begin() + static_cast<std::ptrdiff_t>(len.size() / 2), len.end());
  return std::max<Step>(1, len[len.size() / 2]);
}

Bytes PlanHeight(const Problem& problem, const std::vector<Offset>& offsets) {
  Bytes height = 0;
  for (size_t i = 0; i < problem.buffers.size() && i < offsets.size(); ++i) {
    // Saturating, so that unchecked plans (verifier input) cannot overflow.
    const Offset o = offsets[i];
    const Bytes size = problem.buffers[i].size;
    const Offset end = size > 0 && o > std::numeric_limits<Offset>::max() - size   ? std::numeric_limits<Offset>::max()
                       : size < 0 && o < std::numeric_limits<Offset>::min() - size ? std::numeric_limits<Offset>::min()
                                                                                   : o + size;
    height = std::max(height, end);
  }
  return height;
}

std::string DescribeBuffer(const Problem& problem, size_t index) {
  if (index >= problem.buffers.size()) return "buffer " + std::to_string(index) + " (out of range)";
  const Buffer& b = problem.buffers[index];
  std::string s = "buffer " + std::to_string(index) + " (size " + std::to_string(b.size) + ", steps [" +
                  std::to_string(b.first) + ", " + std::to_string(b.last) + "]";
  if (b.fixed()) s += ", fixed at " + std::to_string(b.fixed_offset);
  if (b.alignment != 1) s += ", alignment " + std::to_string(b.alignment);
  return s + ")";
}

Status ValidateProblem(const Problem& problem) {
  if (problem.capacity < 0) { return InvalidArgument("capacity " + std::to_string(problem.capacity) + " is negative"); }
  // Each term is checked against the limit before adding, so the sum itself cannot overflow.
  Bytes total = 0;         // size + alignment - 1 of every buffer
  Bytes online_total = 0;  // the same of the online ones: the most a plan stacks above the fixed ones
  Bytes max_fixed_end = 0;
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer& b = problem.buffers[i];
    const auto name = [&] { return DescribeBuffer(problem, i); };
    if (b.size <= 0) return InvalidArgument(name() + ": size must be > 0");
    if (b.first > b.last) return InvalidArgument(name() + ": first step is after last step");
    if (b.alignment <= 0) return InvalidArgument(name() + ": alignment must be > 0");
    if (b.fixed_offset < kUnfixed) return InvalidArgument(name() + ": negative fixed offset");
    if (b.size > kMaxTotalBytes || b.alignment > kMaxTotalBytes || b.size + b.alignment - 1 > kMaxTotalBytes - total) {
      return InvalidArgument(name() + ": total bytes exceed " + std::to_string(kMaxTotalBytes));
    }
    total += b.size + b.alignment - 1;
    if (b.fixed()) {
      if (b.fixed_offset % b.alignment != 0) {
        return InvalidArgument(name() + ": fixed offset is not a multiple of the alignment");
      }
      if (b.fixed_offset > kMaxTotalBytes - b.size) {
        return InvalidArgument(name() + ": fixed offset + size exceeds " + std::to_string(kMaxTotalBytes));
      }
      max_fixed_end = std::max(max_fixed_end, b.fixed_offset + b.size);
    } else {
      online_total += b.size + b.alignment - 1;
    }
  }
  // Fixed buffers count once, at their end: counting their sizes again rejected the plan of a
  // single buffer above 2^59 bytes once `solve` had written it back with its offsets.
  if (max_fixed_end > kMaxTotalBytes - online_total) {
    return InvalidArgument("online sizes plus the highest fixed end exceed " + std::to_string(kMaxTotalBytes) +
                           " bytes");
  }
  return Status::Ok();
}

}  // namespace arenaplan::plan
