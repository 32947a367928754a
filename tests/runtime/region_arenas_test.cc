// A compiled plan over several memories (CompiledPlan::regions, InterpreterOptions::regions) on the
// hand-worked chain of chain_testutil.h: planned buffers in, t1, t2, out (16 bytes each, lifetimes
// [0,1], [1,2], [2,3], [3,3]). The hand-made plan: in and t2 share offset 0 of region 0 (the main
// arena's head), t1 and out offset 0 of region 1 (never live together).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "runtime/chain_testutil.h"
#include "runtime/interpreter.h"
#include "util/aligned_bytes.h"

namespace arenaplan::rt {
namespace {

struct RegionRun {
  RegionRun(std::vector<uint8_t> region_of, uint8_t* region_base, uint32_t region_bytes)
      : model(ChainModel()), arena(4096), regions(std::move(region_of)) {
    region = RegionArena{region_base, region_bytes};
    plan = CompiledPlan{offsets, 4, 16, regions.data()};
    InterpreterOptions opts;
    opts.compiled_plan = &plan;
    opts.regions = &region;
    opts.num_regions = 1;
    interp = std::make_unique<Interpreter>(model.data(), model.size(), AllOpsResolver(), arena.data(), 4096, opts);
  }
  std::vector<uint8_t> model;
  AlignedBytes arena;
  std::vector<uint8_t> regions;
  const int32_t offsets[4] = {0, 0, 0, 0};
  RegionArena region{};
  CompiledPlan plan{nullptr, 0, 0};
  std::unique_ptr<Interpreter> interp;
};

TEST(RegionArenasTest, BuffersLiveInTheirRegionAndOutputsAreRight) {
  AlignedBytes second(16);
  RegionRun r({0, 1, 0, 1}, second.data(), 16);
  Interpreter& in = *r.interp;
  ASSERT_EQ(in.AllocateTensors(), StatusCode::kOk) << in.error_message();
  EXPECT_STREQ(in.memory_record().plan_source, "compiled regions");
  EXPECT_EQ(in.memory_record().head_bytes, 16u);  // region 0 holds in and t2 at offset 0
  EXPECT_EQ(in.input(0).data, r.arena.data());
  EXPECT_EQ(in.tensor(2).data, second.data());   // t1
  EXPECT_EQ(in.tensor(3).data, r.arena.data());  // t2
  EXPECT_EQ(in.output(0).data, second.data());
  const float x[4] = {1, 2, 3, 4};
  std::memcpy(in.input(0).data, x, 16);
  ASSERT_EQ(in.Invoke(), StatusCode::kOk) << in.error_message();
  float out[4];
  std::memcpy(out, second.data(), 16);
  EXPECT_EQ(std::vector<float>(out, out + 4), (std::vector<float>{3, 5, 7, 9}));  // (x + 0.5) * 2
}

TEST(RegionArenasTest, ABufferBeyondItsRegionFails) {
  AlignedBytes second(16);
  RegionRun r({0, 1, 0, 1}, second.data(), 8);
  EXPECT_EQ(r.interp->AllocateTensors(), StatusCode::kBadArgument);
  EXPECT_STREQ(r.interp->error_message(), "compiled plan: buffer 1 ends at 16, beyond region 1's 8 bytes");
}

TEST(RegionArenasTest, AMisalignedOrMissingRegionFails) {
  AlignedBytes second(32);
  RegionRun misaligned({0, 1, 0, 1}, second.data() + 4, 16);
  EXPECT_EQ(misaligned.interp->AllocateTensors(), StatusCode::kBadArgument);
  EXPECT_STREQ(misaligned.interp->error_message(), "region 1: base misaligned (must be 16-byte aligned)");
  RegionRun null_base({0, 1, 0, 1}, nullptr, 16);
  EXPECT_EQ(null_base.interp->AllocateTensors(), StatusCode::kBadArgument);
  EXPECT_STREQ(null_base.interp->error_message(), "region 1: base is null (must be 16-byte aligned)");
  RegionRun unknown({0, 2, 0, 1}, second.data(), 16);
  EXPECT_EQ(unknown.interp->AllocateTensors(), StatusCode::kBadArgument);
  EXPECT_STREQ(unknown.interp->error_message(),
               "compiled plan: buffer 1 is in region 2; the interpreter has regions 0..1");
}

TEST(RegionArenasTest, BuffersLiveTogetherMayNotShareARegionsBytes) {
  AlignedBytes second(16);
  RegionRun r({0, 1, 1, 0}, second.data(), 16);  // t1 [1,2] and t2 [2,3] both at region 1 offset 0
  EXPECT_EQ(r.interp->AllocateTensors(), StatusCode::kBadArgument);
  EXPECT_STREQ(r.interp->error_message(), "compiled plan: buffers 1 and 2 are live together and overlap");
}

}  // namespace
}  // namespace arenaplan::rt
