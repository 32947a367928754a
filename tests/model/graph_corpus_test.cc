// Every corpus model (models/, models/tflm_ops/, op-suite/models/) round-trips through the editable
// graph: read -> write -> read gives the same graph (SameGraph: every field, floats bit for bit)
// as the first, and the written bytes pass the reader's verifier.
#include <gtest/gtest.h>

#include "model/graph.h"
#include "model/model.h"
#include "support/shared_dir.h"

namespace arenaplan::testing {
namespace {

std::vector<std::string> AllModels() {
  std::vector<std::string> out;
  for (const auto& m : CorpusModels()) out.push_back("models/" + m);
  const auto shared = SharedDir();
  if (!shared) return out;
  for (const auto& row : ReadCsv(*shared + "/op-suite/golden/tflm-x86_64/arena.csv")) {
    out.push_back("op-suite/models/" + CsvField(row, "model"));
  }
  return out;
}

TEST(GraphCorpus, EveryModelRoundTrips) {
  REQUIRE_SHARED();
  const auto models = AllModels();
  ASSERT_GT(models.size(), 200u);
  for (const auto& path : models) {
    SCOPED_TRACE(path);
    const std::vector<uint8_t> bytes = ReadFileBytes(*SharedDir() + "/" + path);
    ASSERT_FALSE(bytes.empty());
    auto first = model::ReadGraph(bytes.data(), bytes.size());
    ASSERT_TRUE(first.ok()) << first.status().ToString();
    auto written = model::WriteGraph(**first);
    ASSERT_TRUE(written.ok()) << written.status().ToString();
    auto view = model::ReadModel(written->data(), written->size());
    ASSERT_TRUE(view.ok()) << view.status().ToString();
    auto second = model::ReadGraph(written->data(), written->size());
    ASSERT_TRUE(second.ok()) << second.status().ToString();
    EXPECT_TRUE(model::SameGraph(**first, **second));
    // The graph holds what the file holds: spot-check against the independent read view.
    auto original = model::ReadModel(bytes.data(), bytes.size());
    ASSERT_TRUE(original.ok());
    ASSERT_EQ(view->subgraphs.size(), original->subgraphs.size());
    for (size_t s = 0; s < view->subgraphs.size(); ++s) {
      EXPECT_EQ(view->subgraphs[s].tensors.size(), original->subgraphs[s].tensors.size());
      EXPECT_EQ(view->subgraphs[s].operators.size(), original->subgraphs[s].operators.size());
    }
    EXPECT_EQ(view->metadata.size(), original->metadata.size());
  }
}

}  // namespace
}  // namespace arenaplan::testing
