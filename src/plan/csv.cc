#include "plan/csv.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_map>

namespace arenaplan::plan {
namespace {

enum Column { kId, kLower, kUpper, kEnd, kSize, kAlignment, kOffset, kHint, kGaps, kColumnCount };

const char* const kColumnNames[kColumnCount] = {"id",        "lower",  "upper", "end", "size",
                                                "alignment", "offset", "hint",  "gaps"};

int ColumnOf(const std::string& name) {
  if (name == "id" || name == "buffer" || name == "buffer_id") return kId;
  if (name == "lower" || name == "start" || name == "begin") return kLower;
  for (int c = 0; c < kColumnCount; ++c) {
    if (name == kColumnNames[c]) return c;
  }
  return -1;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> SplitFields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 0; i <= line.size(); ++i) {
    if (i == line.size() || line[i] == ',') {
      out.push_back(Trim(line.substr(start, i - start)));
      start = i + 1;
    }
  }
  return out;
}

struct RowParser {
  const std::string& source;
  size_t line;
  const std::vector<std::string_view>& fields;
  const int* where;  // column -> field index or -1

  std::string At(int column) const {
    return source + ":" + std::to_string(line) + ": column '" + kColumnNames[column] + "'";
  }
  bool Has(int column) const { return where[column] >= 0; }
  std::string_view Field(int column) const { return fields[where[column]]; }

  // An int64 field; `dflt` when empty and `dflt_ok`.
  Result<int64_t> Int(int column, bool dflt_ok = false, int64_t dflt = 0) const {
    const std::string_view f = Field(column);
    if (f.empty()) {
      if (dflt_ok) return dflt;
      return InvalidArgument(At(column) + ": empty value");
    }
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
    if (ec == std::errc::result_out_of_range) {
      return InvalidArgument(At(column) + ": '" + std::string(f) + "' does not fit in 64 bits");
    }
    if (ec != std::errc() || end != f.data() + f.size()) {
      return InvalidArgument(At(column) + ": '" + std::string(f) + "' is not an integer");
    }
    return v;
  }
};

#define ARENAPLAN_ASSIGN_INT(var, expr) \
  int64_t var = 0;                      \
  {                                     \
    auto _r = (expr);                   \
    if (!_r.ok()) return _r.status();   \
    var = *_r;                          \
  }

Result<Buffer> ParseRow(const RowParser& p) {
  ARENAPLAN_ASSIGN_INT(lower, p.Int(kLower));
  ARENAPLAN_ASSIGN_INT(size, p.Int(kSize));
  Buffer b;
  b.first = lower;
  if (p.Has(kUpper)) {
    ARENAPLAN_ASSIGN_INT(upper, p.Int(kUpper));
    if (lower >= upper) {
      return InvalidArgument(p.At(kUpper) + ": upper " + std::to_string(upper) + " must be greater than lower " +
                             std::to_string(lower) + " (upper is exclusive)");
    }
    b.last = upper - 1;
  } else {
    ARENAPLAN_ASSIGN_INT(end, p.Int(kEnd));
    if (end < lower) {
      return InvalidArgument(p.At(kEnd) + ": end " + std::to_string(end) + " is before lower " + std::to_string(lower));
    }
    if (end == std::numeric_limits<int64_t>::max()) return InvalidArgument(p.At(kEnd) + ": end is too large");
    b.last = end;
  }
  if (size <= 0) return InvalidArgument(p.At(kSize) + ": size " + std::to_string(size) + " must be > 0");
  b.size = size;
  if (p.Has(kAlignment)) {
    ARENAPLAN_ASSIGN_INT(alignment, p.Int(kAlignment, true, 1));
    if (alignment <= 0) {
      return InvalidArgument(p.At(kAlignment) + ": alignment " + std::to_string(alignment) + " must be > 0");
    }
    b.alignment = alignment;
  }
  if (p.Has(kOffset)) {
    ARENAPLAN_ASSIGN_INT(offset, p.Int(kOffset, true, kUnfixed));
    if (offset < kUnfixed) {
      return InvalidArgument(p.At(kOffset) + ": offset " + std::to_string(offset) + " is negative (-1 = not fixed)");
    }
    if (offset != kUnfixed && offset % b.alignment != 0) {
      return InvalidArgument(p.At(kOffset) + ": offset " + std::to_string(offset) +
                             " is not a multiple of the alignment " + std::to_string(b.alignment));
    }
    b.fixed_offset = offset;
  }
  if (p.Has(kGaps) && !p.Field(kGaps).empty()) {
    return Unsupported(p.At(kGaps) + ": gaps (idle sub-intervals) are not supported");
  }
  return b;
}

Status ParseHeader(const std::string& source, std::string_view line, int* where, size_t* columns) {
  const std::vector<std::string_view> names = SplitFields(line);
  *columns = names.size();
  std::fill(where, where + kColumnCount, -1);
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string name(names[i]);
    const int c = ColumnOf(name);
    const std::string at = source + ":1: column " + std::to_string(i + 1);
    if (c < 0) return InvalidArgument(at + ": unknown column '" + name + "'");
    if (where[c] >= 0) return InvalidArgument(at + ": '" + name + "' repeats column '" + kColumnNames[c] + "'");
    where[c] = static_cast<int>(i);
  }
  if (where[kUpper] >= 0 && where[kEnd] >= 0) {
    return InvalidArgument(source + ":1: header has both 'upper' (exclusive) and 'end' (inclusive)");
  }
  for (int c : {kId, kLower, kSize}) {
    if (where[c] < 0) return InvalidArgument(source + ":1: missing required column '" + kColumnNames[c] + "'");
  }
  if (where[kUpper] < 0 && where[kEnd] < 0) return InvalidArgument(source + ":1: missing required column 'upper'");
  return Status::Ok();
}

