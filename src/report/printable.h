// Strings from a model (names, custom codes, the description) on their way out: escaped in text
// (rules/text.h: control bytes, C1 controls and invalid UTF-8 as \xNN, idempotent, so messages
// that already carry escaped names pass unchanged), and valid UTF-8 in JSON. O(length).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace arenaplan::report {

// Escaped text of at most max_bytes bytes: a longer text is cut before a whole character or
// escape and ends in "...".
std::string Printable(std::string_view s, size_t max_bytes = std::string::npos);

// The JSON document as the CLI prints it (indent 2; < 0: compact, as the HTML report and the
// Python package embed it). A string that is not valid UTF-8 gets U+FFFD for each bad byte; control
// characters are JSON-escaped (\u001b), so the output always parses.
std::string JsonText(const nlohmann::json& j, int indent = 2);

}  // namespace arenaplan::report
