// The host's O(n log n) TFLM greedy (plan/tflm_greedy.h) and the device code's O(n^2) one
// (rules/greedy.h, the runtime's) agree offset for offset on the planning problem of every corpus
// model: the tensors plus the kernel scratch stock TFLM requests (tflm-x86_64), offline plans
// honoured; so do best-fit gaps under TFLM's order ("tflm-order") and the device's best-fit.
#include <gtest/gtest.h>

#include <vector>

#include "lifetime/lifetimes.h"
#include "model/model.h"
#include "plan/best_fit.h"
#include "plan/tflm_greedy.h"
#include "rules/greedy.h"
#include "support/shared_dir.h"
#include "tflm/arena_size.h"

namespace arenaplan::tflm {
namespace {

std::vector<plan::Offset> DeviceOffsets(const plan::Problem& p, rules::GapRule rule) {
  std::vector<rules::PlanBuffer> bufs;
  for (const plan::Buffer& b : p.buffers) {
    bufs.push_back({static_cast<uint32_t>(b.size), static_cast<int32_t>(b.first), static_cast<int32_t>(b.last),
                    b.fixed() ? static_cast<int32_t>(b.fixed_offset) : rules::kOnline});
  }
  std::vector<uint16_t> order(bufs.size()), next(bufs.size());
  uint32_t head = 0;
  rules::ErrorText e;
  EXPECT_EQ(rules::PlaceBuffers(bufs.data(), static_cast<uint32_t>(bufs.size()), 16, rule, order.data(), next.data(),
                                &head, &e),
            rules::StatusCode::kOk)
      << e.text;
  std::vector<plan::Offset> out;
  for (const rules::PlanBuffer& b : bufs) out.push_back(b.offset);
  return out;
}

TEST(GreedyDifferentialCorpus, HostAndDeviceGreedyAgreeOnEveryModel) {
  REQUIRE_SHARED();
  const Target* x86 = *FindTarget("tflm-x86_64");
  int compared = 0;
  for (const std::string& name : testing::CorpusModels()) {
    SCOPED_TRACE(name);
    const auto bytes = testing::ReadFileBytes(*testing::SharedDir() + "/models/" + name);
    auto m = model::ReadModel(bytes.data(), bytes.size());
    if (!m.ok()) continue;
    auto scratch = ScratchRequests(*m, *x86);
    lifetime::Options opt;
    if (scratch.ok()) opt.scratch = *scratch;
    auto lt = lifetime::ComputeLifetimes(*m, opt);
    if (!lt.ok()) continue;  // STRING tensors and the like: nothing to plan
    plan::Problem p = lifetime::ToProblem(*lt);
    for (plan::Buffer& b : p.buffers) b.size = std::max<plan::Bytes>(b.size, 16);  // zero-byte scratch
    auto host = plan::PlanTflmGreedy(p, {});
    ASSERT_TRUE(host.ok()) << host.status().ToString();
    EXPECT_EQ(host->plan.offsets, DeviceOffsets(p, rules::GapRule::kFirstFit));
    auto best_fit = plan::PlanBestFitStrategy(p, "tflm-order");
    ASSERT_TRUE(best_fit.ok());
    EXPECT_EQ(best_fit->offsets, DeviceOffsets(p, rules::GapRule::kBestFit));
    ++compared;
  }
  EXPECT_GT(compared, 150);
}

}  // namespace
}  // namespace arenaplan::tflm
