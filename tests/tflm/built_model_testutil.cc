#include "built_model_testutil.h"

#include <gtest/gtest.h>

#include <utility>

namespace arenaplan::tflm::testing {

BuiltModel BuildModel(const model::ModelSpec& spec) {
  BuiltModel b;
  b.bytes = model::WriteModel(spec);
  auto m = model::ReadModel(b.bytes.data(), b.bytes.size());
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  if (m.ok()) b.model = std::move(*m);
  return b;
}

model::ModelSpec FcModel(int32_t code, model::TensorType in_type, model::TensorType weight_type) {
  model::ModelSpec spec;
  spec.operator_codes.push_back({code, "", 1});
  std::vector<uint8_t> w(8 * 4 * 4, 0), b(8 * 4, 0);
  const uint32_t wb = model::AddBuffer(spec, w);
  const uint32_t bb = model::AddBuffer(spec, b);
  model::SubgraphSpec sg;
  sg.tensors = {{"in", in_type, {1, 4}, 0, false, std::nullopt, {}},
                {"w", weight_type, {8, 4}, wb, false, std::nullopt, {}},
                {"b", model::TensorType::kFloat32, {8}, bb, false, std::nullopt, {}},
                {"out", model::TensorType::kFloat32, {1, 8}, 0, false, std::nullopt, {}}};
  sg.inputs = {0};
  sg.outputs = {3};
  model::OperatorSpec op;
  op.inputs = {0, 1, 2};
  op.outputs = {3};
  if (code == 9) op.options.kind = model::OptionsKind::kFullyConnected;
  sg.operators.push_back(op);
  spec.subgraphs.push_back(sg);
  return spec;
}

}  // namespace arenaplan::tflm::testing
