#include <gtest/gtest.h>

#include <cstring>

#include "model/offline_plan.h"
#include "spec_testutil.h"

namespace arenaplan::model {
namespace {

using testutil::ExpectSameContent;
using testutil::Read;
using testutil::SmallSpec;

TEST(Writer, SetMetadataReplacesOrAdds) {
  ModelSpec spec = SmallSpec();
  SetMetadata(spec, "a", {1});
  SetMetadata(spec, "b", {2});
  SetMetadata(spec, "a", {3});
  ASSERT_EQ(spec.metadata.size(), 2u);
  EXPECT_EQ(spec.buffers[spec.metadata[0].buffer], std::vector<uint8_t>{3});
  EXPECT_EQ(spec.metadata[1].name, "b");
}

TEST(ModelCopy, AddsOfflinePlanAndKeepsEverythingElse) {
  ModelSpec spec = SmallSpec();
  SetMetadata(spec, "min_runtime_version", {'1', '.', '5'});
  std::vector<uint8_t> bytes;
  auto original = Read(spec, bytes);
  ASSERT_TRUE(original.ok());
  const auto plan = EncodeOfflinePlan({0, -1, 16, 32});
  auto copy = WriteModelCopyWithMetadata(bytes.data(), bytes.size(), "OfflineMemoryAllocation", plan);
  ASSERT_TRUE(copy.ok()) << copy.status().ToString();
  auto m = ReadModel(copy->data(), copy->size());
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ExpectSameContent(*original, *m);
  ASSERT_EQ(m->metadata.size(), 2u);
  EXPECT_EQ(m->metadata[0].name, "min_runtime_version");
  EXPECT_EQ(m->metadata[0].buffer, original->metadata[0].buffer);
  EXPECT_EQ(m->metadata[1].name, "OfflineMemoryAllocation");
  EXPECT_EQ(m->metadata[1].buffer, original->buffers.size());
  ASSERT_TRUE(m->offline_plan.has_value());
  EXPECT_EQ(m->offline_plan->offsets, (std::vector<int32_t>{0, -1, 16, 32}));
  EXPECT_TRUE(ValidateOfflinePlan(*m).ok());
  const Buffer& data = m->buffers[m->metadata[1].buffer];
  EXPECT_EQ((data.data - copy->data()) % 16, 0);
}

TEST(ModelCopy, ReplacesAnExistingEntryAndCanBeRepeated) {
  ModelSpec spec = SmallSpec();
  SetMetadata(spec, "OfflineMemoryAllocation", EncodeOfflinePlan({-1, -1, -1, -1}));
  SetMetadata(spec, "other", {9, 9});
  const auto bytes = WriteModel(spec);
  auto once = WriteModelCopyWithMetadata(bytes.data(), bytes.size(), "OfflineMemoryAllocation",
                                         EncodeOfflinePlan({0, -1, 0, -1}));
  ASSERT_TRUE(once.ok());
  auto twice = WriteModelCopyWithMetadata(once->data(), once->size(), "OfflineMemoryAllocation",
                                          EncodeOfflinePlan({0, -1, 48, -1}));
  ASSERT_TRUE(twice.ok());
  auto m = ReadModel(twice->data(), twice->size());
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m->metadata.size(), 2u);
  EXPECT_EQ(m->metadata[0].name, "OfflineMemoryAllocation");
  EXPECT_EQ(m->metadata[1].name, "other");
  EXPECT_EQ(m->buffers[m->metadata[1].buffer].size, 2u);
  EXPECT_EQ(m->offline_plan->offsets, (std::vector<int32_t>{0, -1, 48, -1}));
  EXPECT_EQ(m->buffers.size(), spec.buffers.size() + 2);  // one new buffer per copy
}

TEST(ModelCopy, ShiftsExternalBufferOffsets) {
  ModelSpec spec = SmallSpec();
  auto bytes = WriteModel(spec);
  // Put buffer 1's data after the flatbuffer, as large models do.
  const uint64_t at = (bytes.size() + 15) / 16 * 16;
  spec.external_buffers = {{1, at, 64}};
  spec.buffers[1].clear();
  bytes = WriteModel(spec);
  ASSERT_LE(bytes.size(), at);  // the flatbuffer shrank without the inline data
  bytes.resize(at);
  for (int i = 0; i < 64; ++i) bytes.push_back(static_cast<uint8_t>(i));
  auto original = ReadModel(bytes.data(), bytes.size());
  ASSERT_TRUE(original.ok()) << original.status().ToString();
  auto copy = WriteModelCopyWithMetadata(bytes.data(), bytes.size(), "OfflineMemoryAllocation",
                                         EncodeOfflinePlan({-1, -1, -1, -1}));
  ASSERT_TRUE(copy.ok()) << copy.status().ToString();
  auto m = ReadModel(copy->data(), copy->size());
  ASSERT_TRUE(m.ok());
  ExpectSameContent(*original, *m);
  EXPECT_EQ(m->buffers[1].data[63], 63);
}

TEST(ModelCopy, RejectsInvalidInput) {
  const uint8_t junk[16] = {1, 2, 3};
  auto copy = WriteModelCopyWithMetadata(junk, sizeof(junk), "x", {});
  EXPECT_EQ(copy.status().code(), ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace arenaplan::model
