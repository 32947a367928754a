// Escaping text for HTML and SVG (XML) documents: & < > " become entities. O(length).
#pragma once

#include <string>

namespace arenaplan::report {

std::string EscapeMarkup(const std::string& text);

}  // namespace arenaplan::report
