// rules/model.h: reading a flatbuffer as TFLM does, on small written models.
#include "rules/model.h"

#include <gtest/gtest.h>

#include "rules_testutil.h"

namespace arenaplan::rules {
namespace {

using B = tfl::BuiltinOperator;
using testing::Build;

TEST(RulesModel, OpNames) {
  model::ModelSpec spec;
  spec.subgraphs.resize(1);
  model::AddOperatorCode(spec, 3);  // CONV_2D
  model::AddOperatorCode(spec, 32,
                         "Signal\x1b"
                         "FFT");  // kept raw: Format's %s escapes it
  model::AddOperatorCode(spec, 9999);
  const auto b = Build(spec);
  char name[32];
  EXPECT_STREQ(OpName(*b.model->operator_codes()->Get(0), name, sizeof(name)), "CONV_2D");
  EXPECT_STREQ(OpName(*b.model->operator_codes()->Get(1), name, sizeof(name)),
               "CUSTOM:Signal\x1b"
               "FFT");
  EXPECT_STREQ(OpName(*b.model->operator_codes()->Get(2), name, sizeof(name)), "UNKNOWN_9999");
  char tiny[8];
  EXPECT_STREQ(OpName(*b.model->operator_codes()->Get(1), tiny, sizeof(tiny)), "CUSTOM:");
}

TEST(RulesModel, SizesAsTflmCountsThem) {
  EXPECT_EQ(TypeBytes(tfl::TensorType::INT4), 1u);  // planned unpacked
  EXPECT_EQ(TypeBytes(tfl::TensorType::COMPLEX128), 16u);
  EXPECT_EQ(TypeBytes(tfl::TensorType::STRING), 0u);
  model::ModelSpec spec;
  spec.subgraphs.resize(1);
  spec.subgraphs[0].tensors = {{"a", model::TensorType::kInt16, {2, 3}},
                               {"b", model::TensorType::kFloat32, {65536, 65536, 65536, 65536, 65536}},
                               {"c", model::TensorType::kFloat32, {4, 0, 65536, 65536, 65536}}};
  const auto b = Build(spec);
  const auto* t = b.model->subgraphs()->Get(0)->tensors();
  EXPECT_EQ(TensorBytes(*t->Get(0)), 12u);
  EXPECT_EQ(TensorBytes(*t->Get(1)), UINT64_MAX);  // saturates
  EXPECT_EQ(TensorBytes(*t->Get(2)), 0u);
}

TEST(RulesModel, BufferDataInlineOrInTheFile) {
  model::ModelSpec spec;
  spec.subgraphs.resize(1);
  const uint32_t inline_data = model::AddBuffer(spec, {1, 2, 3});
  const uint32_t external = model::AddBuffer(spec, {});
  const uint32_t outside = model::AddBuffer(spec, {});
  spec.external_buffers = {{external, 4, 4}, {outside, 1 << 20, 4}};
  const auto b = Build(spec);
  const uint8_t* data = nullptr;
  uint64_t bytes = 0;
  BufferData(*b.model, b.file, inline_data, &data, &bytes);
  EXPECT_EQ(bytes, 3u);
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(data[2], 3);
  BufferData(*b.model, b.file, external, &data, &bytes);
  EXPECT_EQ(data, b.bytes.data() + 4);
  EXPECT_EQ(bytes, 4u);
  BufferData(*b.model, b.file, outside, &data, &bytes);
  EXPECT_EQ(data, nullptr);
  EXPECT_EQ(bytes, 0u);
  BufferData(*b.model, b.file, 0, &data, &bytes);  // the empty buffer
  EXPECT_EQ(data, nullptr);
  BufferData(*b.model, b.file, 99, &data, &bytes);  // out of range
  EXPECT_EQ(data, nullptr);
}

TEST(RulesModel, NumberingOverSubgraphsWithEmptyOnes) {
  model::ModelSpec spec;
  spec.subgraphs.resize(4);  // tensors: 2, 0, 0, 3; ops: 1, 0, 2, 0
  spec.subgraphs[0].tensors = testing::Tensors(2);
  spec.subgraphs[3].tensors = testing::Tensors(3);
  spec.subgraphs[0].operators = {testing::Call(spec, B::IF, 1, 2)};
  spec.subgraphs[2].operators = {testing::Op(spec, 0, {}, {}), testing::Op(spec, 0, {}, {})};
  const auto b = Build(spec);
  EXPECT_EQ(b.tensor_base, (std::vector<uint32_t>{0, 2, 2, 2, 5}));
  EXPECT_EQ(b.op_base, (std::vector<uint32_t>{0, 1, 1, 3, 3}));
  EXPECT_EQ(b.index.total_tensors(), 5u);
  EXPECT_EQ(b.index.total_ops(), 3u);
  EXPECT_EQ(b.index.SubgraphOfTensor(1), 0u);
  EXPECT_EQ(b.index.SubgraphOfTensor(2), 3u);  // skips the empty subgraphs
  EXPECT_EQ(b.index.SubgraphOfTensor(4), 3u);
  int32_t called[2] = {-1, -1};
  EXPECT_EQ(CalledSubgraphs(*b.model, b.index.op(0, 0), called), 2u);
  EXPECT_EQ(called[0], 1);
  EXPECT_EQ(called[1], 2);
  EXPECT_EQ(CalledSubgraphs(*b.model, b.index.op(2, 0), called), 0u);
}

}  // namespace
}  // namespace arenaplan::rules
