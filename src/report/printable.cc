#include "report/printable.h"

#include "rules/text.h"

namespace arenaplan::report {

std::string Printable(std::string_view s, size_t max_bytes) {
  const auto n = static_cast<uint32_t>(s.size());
  const uint32_t full = rules::EscapeText(s.data(), n, nullptr, 0);
  const bool cut = max_bytes != std::string::npos && full > max_bytes;
  const size_t keep = cut ? (max_bytes > 3 ? max_bytes - 3 : 0) : full;
  std::string out(keep + 1, '\0');
  const uint32_t cap = static_cast<uint32_t>(out.size());
  rules::EscapeText(s.data(), n, out.data(), cap);  // whole pieces only, NUL-terminated
  out.resize(std::char_traits<char>::length(out.c_str()));
  return cut ? out + "..." : out;
}

std::string JsonText(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace arenaplan::report
