// The host's O(n log n) TFLM greedy (plan/tflm_greedy.h, for 100k-buffer problems) and the device
// code's O(n^2) one (rules/greedy.h, which the runtime runs) are two implementations of one rule:
// they must agree offset for offset, and so must best-fit gaps under TFLM's order ("tflm-order"
// in the best-fit portfolio) and the runtime's kTflmOrderBestFit. Checked on seeded random
// problems shaped as the device sees them (sizes and online offsets 16-aligned, fixed offsets
// as given); tests/tflm/greedy_differential_corpus_test.cc does every corpus model.
#include <gtest/gtest.h>

#include <vector>

#include "plan/best_fit.h"
#include "plan/random_problem.h"
#include "plan/tflm_greedy.h"
#include "rules/greedy.h"

namespace arenaplan::plan {
namespace {

// The problem as the device plans it: one alignment (16) for sizes and online buffers.
Problem DeviceShaped(Problem p) {
  for (Buffer& b : p.buffers) {
    b.size = AlignUp<Bytes>(b.size, 16);
    b.alignment = b.fixed() && b.fixed_offset % 16 != 0 ? 1 : 16;
  }
  return p;
}

// rules::PlaceBuffers' offsets, or an empty vector when the device refuses the problem (> 2 GiB).
std::vector<Offset> DeviceOffsets(const Problem& p, rules::GapRule rule) {
  std::vector<rules::PlanBuffer> bufs;
  for (const Buffer& b : p.buffers) {
    bufs.push_back({static_cast<uint32_t>(b.size), static_cast<int32_t>(b.first), static_cast<int32_t>(b.last),
                    b.fixed() ? static_cast<int32_t>(b.fixed_offset) : rules::kOnline});
  }
  std::vector<uint16_t> order(bufs.size()), next(bufs.size());
  uint32_t head = 0;
  rules::ErrorText e;
  if (rules::PlaceBuffers(bufs.data(), static_cast<uint32_t>(bufs.size()), 16, rule, order.data(), next.data(), &head,
                          &e) != rules::StatusCode::kOk) {
    return {};
  }
  std::vector<Offset> out;
  for (const rules::PlanBuffer& b : bufs) out.push_back(b.offset);
  return out;
}

bool FixedOffsetsAligned(const Problem& p) {
  for (const Buffer& b : p.buffers) {
    if (b.fixed() && b.fixed_offset % 16 != 0) return false;
  }
  return true;
}

void ExpectAgreement(const Problem& p, int* compared) {
  const std::vector<Offset> first_fit = DeviceOffsets(p, rules::GapRule::kFirstFit);
  if (first_fit.empty()) return;
  auto host = PlanTflmGreedy(p, {});
  ASSERT_TRUE(host.ok()) << host.status().ToString();
  EXPECT_EQ(host->plan.offsets, first_fit);
  ++*compared;
  // After a fixed offset that is not 16-aligned the host measures a gap from the previous end,
  // the device from the aligned candidate (rules/greedy.h); TFLM itself has no best-fit rule.
  if (!FixedOffsetsAligned(p)) return;
  auto best_fit = PlanBestFitStrategy(p, "tflm-order");
  ASSERT_TRUE(best_fit.ok()) << best_fit.status().ToString();
  EXPECT_EQ(best_fit->offsets, DeviceOffsets(p, rules::GapRule::kBestFit));
}

TEST(GreedyDifferential, RandomAdversarialProblems) {
  int compared = 0;
  for (uint64_t seed = 0; seed < 3000; ++seed) {
    SCOPED_TRACE(seed);
    ExpectAgreement(DeviceShaped(RandomProblem({RandomStyle::kAdversarial, 20, seed})), &compared);
  }
  EXPECT_GT(compared, 2900);  // only problems beyond 2 GiB are skipped
}

TEST(GreedyDifferential, RandomTraces) {
  int compared = 0;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    SCOPED_TRACE(seed);
    ExpectAgreement(DeviceShaped(RandomProblem({RandomStyle::kTrace, 1500, seed})), &compared);
  }
  EXPECT_GT(compared, 0);
}

}  // namespace
}  // namespace arenaplan::plan
