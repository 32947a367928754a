// Every model under shared/models parses, and its static facts equal golden/models.csv.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "model/model.h"
#include "model/offline_plan.h"
#include "model/writer.h"
#include "schema/tflite_generated.h"
#include "spec_testutil.h"
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

namespace arenaplan::model {
namespace {

// Every corpus model survives WriteModelCopyWithMetadata: same content, the new plan decodes, and
// every signature_def / metadata entry other than the plan is kept.
TEST(ModelCorpus, CopyWithOfflinePlanKeepsEveryModelIntact) {
  REQUIRE_SHARED();
  const std::string shared = *testing::SharedDir();
  size_t copied = 0;
  for (const std::string& file : testing::CorpusModels()) {
    SCOPED_TRACE(file);
    const auto bytes = testing::ReadFileBytes(shared + "/models/" + file);
    auto original = ReadModel(bytes.data(), bytes.size());
    ASSERT_TRUE(original.ok());
    std::vector<int32_t> offsets(original->total_tensors(), -1);
    if (!offsets.empty()) offsets[0] = 0;
    auto copy = WriteModelCopyWithMetadata(bytes.data(), bytes.size(), std::string(kOfflinePlanMetadataName),
                                           EncodeOfflinePlan(offsets));
    ASSERT_TRUE(copy.ok()) << copy.status().ToString();
    auto m = ReadModel(copy->data(), copy->size());
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    testutil::ExpectSameContent(*original, *m);
    ASSERT_TRUE(m->offline_plan.has_value());
    EXPECT_EQ(m->offline_plan->offsets, offsets);
    EXPECT_TRUE(ValidateOfflinePlan(*m).ok()) << ValidateOfflinePlan(*m).ToString();
    const bool had_plan = FindOfflinePlanMetadata(*original).has_value();
    EXPECT_EQ(m->metadata.size(), original->metadata.size() + (had_plan ? 0 : 1));
    for (size_t i = 0; i < original->metadata.size(); ++i) {
      EXPECT_EQ(m->metadata[i].name, original->metadata[i].name);
      if (m->metadata[i].name != kOfflinePlanMetadataName) {
        EXPECT_EQ(m->metadata[i].buffer, original->metadata[i].buffer);
      }
    }
    const auto* a = tfl::GetModel(bytes.data());
    const auto* b = tfl::GetModel(copy->data());
    const size_t sigs = a->signature_defs() ? a->signature_defs()->size() : 0;
    ASSERT_EQ(sigs, b->signature_defs() ? b->signature_defs()->size() : 0u);
    for (size_t i = 0; i < sigs; ++i) {
      const auto* x = a->signature_defs()->Get(i);
      const auto* y = b->signature_defs()->Get(i);
      EXPECT_EQ(x->subgraph_index(), y->subgraph_index());
      EXPECT_EQ(x->signature_key() ? x->signature_key()->str() : "",
                y->signature_key() ? y->signature_key()->str() : "");
      EXPECT_EQ(x->inputs() ? x->inputs()->size() : 0, y->inputs() ? y->inputs()->size() : 0);
    }
    ++copied;
  }
  EXPECT_EQ(copied, testing::CorpusModels().size());
}

}  // namespace
}  // namespace arenaplan::model
