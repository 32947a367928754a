#include "rules_testutil.h"

namespace arenaplan::rules::testing {

Built Build(const model::ModelSpec& spec) {
  Built b;
  b.bytes = model::WriteModel(spec);
  b.model = tfl::GetModel(b.bytes.data());
  b.file = ModelFile{b.bytes.data(), b.bytes.size()};
  const uint32_t n = Size(b.model->subgraphs());
  b.tensor_base.resize(n + 1);
  b.op_base.resize(n + 1);
  FillModelIndex(*b.model, b.tensor_base.data(), b.op_base.data());
  b.index = ModelIndex{b.model, n, b.tensor_base.data(), b.op_base.data()};
  return b;
}

model::OperatorSpec Op(model::ModelSpec& spec, int32_t code, std::vector<int32_t> in, std::vector<int32_t> out) {
  return {model::AddOperatorCode(spec, code), std::move(in), std::move(out), {}, {}, {}};
}

model::OperatorSpec Call(model::ModelSpec& spec, tfl::BuiltinOperator code, int32_t a, int32_t b) {
  model::OperatorSpec op = Op(spec, static_cast<int32_t>(code), {}, {});
  op.options.kind = code == tfl::BuiltinOperator::IF      ? model::OptionsKind::kIf
                    : code == tfl::BuiltinOperator::WHILE ? model::OptionsKind::kWhile
                                                          : model::OptionsKind::kCallOnce;
  op.options.subgraph_a = a;
  op.options.subgraph_b = b;
  return op;
}

std::vector<model::TensorSpec> Tensors(int n) {
  std::vector<model::TensorSpec> out;
  for (int i = 0; i < n; ++i) out.push_back({"t" + std::to_string(i), model::TensorType::kFloat32, {1, 4}});
  return out;
}

std::string Describe(StatusCode code, const ErrorText& error) {
  return std::string(StatusName(code)) + ": " + error.text;
}

}  // namespace arenaplan::rules::testing
