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

#include "schema/tflite_generated.h"

namespace arenaplan::model {
namespace {

// The demo model's builtin options read back through the schema (what a runtime sees).
TEST(DemoModel, OptionsAndWeightsAreWritten) {
  const auto bytes = DemoModel();
  auto m = ReadModel(bytes.data(), bytes.size());
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ASSERT_EQ(m->subgraphs.size(), 1u);
  EXPECT_EQ(m->subgraphs[0].operators.size(), 14u);
  EXPECT_EQ(m->subgraphs[0].tensors.size(), 32u);
  const auto* ops = tfl::GetModel(bytes.data())->subgraphs()->Get(0)->operators();
  const auto* conv = ops->Get(0)->builtin_options_as_Conv2DOptions();
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->stride_w(), 1);
  EXPECT_EQ(conv->padding(), tfl::Padding::SAME);
  EXPECT_EQ(conv->fused_activation_function(), tfl::ActivationFunctionType::RELU);
  const auto* dw = ops->Get(1)->builtin_options_as_DepthwiseConv2DOptions();
  ASSERT_NE(dw, nullptr);
  EXPECT_EQ(dw->stride_h(), 2);
  EXPECT_EQ(dw->depth_multiplier(), 1);
  const auto* pool = ops->Get(10)->builtin_options_as_Pool2DOptions();
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(pool->filter_width(), 8);
  EXPECT_EQ(pool->padding(), tfl::Padding::VALID);
  const auto* reshape = ops->Get(11)->builtin_options_as_ReshapeOptions();
  ASSERT_NE(reshape, nullptr);
  EXPECT_EQ(std::vector<int32_t>(reshape->new_shape()->begin(), reshape->new_shape()->end()),
            (std::vector<int32_t>{1, 16}));
  ASSERT_NE(ops->Get(12)->builtin_options_as_FullyConnectedOptions(), nullptr);
  const auto* softmax = ops->Get(13)->builtin_options_as_SoftmaxOptions();
  ASSERT_NE(softmax, nullptr);
  EXPECT_EQ(softmax->beta(), 1.0f);
  // Conv weights [8, 3, 3, 3] float32 are constant and 16-aligned in the file.
  const Tensor& w = m->subgraphs[0].tensors[1];
  EXPECT_EQ(w.shape, (std::vector<int32_t>{8, 3, 3, 3}));
  ASSERT_TRUE(w.has_data);
  EXPECT_EQ(m->buffers[w.buffer].size, 8u * 27 * 4);
  EXPECT_EQ((m->buffers[w.buffer].data - bytes.data()) % 16, 0);
  EXPECT_EQ(DemoModel(), bytes);  // deterministic
}

}  // namespace
}  // namespace arenaplan::model