// Decimal text of a possibly out-of-int64 value (last + 1 for last = INT64_MAX).
std::string ToText(__int128 v) {
  if (v >= std::numeric_limits<int64_t>::min() && v <= std::numeric_limits<int64_t>::max()) {
    return std::to_string(static_cast<int64_t>(v));
  }
  const bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string s;
  while (u > 0) s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(u % 10))), u /= 10;
  return negative ? "-" + s : s;
}

}  // namespace

Result<CsvProblem> ParseCsv(std::string_view text, const std::string& source) {
  CsvProblem out;
  int where[kColumnCount];
  size_t columns = 0;
  std::unordered_map<std::string, size_t> seen;  // id -> line
  size_t line_no = 0;
  bool header = false;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view raw = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    const std::string_view line = Trim(raw);
    if (!header) {
      if (line.empty()) return InvalidArgument(source + ":1: empty header line");
      ARENAPLAN_RETURN_IF_ERROR(ParseHeader(source, line, where, &columns));
      header = true;
      continue;
    }
    if (line.empty()) break;  // MiniMalloc stops at the first empty line
    const std::vector<std::string_view> fields = SplitFields(line);
    if (fields.size() != columns) {
      return InvalidArgument(source + ":" + std::to_string(line_no) + ": " + std::to_string(fields.size()) +
                             " fields but the header has " + std::to_string(columns));
    }
    const RowParser parser{source, line_no, fields, where};
    Result<Buffer> b = ParseRow(parser);
    if (!b.ok()) return b.status();
    std::string id(fields[where[kId]]);
    if (id.empty()) return InvalidArgument(parser.At(kId) + ": empty id");
    const auto [it, inserted] = seen.emplace(id, line_no);
    if (!inserted) {
      return InvalidArgument(parser.At(kId) + ": duplicate id '" + id + "' (first on line " +
                             std::to_string(it->second) + ")");
    }
    out.problem.buffers.push_back(*b);
    out.ids.push_back(std::move(id));
  }
  if (!header) return InvalidArgument(source + ": empty input (no header line)");
  const Status valid = ValidateProblem(out.problem);
  if (!valid.ok()) return Status(valid.code(), source + ": " + valid.message());
  return out;
}

Result<CsvProblem> ReadCsvFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return InvalidArgument(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return InvalidArgument(path + ": read error");
  return ParseCsv(text.str(), path);
}

std::string WriteCsv(const std::vector<std::string>& ids, const Problem& problem, const Plan& plan) {
  const bool alignment = std::any_of(problem.buffers.begin(), problem.buffers.end(),
                                     [](const Buffer& b) { return b.alignment != 1; });
  std::string out = alignment ? "id,lower,upper,size,alignment,offset\n" : "id,lower,upper,size,offset\n";
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer& b = problem.buffers[i];
    out += i < ids.size() ? ids[i] : std::to_string(i);
    out += "," + std::to_string(b.first) + "," + ToText(__int128{b.last} + 1) + "," + std::to_string(b.size);
    if (alignment) out += "," + std::to_string(b.alignment);
    out += "," + std::to_string(i < plan.offsets.size() ? plan.offsets[i] : kUnfixed) + "\n";
  }
  return out;
}

Status CheckCapacity(const Problem& problem, const std::vector<std::string>* ids) {
  if (problem.capacity <= 0) return Status::Ok();
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer& b = problem.buffers[i];
    std::string name = DescribeBuffer(problem, i);
    if (ids && i < ids->size()) name += " id '" + (*ids)[i] + "' (line " + std::to_string(i + 2) + ")";
    const std::string cap = std::to_string(problem.capacity);
    if (b.size > problem.capacity) {
      return Infeasible(name + ": size " + std::to_string(b.size) + " exceeds the capacity " + cap);
    }
    if (b.fixed() && b.fixed_offset > problem.capacity - b.size) {
      return Infeasible(name + ": fixed at " + std::to_string(b.fixed_offset) + ", ends above the capacity " + cap);
    }
  }
  return Status::Ok();
}

}  // namespace arenaplan::plan
