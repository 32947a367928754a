// The interactive HTML report: one self-contained page (no network, no external scripts or fonts)
// that draws the memory timeline on a canvas, the live-bytes curve with the lower bound, the peak
// and what is alive there, each planner side by side, the TFLM tail breakdown and the op list.
// It shows only what the embedded documents say: the JSON `plan` / `solve` / `size` print (one
// source, so the page cannot drift from the CLI) and a projection of `inspect`'s operator list.
// The page's code is src/report/html/ (report.js documents its drawing); data is embedded in a
// <script type="application/json"> with '<', '>' and '&' escaped, so names cannot break out.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace arenaplan::report {

// One model (or one `solve` problem) of the report.
struct ReportEntry {
  std::string name;                   // as given on the command line
  std::string role;                   // "original" / "optimized" when two models are compared, else ""
  std::vector<nlohmann::json> plans;  // PlanToJson documents, or `solve --format json` documents
  nlohmann::json size;                // SizeToJson (with --target), else null
  nlohmann::json graph;               // GraphFromInspect(...), else null
};

// The operators of `inspect --format json` (index, op, inputs, outputs, called_subgraphs) and each
// tensor's name, dtype, shape and constness: what the op list links from. O(size of the input).
nlohmann::json GraphFromInspect(const nlohmann::json& inspect);

// The page; O(bytes of the embedded JSON).
std::string RenderHtmlReport(const std::vector<ReportEntry>& entries);

// Compact JSON text safe inside an HTML <script> element (invalid UTF-8 replaced, < > & escaped).
std::string JsonForScript(const nlohmann::json& j);

}  // namespace arenaplan::report
