// Every model under shared/models parses, and its static facts equal golden/models.csv.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "model/model.h"
#include "model/offline_plan.h"
#include "support/shared_dir.h"

namespace arenaplan::model {
namespace {

using testing::CsvField;

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? ";" : "") + parts[i];
  return out;
}

std::string OperatorCodesInFirstUseOrder(const Model& m) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const Subgraph& sg : m.subgraphs) {
    for (const Operator& op : sg.operators) {
      if (seen.insert(m.code_of(op).name).second) names.push_back(m.code_of(op).name);
    }
  }
  return Join(names);
}

std::string IoList(const Subgraph& sg, const std::vector<int32_t>& indices) {
  std::vector<std::string> parts;
  for (int32_t i : indices) {
    const Tensor& t = sg.tensors[i];
    std::string dims;
    for (size_t d = 0; d < t.shape.size(); ++d) dims += (d ? "," : "") + std::to_string(t.shape[d]);
    parts.push_back(std::string(TensorTypeName(t.type)) + "[" + dims + "]");
  }
  return Join(parts);
}

TEST(ModelCorpus, EveryModelMatchesGoldenStaticFacts) {
  REQUIRE_SHARED();
  const std::string shared = *testing::SharedDir();
  const auto rows = testing::ReadCsv(shared + "/golden/models.csv");
  ASSERT_GT(rows.size(), 100u);
  EXPECT_EQ(rows.size(), testing::CorpusModels().size());
  for (const auto& row : rows) {
    const std::string file = CsvField(row, "file");
    SCOPED_TRACE(file);
    const auto bytes = testing::ReadFileBytes(shared + "/models/" + file);
    ASSERT_FALSE(bytes.empty());
    ASSERT_EQ(std::to_string(bytes.size()), CsvField(row, "file_bytes"));
    auto model = ReadModel(bytes.data(), bytes.size());
    ASSERT_TRUE(model.ok()) << model.status().ToString();
    const Model& m = *model;
    size_t ops = 0, variables = 0;
    bool dynamic = false;
    for (const Subgraph& sg : m.subgraphs) {
      ops += sg.operators.size();
      for (const Tensor& t : sg.tensors) {
        variables += t.is_variable;
        for (int32_t d : t.shape_signature) dynamic |= d == -1;
      }
    }
    EXPECT_EQ(std::to_string(m.version), CsvField(row, "schema_version"));
    EXPECT_EQ(std::to_string(m.subgraphs.size()), CsvField(row, "subgraphs"));
    EXPECT_EQ(std::to_string(m.total_tensors()), CsvField(row, "tensors"));
    EXPECT_EQ(std::to_string(ops), CsvField(row, "operators"));
    EXPECT_EQ(OperatorCodesInFirstUseOrder(m), CsvField(row, "operator_codes"));
    EXPECT_EQ(IoList(m.subgraphs[0], m.subgraphs[0].inputs), CsvField(row, "inputs"));
    EXPECT_EQ(IoList(m.subgraphs[0], m.subgraphs[0].outputs), CsvField(row, "outputs"));
    EXPECT_EQ(std::to_string(variables), CsvField(row, "variable_tensors"));
    EXPECT_EQ(variables > 0 ? "1" : "0", CsvField(row, "has_variables"));
    EXPECT_EQ(FindOfflinePlanMetadata(m) ? "1" : "0", CsvField(row, "has_offline_plan"));
    EXPECT_EQ(dynamic ? "1" : "0", CsvField(row, "has_dynamic_shape_signature"));
    EXPECT_TRUE(ValidateOfflinePlan(m).ok()) << ValidateOfflinePlan(m).ToString();
  }
}

}  // namespace
}  // namespace arenaplan::model
