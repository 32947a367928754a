#include <gtest/gtest.h>

#include <cstring>

#include "spec_testutil.h"

namespace arenaplan::model::testutil {

ModelSpec SmallSpec() {
  ModelSpec spec;
  spec.subgraphs.push_back({});
  SubgraphSpec& sg = spec.subgraphs[0];
  sg.name = "main";
  const uint32_t w = AddBuffer(spec, std::vector<uint8_t>(64, 1));
  Quantization q;
  q.scale = {0.5f};
  q.zero_point = {-3};
  sg.tensors = {{"in", TensorType::kFloat32, {1, 4}, 0, false, q, {-1, 4}},
                {"w", TensorType::kFloat32, {4, 4}, w, false, std::nullopt, {}},
                {"mid", TensorType::kFloat32, {1, 4}, 0, false, std::nullopt, {}},
                {"out", TensorType::kFloat32, {1, 4}, 0, false, std::nullopt, {}}};
  OpOptions fc;
  fc.kind = OptionsKind::kFullyConnected;
  sg.operators.push_back({AddOperatorCode(spec, 9), {0, 1, -1}, {2}, {}, fc, {}});
  sg.operators.push_back({AddOperatorCode(spec, 32, "MyOp"), {2}, {3}, {}, {}, {}});
  sg.inputs = {0};
  sg.outputs = {3};
  return spec;
}

Result<Model> Read(const ModelSpec& spec, std::vector<uint8_t>& storage) {
  storage = WriteModel(spec);
  return ReadModel(storage.data(), storage.size());
}

::testing::AssertionResult IsInvalid(const Status& status, const std::vector<std::string>& words) {
  if (status.code() != ErrorCode::kInvalidArgument) {
    return ::testing::AssertionFailure() << "expected invalid argument, got " << status.ToString();
  }
  for (const std::string& w : words) {
    if (status.message().find(w) == std::string::npos) {
      return ::testing::AssertionFailure() << "message \"" << status.message() << "\" lacks \"" << w << "\"";
    }
  }
  return ::testing::AssertionSuccess();
}

// Everything but metadata compares equal between two reads.
void ExpectSameContent(const Model& a, const Model& b) {
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.description, b.description);
  ASSERT_EQ(a.operator_codes.size(), b.operator_codes.size());
  for (size_t i = 0; i < a.operator_codes.size(); ++i) EXPECT_EQ(a.operator_codes[i].name, b.operator_codes[i].name);
  ASSERT_EQ(a.subgraphs.size(), b.subgraphs.size());
  for (size_t s = 0; s < a.subgraphs.size(); ++s) {
    const Subgraph& x = a.subgraphs[s];
    const Subgraph& y = b.subgraphs[s];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.inputs, y.inputs);
    EXPECT_EQ(x.outputs, y.outputs);
    ASSERT_EQ(x.tensors.size(), y.tensors.size());
    for (size_t t = 0; t < x.tensors.size(); ++t) {
      EXPECT_EQ(x.tensors[t].name, y.tensors[t].name);
      EXPECT_EQ(x.tensors[t].shape, y.tensors[t].shape);
      EXPECT_EQ(x.tensors[t].buffer, y.tensors[t].buffer);
      EXPECT_EQ(x.tensors[t].bytes, y.tensors[t].bytes);
    }
    ASSERT_EQ(x.operators.size(), y.operators.size());
    for (size_t i = 0; i < x.operators.size(); ++i) {
      EXPECT_EQ(x.operators[i].inputs, y.operators[i].inputs);
      EXPECT_EQ(x.operators[i].outputs, y.operators[i].outputs);
      EXPECT_EQ(x.operators[i].called_subgraphs, y.operators[i].called_subgraphs);
    }
  }
  // b may have more buffers (the new metadata data): the common ones hold identical bytes.
  ASSERT_LE(a.buffers.size(), b.buffers.size());
  for (size_t i = 0; i < a.buffers.size(); ++i) {
    ASSERT_EQ(a.buffers[i].size, b.buffers[i].size) << "buffer " << i;
    if (a.buffers[i].size) { EXPECT_EQ(0, std::memcmp(a.buffers[i].data, b.buffers[i].data, a.buffers[i].size)); }
  }
}

}  // namespace arenaplan::model::testutil
