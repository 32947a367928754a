// MiniMalloc's CSV problem format (docs/minimalloc.md §5), the exchange format of memory-planning
// benchmarks. A header row names the columns in any order: required id, lower, size and either
// upper (exclusive: lifespan [lower, upper)) or end (inclusive); optional alignment, offset (a
// fixed position; -1 or empty = planned), hint (ignored). Aliases: buffer / buffer_id -> id,
// start / begin -> lower. Every row must have as many fields as the header; reading stops at the
// first empty line. Lifespans are converted once, here, to our inclusive [first, last].
// Errors name the 1-based line and the column. gaps (idle sub-intervals) are not supported:
// a non-empty gaps field is kUnsupported. O(n log n) (duplicate-id check).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "plan/problem.h"
#include "util/result.h"

namespace arenaplan::plan {

struct CsvProblem {
  Problem problem;               // buffers in row order; capacity 0 (the caller sets it)
  std::vector<std::string> ids;  // one per buffer, the `id` column
};

// Parses CSV text; `source` names the input in messages ("model.csv:5: ...").
Result<CsvProblem> ParseCsv(std::string_view text, const std::string& source = "csv");
// Reads and parses a file.
Result<CsvProblem> ReadCsvFile(const std::string& path);

// id,lower,upper,size[,alignment],offset — `upper` exclusive again (last + 1); alignment only
// when some buffer has one other than 1. One row per buffer in problem order.
std::string WriteCsv(const std::vector<std::string>& ids, const Problem& problem, const Plan& plan);

// With Problem::capacity > 0: kInfeasible when a single buffer is larger than the capacity or a
// fixed buffer ends above it (no plan can exist). Names the buffer, and its id and CSV line
// (index + 2) when `ids` (from ParseCsv) is given. O(n).
Status CheckCapacity(const Problem& problem, const std::vector<std::string>* ids = nullptr);

}  // namespace arenaplan::plan
