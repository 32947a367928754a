#include "report/html_report.h"

#include "report/html_page.h"
#include "report/markup.h"
#include "report/printable.h"

namespace arenaplan::report {
namespace {

// Appends `text` to `out` with every marker of `fills` replaced, in one pass (so a filled value that
// happens to contain a marker is never substituted again).
void Fill(const std::string& text, const std::vector<std::pair<std::string, const std::string*>>& fills,
          std::string& out) {
  size_t at = 0;
  while (at < text.size()) {
    size_t next = std::string::npos;
    const std::pair<std::string, const std::string*>* which = nullptr;
    for (const auto& f : fills) {
      const size_t p = text.find(f.first, at);
      if (p < next) {
        next = p;
        which = &f;
      }
    }
    if (which == nullptr) break;
    out.append(text, at, next - at);
    out += *which->second;
    at = next + which->first.size();
  }
  if (at < text.size()) out.append(text, at, std::string::npos);
}

}  // namespace

nlohmann::json GraphFromInspect(const nlohmann::json& inspect) {
  nlohmann::json subgraphs = nlohmann::json::array();
  for (const auto& sg : inspect.at("subgraphs")) {
    nlohmann::json tensors = nlohmann::json::array();
    for (const auto& t : sg.at("tensors")) {
      tensors.push_back(
          {{"name", t.at("name")}, {"dtype", t.at("dtype")}, {"shape", t.at("shape")}, {"constant", t.at("constant")}});
    }
    nlohmann::json ops = nlohmann::json::array();
    for (const auto& op : sg.at("operators")) {
      ops.push_back({{"index", op.at("index")},
                     {"op", op.at("op")},
                     {"inputs", op.at("inputs")},
                     {"outputs", op.at("outputs")},
                     {"called_subgraphs", op.at("called_subgraphs")}});
    }
    subgraphs.push_back({{"index", sg.at("index")},
                         {"name", sg.at("name")},
                         {"inputs", sg.at("inputs")},
                         {"outputs", sg.at("outputs")},
                         {"tensors", tensors},
                         {"operators", ops}});
  }
  return {{"subgraphs", subgraphs}};
}

std::string JsonForScript(const nlohmann::json& j) {
  const std::string text = JsonText(j, -1);
  std::string out;
  out.reserve(text.size() + text.size() / 64);
  // '<', '>' and '&' occur only inside JSON strings, where the \u escapes mean the same characters.
  for (const char c : text) {
    if (c == '<')
      out += "\\u003c";
    else if (c == '>')
      out += "\\u003e";
    else if (c == '&')
      out += "\\u0026";
    else
      out += c;
  }
  return out;
}

std::string RenderHtmlReport(const std::vector<ReportEntry>& entries) {
  nlohmann::json models = nlohmann::json::array();
  std::string title = "arenaplan report:";
  for (const ReportEntry& e : entries) {
    models.push_back({{"name", e.name}, {"role", e.role}, {"plans", e.plans}, {"size", e.size}, {"graph", e.graph}});
    title += " " + e.name;
  }
  const std::string data = JsonForScript({{"kind", "arenaplan-report"}, {"version", 1}, {"models", models}});
  const std::string css = page::kCss, script = page::kScript, html_title = EscapeMarkup(title);
  std::string out;
  out.reserve(data.size() + css.size() + script.size() + 4096);
  Fill(page::kHtml, {{"@TITLE@", &html_title}, {"@STYLE@", &css}, {"@DATA@", &data}, {"@SCRIPT@", &script}}, out);
  return out;
}

}  // namespace arenaplan::report
