// rules/offline_plan.h: decoding and TFLM's expectations of the OfflineMemoryAllocation words.
#include "rules/offline_plan.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "rules_testutil.h"

namespace arenaplan::rules {
namespace {

std::vector<uint8_t> Words(std::vector<int32_t> w) {
  std::vector<uint8_t> out(4 * w.size());
  std::memcpy(out.data(), w.data(), out.size());  // the host is little-endian, as the format
  return out;
}

TEST(RulesOfflinePlan, DecodesHeaderAndOffsets) {
  const auto bytes = Words({1, 0, 3, 0, -1, 64});
  OfflinePlan p;
  ErrorText e;
  ASSERT_EQ(DecodeOfflinePlan(bytes.data(), bytes.size(), &p, &e), StatusCode::kOk) << e.text;
  EXPECT_EQ(p.version, 1);
  EXPECT_EQ(p.count, 3u);
  EXPECT_EQ(OfflineOffset(p, 0), 0);
  EXPECT_EQ(OfflineOffset(p, 1), -1);
  EXPECT_EQ(OfflineOffset(p, 2), 64);
  EXPECT_EQ(OfflineOffset(p, 3), kOnlineOffset);  // beyond the plan
  EXPECT_EQ(OfflineOffset(OfflinePlan{}, 0), kOnlineOffset);
}

TEST(RulesOfflinePlan, DecodeRejectsShortAndNegativeCounts) {
  OfflinePlan p;
  ErrorText e;
  const auto bytes = Words({1, 0, 3, 0, -1});
  EXPECT_EQ(DecodeOfflinePlan(bytes.data(), 8, &p, &e), StatusCode::kInvalidModel);
  EXPECT_STREQ(e.text, "offline plan: 8 bytes, need at least 12 (version, subgraphs, count)");
  EXPECT_EQ(DecodeOfflinePlan(bytes.data(), bytes.size(), &p, &e), StatusCode::kInvalidModel);
  EXPECT_STREQ(e.text, "offline plan: truncated, count 3 needs 24 bytes, buffer has 20");
  const auto negative = Words({1, 0, -1});
  EXPECT_EQ(DecodeOfflinePlan(negative.data(), negative.size(), &p, &e), StatusCode::kInvalidModel);
  EXPECT_STREQ(e.text, "offline plan: negative offset count -1");
}

TEST(RulesOfflinePlan, CheckAgainstTheModel) {
  const uint32_t base[] = {0, 2, 3};  // subgraph 0: tensors 0, 1; subgraph 1: tensor 2
  const auto bytes = Words({1, 0, 3, 0, -1, -16});
  OfflinePlan p;
  ErrorText e;
  ASSERT_EQ(DecodeOfflinePlan(bytes.data(), bytes.size(), &p, &e), StatusCode::kOk);
  EXPECT_EQ(CheckOfflinePlan(p, base, 2, 0, &e), StatusCode::kInvalidModel);
  EXPECT_STREQ(e.text, "offline plan: subgraph 1, tensor 0: negative offset -16 (only -1 means online)");
  const uint32_t four[] = {0, 4};
  EXPECT_EQ(CheckOfflinePlan(p, four, 1, 0, &e), StatusCode::kInvalidModel);
  EXPECT_STREQ(e.text, "offline plan: 3 offsets but the model has 4 tensors over all subgraphs");
  const auto good = Words({1, 0, 3, 0, -1, 16});
  ASSERT_EQ(DecodeOfflinePlan(good.data(), good.size(), &p, &e), StatusCode::kOk);
  EXPECT_EQ(CheckOfflinePlan(p, base, 2, 8, &e), StatusCode::kOk);
  EXPECT_EQ(CheckOfflinePlan(p, base, 2, 6, &e), StatusCode::kInvalidModel);
  EXPECT_STREQ(e.text, "offline plan: buffer 0 data at file offset 6 is not 4-byte aligned (TFLM reads it as int32)");
}

TEST(RulesOfflinePlan, ReadFindsTheExactNameInAModel) {
  model::ModelSpec spec;
  spec.subgraphs.resize(1);
  spec.subgraphs[0].tensors = testing::Tensors(2);
  model::SetMetadata(spec, "OfflineMemoryAllocationX", Words({1, 0, 2, 0, 0}));
  OfflinePlan p;
  ErrorText e;
  auto b = testing::Build(spec);
  ASSERT_EQ(ReadOfflinePlan(b.index, b.file, &p, &e), StatusCode::kOk);
  EXPECT_FALSE(p.present());
  model::SetMetadata(spec, "OfflineMemoryAllocation", Words({1, 0, 2, 32, -1}));
  b = testing::Build(spec);
  ASSERT_EQ(ReadOfflinePlan(b.index, b.file, &p, &e), StatusCode::kOk) << e.text;
  ASSERT_TRUE(p.present());
  EXPECT_EQ(OfflineOffset(p, 0), 32);
}

}  // namespace
}  // namespace arenaplan::rules
