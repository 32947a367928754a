#include "support/shared_dir.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace arenaplan::testing {
namespace fs = std::filesystem;

std::optional<std::string> SharedDir() {
  const char* env = std::getenv("ARENAPLAN_SHARED");
  std::string dir = (env && *env) ? env : ARENAPLAN_DEFAULT_SHARED_DIR;
  std::error_code ec;
  if (!fs::is_directory(fs::path(dir) / "models", ec)) return std::nullopt;
  return fs::weakly_canonical(dir, ec).string();
}

bool UnderCi() {
  const char* ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

std::vector<std::string> CorpusModels() {
  std::vector<std::string> out;
  auto dir = SharedDir();
  if (!dir) return out;
  const fs::path models = fs::path(*dir) / "models";
  for (const auto& e : fs::recursive_directory_iterator(models)) {
    if (e.is_regular_file() && e.path().extension() == ".tflite") {
      out.push_back(fs::relative(e.path(), models).string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<uint8_t> ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

static std::vector<std::string> SplitCsvLine(const std::string& line) {
  std::vector<std::string> fields;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"')
        quoted = false;
      else
        cur += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  fields.push_back(cur);
  return fields;
}

std::vector<std::vector<std::pair<std::string, std::string>>> ReadCsv(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::vector<std::vector<std::pair<std::string, std::string>>> rows;
  if (!std::getline(in, line)) return rows;
  const auto header = SplitCsvLine(line);
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto fields = SplitCsvLine(line);
    std::vector<std::pair<std::string, std::string>> row;
    for (size_t i = 0; i < header.size(); ++i) row.emplace_back(header[i], i < fields.size() ? fields[i] : "");
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string CsvField(const std::vector<std::pair<std::string, std::string>>& row, const std::string& column) {
  for (const auto& [k, v] : row)
    if (k == column) return v;
  return "";
}

}  // namespace arenaplan::testing
