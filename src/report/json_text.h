// JSON documents as text. Names come from untrusted model bytes and need not be UTF-8: invalid bytes
// are written as U+FFFD instead of failing (nlohmann::json's default throws). O(size).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace arenaplan::report {

// indent < 0: compact; otherwise pretty-printed with that many spaces.
std::string JsonText(const nlohmann::json& j, int indent = 2);

}  // namespace arenaplan::report
