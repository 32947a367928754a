// A static SVG memory timeline for documentation (`arenaplan report --format svg`): time across,
// arena address down, one <rect> per buffer with a <title> (name, size, lifetime, offset), the
// arena end and the lower bound as lines, the peak step marked, and the live-bytes curve below.
// Drawn from a `plan --format json` (or `solve --format json`) document, like the HTML report.
// O(n log n) in the buffers.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace arenaplan::report {

std::string RenderSvgTimeline(const nlohmann::json& plan, const std::string& title);

}  // namespace arenaplan::report
