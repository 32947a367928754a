// Where ../shared lives for tests: $ARENAPLAN_SHARED, else the CMake option ARENAPLAN_SHARED_DIR
// (default: ../shared beside the source tree). Tests that need it call REQUIRE_SHARED(): missing
// data skips with a clear message, but fails under CI (CI=true).
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace arenaplan::testing {

// The shared folder, or nullopt when it does not exist.
std::optional<std::string> SharedDir();
// True when running under CI (environment CI=true).
bool UnderCi();
// Every *.tflite below shared/models, as paths relative to models/, sorted.
std::vector<std::string> CorpusModels();
// Reads a whole file; empty on failure.
std::vector<uint8_t> ReadFileBytes(const std::string& path);
// Parses a CSV with a header row into rows of column -> value (quoted fields supported).
std::vector<std::vector<std::pair<std::string, std::string>>> ReadCsv(const std::string& path);
// The value of `column` in a ReadCsv row ("" when absent).
std::string CsvField(const std::vector<std::pair<std::string, std::string>>& row, const std::string& column);

}  // namespace arenaplan::testing

#define REQUIRE_SHARED()                                                                \
  do {                                                                                  \
    if (!::arenaplan::testing::SharedDir()) {                                           \
      if (::arenaplan::testing::UnderCi()) {                                            \
        FAIL() << "../shared not found (set ARENAPLAN_SHARED); required under CI";      \
      }                                                                                 \
      GTEST_SKIP() << "../shared not found (set ARENAPLAN_SHARED to run corpus tests)"; \
    }                                                                                   \
  } while (0)

// A parameterized suite over corpus models has no parameters without ../shared; its *Scope test
// says so (and fails under CI). Spelled without the word TEST followed by "(" so that
// gtest_add_tests (tests/CMakeLists.txt) does not take the line for a test.
#define CORPUS_SUITE_MAY_BE_EMPTY(suite) GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(suite)
