// `arenaplan report MODEL [OPTIMIZED] -o report.html`: the interactive HTML report (report/html_report.h)
// of one model, or of an original and an optimized model side by side, under each planner asked
// for; `--format svg` writes the static timeline of the first model and planner instead. The page
// embeds the very documents `plan --format json` and `size --format json` print.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "cli/model_file.h"
#include "cli/planning.h"
#include "report/html_report.h"
#include "report/inspect_report.h"
#include "report/plan_report.h"
#include "report/size_report.h"
#include "report/svg_timeline.h"
#include "tflm/arena_size.h"
#include "tflm/target.h"

namespace arenaplan::cli {
namespace {

struct ReportArgs {
  std::vector<std::string> models;
  std::string output;
  std::vector<std::string> planners;  // empty: tflm-greedy and best (svg: best)
  std::string target;
  uint32_t alignment = 0;  // 0: the target's (TFLM's 16 without --target)
  double time_limit = 0;
  std::string format = "html";
};

// One model under every planner, plus TFLM's arena on the target and the op list.
Result<report::ReportEntry> Entry(const ReportArgs& a, const std::string& model, const std::string& role) {
  report::ReportEntry entry;
  entry.name = model;
  entry.role = role;
  for (const std::string& planner : a.planners) {
    PlanningArgs pa;
    pa.model = model;
    pa.planner = planner;
    pa.alignment = a.alignment;
    pa.target = a.target;
    pa.time_limit = a.time_limit;
    auto planned = PlanModel(pa);
    if (!planned.ok()) return planned.status();
    entry.plans.push_back(report::PlanToJson((*planned)->View(model, planner)));
    if (entry.graph.is_null()) {
      const model::Model& m = (*planned)->loaded->model;
      entry.graph = report::GraphFromInspect(report::InspectToJson(report::Inspect(model, m)));
      if (!a.target.empty()) {
        auto target = tflm::FindTarget(a.target);
        if (!target.ok()) return target.status();
        auto size = tflm::ComputeArenaSize(m, **target);
        if (!size.ok()) return Status(size.status().code(), model + ": " + size.status().message());
        entry.size = report::SizeToJson(model, *size);
      }
    }
  }
  return entry;
}

int RunReport(ReportArgs a) {
  if (a.planners.empty()) {
    a.planners = a.format == "svg" ? std::vector<std::string>{"best"} : std::vector<std::string>{"tflm-greedy", "best"};
  }
  std::vector<report::ReportEntry> entries;
  for (size_t k = 0; k < a.models.size(); ++k) {
    const std::string role = a.models.size() == 1 ? "" : k == 0 ? "original" : "optimized";
    auto entry = Entry(a, a.models[k], role);
    if (!entry.ok()) return ReportError("report", entry.status());
    entries.push_back(std::move(entry).value());
  }
  const std::string text = a.format == "svg" ? report::RenderSvgTimeline(entries[0].plans[0], a.models[0])
                                             : report::RenderHtmlReport(entries);
  const Status written = WriteTextFile(a.output, text);
  if (!written.ok()) return ReportError("report", written);
  size_t buffers = 0;
  for (const auto& e : entries) buffers += e.plans[0]["buffers"].size();
  std::printf("wrote %s (%s, %zu model%s, %zu planner%s, %zu buffers)\n", a.output.c_str(), a.format.c_str(),
              entries.size(), entries.size() == 1 ? "" : "s", a.planners.size(), a.planners.size() == 1 ? "" : "s",
              buffers);
  return kExitOk;
}

}  // namespace

void RegisterReport(CLI::App& root, int& exit_code) {
  auto a = std::make_shared<ReportArgs>();
  auto* cmd = root.add_subcommand("report",
                                  "Write an interactive HTML report (timeline, live bytes and bound, peak, "
                                  "planners side by side, TFLM tail, op list), or a static SVG timeline");
  cmd->add_option("MODEL", a->models, "a .tflite file; give a second one (optimized) to compare them side by side")
      ->required()
      ->expected(1, 2);
  cmd->add_option("-o,--output", a->output, "the .html (or .svg) file to write")->required();
  std::vector<std::string> names;
  for (const auto& p : plan::Planners()) names.push_back(p.name);
  cmd->add_option("--planner", a->planners,
                  "planner to show; repeat or separate with commas "
                  "(default: tflm-greedy,best; svg: best)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->delimiter(',')
      ->check(CLI::IsMember(names));
  cmd->add_option("--target", a->target,
                  "also show stock TFLM's arena on this target (tail breakdown, smallest "
                  "arena) and plan its kernel scratch buffers");
  cmd->add_option("--alignment", a->alignment,
                  "round buffer sizes up to this many bytes (default: the target's; TFLM: 16)")
      ->check(CLI::Range(1u, 4096u));
  AddTimeLimitOption(*cmd, &a->time_limit, "seconds per planner (see `plan --help`)");
  cmd->add_option("--format", a->format, "html or svg")->check(CLI::IsMember({"html", "svg"}));
  cmd->callback([a, &exit_code] { exit_code = RunReport(*a); });
}

}  // namespace arenaplan::cli
