// Every benchmark problem in shared/benchmarks parses, and its live-bytes lower bound matches the
// figures published in shared/benchmarks/minimalloc/SOURCE.md and docs/minimalloc.md §9.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "plan/csv.h"
#include "plan/lower_bound.h"
#include "support/shared_dir.h"

namespace arenaplan::plan {
namespace {
namespace fs = std::filesystem;

TEST(CsvCorpus, BenchmarksParseAndBoundsMatchPublishedFigures) {
  REQUIRE_SHARED();
  const fs::path bench = fs::path(*arenaplan::testing::SharedDir()) / "benchmarks";
  // Published: buffers and lower bound per challenging instance (docs/minimalloc.md §9 table).
  const std::map<std::string, std::pair<size_t, Bytes>> published = {
      {"A.1048576.csv", {154, 1048576}}, {"B.1048576.csv", {170, 1048576}}, {"C.1048576.csv", {203, 1039360}},
      {"D.1048576.csv", {213, 986112}},  {"E.1048576.csv", {215, 1048576}}, {"F.1048576.csv", {296, 1048576}},
      {"G.1048576.csv", {308, 1048576}}, {"H.1048576.csv", {316, 1048576}}, {"I.1048576.csv", {374, 1048576}},
      {"J.1048576.csv", {409, 989184}},  {"K.1048576.csv", {454, 1048576}},
  };
  size_t files = 0, matched = 0;
  for (const char* dir : {"minimalloc", "real-traces"}) {
    for (const auto& e : fs::directory_iterator(bench / dir)) {
      if (e.path().extension() != ".csv") continue;
      SCOPED_TRACE(e.path().string());
      Result<CsvProblem> r = ReadCsvFile(e.path().string());
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      EXPECT_FALSE(r->problem.buffers.empty());
      EXPECT_EQ(r->ids.size(), r->problem.buffers.size());
      ++files;
      const auto it = published.find(e.path().filename().string());
      if (it == published.end()) continue;
      EXPECT_EQ(r->problem.buffers.size(), it->second.first);
      EXPECT_EQ(LiveBytesLowerBound(r->problem), it->second.second);
      ++matched;
    }
  }
  EXPECT_EQ(matched, published.size());
  EXPECT_GE(files, 17u);
}

}  // namespace
}  // namespace arenaplan::plan
