// ComputeSharedArenaSize against real TFLM with several models on one MicroAllocator
// (golden/tflm-x86_64/multi-tenant.csv): every row, every column we output, to the byte. The csv is
// read generically (models space-separated; per-model columns space-separated in the same order),
// so rows added later are checked too.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "model/model.h"
#include "support/shared_dir.h"
#include "tflm/shared_arena.h"

namespace arenaplan::tflm {
namespace {

using testing::CsvField;

std::vector<std::string> Words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::vector<uint64_t> Numbers(const std::string& s) {
  std::vector<uint64_t> out;
  for (const std::string& w : Words(s)) out.push_back(std::stoull(w));
  return out;
}

struct Loaded {
  std::vector<uint8_t> bytes;
  model::Model model;
};

TEST(SharedArenaCorpus, X86_64MatchesMultiTenantGolden) {
  REQUIRE_SHARED();
  const std::string dir = *testing::SharedDir();
  const auto rows = testing::ReadCsv(dir + "/golden/tflm-x86_64/multi-tenant.csv");
  ASSERT_GE(rows.size(), 6u);
  for (const auto& row : rows) {
    const std::vector<std::string> names = Words(CsvField(row, "models"));
    SCOPED_TRACE(CsvField(row, "models"));
    ASSERT_GE(names.size(), 2u);
    std::vector<std::unique_ptr<Loaded>> models;
    std::vector<Tenant> tenants;
    for (const std::string& name : names) {
      auto l = std::make_unique<Loaded>();
      l->bytes = testing::ReadFileBytes(dir + "/models/" + name);
      auto m = model::ReadModel(l->bytes.data(), l->bytes.size());
      ASSERT_TRUE(m.ok()) << name << ": " << m.status().ToString();
      l->model = std::move(*m);
      models.push_back(std::move(l));
      tenants.push_back({name, &models.back()->model});
    }
    auto s = ComputeSharedArenaSize(tenants, **FindTarget("tflm-x86_64"));
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    EXPECT_EQ(s->supported, CsvField(row, "all_invoke_ok") == "1") << s->error;
    ASSERT_TRUE(s->allocates) << s->error;
    EXPECT_EQ(s->head_bytes, std::stoull(CsvField(row, "multi_head_bytes")));
    EXPECT_EQ(s->tail_bytes, std::stoull(CsvField(row, "multi_tail_bytes")));
    EXPECT_EQ(s->arena_used_bytes, std::stoull(CsvField(row, "multi_used_bytes")));
    const std::string min = CsvField(row, "min_arena_bytes");
    if (!min.empty()) { EXPECT_EQ(s->min_arena_bytes, std::stoull(min)); }
    // Our replay says Invoke needs nothing AllocateTensors did not (true of every golden model).
    EXPECT_EQ(s->min_arena_bytes, std::stoull(CsvField(row, "min_arena_alloc_bytes")));
    const auto heads = Numbers(CsvField(row, "heads")), tails = Numbers(CsvField(row, "tails")),
               used = Numbers(CsvField(row, "arena_used"));
    ASSERT_EQ(heads.size(), names.size());
    ASSERT_EQ(tails.size(), names.size());
    ASSERT_EQ(used.size(), names.size());
    ASSERT_EQ(s->models.size(), names.size());
    for (size_t i = 0; i < names.size(); ++i) {
      SCOPED_TRACE(names[i]);
      EXPECT_EQ(s->models[i].head_bytes, heads[i]);
      // What the model's interpreter added: MicroAllocator::Create's objects came before any.
      EXPECT_EQ(s->models[i].tail_bytes, tails[i]);
      EXPECT_EQ(s->models[i].arena_used_bytes, used[i]);
    }
  }
}

}  // namespace
}  // namespace arenaplan::tflm
