// arenaplan._arenaplan: the entry points behind the CLI's JSON output, for the Python package
// (python/arenaplan/__init__.py turns the documents into plain objects). Each function returns the
// exact text `arenaplan <command> --format json` prints; an error raises arenaplan.BadInput (the CLI
// exits 2) or arenaplan.NoSolution (exit 1) carrying the message the CLI prints after
// "arenaplan <command>: ".
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "cli/model_file.h"
#include "cli/planning.h"
#include "cli/solving.h"
#include "plan/csv.h"
#include "plan/plan_and_verify.h"
#include "plan/planner.h"
#include "report/html_report.h"
#include "report/inspect_report.h"
#include "report/plan_report.h"
#include "report/printable.h"
#include "report/size_report.h"
#include "report/svg_timeline.h"
#include "tflm/arena_size.h"
#include "tflm/target.h"

namespace py = pybind11;

namespace arenaplan::python {
namespace {

struct BadInput : std::exception {
  explicit BadInput(std::string m) : message(std::move(m)) {}
  const char* what() const noexcept override { return message.c_str(); }
  std::string message;
};
struct NoSolution : BadInput {
  using BadInput::BadInput;
};

// The CLI's mapping of error codes to exit codes (cli::ReportError), as exception types.
[[noreturn]] void Raise(const Status& status) {
  if (status.code() == ErrorCode::kInfeasible || status.code() == ErrorCode::kUnsupported) {
    throw NoSolution(status.message());
  }
  throw BadInput(status.message());
}

template <typename T>
T Check(Result<T> r) {
  if (!r.ok()) Raise(r.status());
  return std::move(r).value();
}

std::string Text(const nlohmann::json& j) { return report::JsonText(j, -1); }

std::string Inspect(const std::string& path) {
  auto loaded = Check(cli::LoadModel(path));
  return Text(report::InspectToJson(report::Inspect(path, loaded->model)));
}

std::string Plan(const std::string& path, const std::string& planner, const std::string& target, uint32_t alignment,
                 double time_limit) {
  cli::PlanningArgs args;
  args.model = path;
  args.planner = planner;
  args.target = target;
  args.alignment = alignment;
  args.time_limit = time_limit;
  const Status known = plan::CheckPlannerName(planner);  // before reading the model, as the CLI does
  if (!known.ok()) Raise(known);
  auto planned = Check(cli::PlanModel(args));
  return Text(report::PlanToJson(planned->View(path, planner)));
}

std::string Size(const std::string& path, const std::string& target_name, const std::string& planner) {
  const tflm::Target* target = Check(tflm::FindTarget(target_name));
  auto loaded = Check(cli::LoadModel(path));
  const tflm::ArenaSize size = Check(tflm::ComputeArenaSize(loaded->model, *target, planner));
  if (!size.supported)
    throw NoSolution("not supported by TFLM on " + size.target + ": " + report::Printable(size.error));
  return Text(report::SizeToJson(path, size));
}

std::string Solve(const std::string& csv_text, const std::string& name, const std::string& planner, int64_t capacity,
                  double time_limit, bool minimize, bool work_time, int threads) {
  plan::CsvProblem problem = Check(plan::ParseCsv(csv_text, name));
  cli::SolveArgs args;
  args.problem = name;
  args.planner = planner;
  args.capacity = capacity;
  args.time_limit = time_limit;
  args.minimize = minimize;
  args.work_time = work_time;
  args.threads = threads;
  const cli::SolveOutcome out = Check(cli::SolveProblem(args, problem));
  if (out.infeasible) throw NoSolution(cli::InfeasibleMessage(args, out));
  if (!out.fits) throw NoSolution(cli::OverCapacityMessage(args, out));
  return Text(out.doc);
}

// The HTML report / SVG timeline of plan documents given as JSON text.
std::string Render(const std::string& format, const std::vector<std::string>& plans, const std::string& name) {
  report::ReportEntry entry;
  entry.name = name;
  for (const std::string& p : plans) {
    nlohmann::json doc = nlohmann::json::parse(p, nullptr, false);
    if (doc.is_discarded()) Raise(InvalidArgument("not a plan document"));
    entry.plans.push_back(std::move(doc));
  }
  if (entry.plans.empty()) Raise(InvalidArgument("no plan to draw"));
  return format == "svg" ? report::RenderSvgTimeline(entry.plans[0], name) : report::RenderHtmlReport({entry});
}

std::vector<std::string> PlannerNames() {
  std::vector<std::string> names;
  for (const auto& p : plan::Planners()) names.push_back(p.name);
  return names;
}

std::vector<std::string> TargetNames() {
  std::vector<std::string> names;
  for (const auto& t : tflm::Targets()) names.push_back(t.name);
  return names;
}

}  // namespace
}  // namespace arenaplan::python

PYBIND11_MODULE(_arenaplan, m) {
  namespace ap = arenaplan::python;
  m.doc() = "arenaplan's C++ libraries: the JSON documents of inspect, plan, size and solve";
  auto bad = py::register_exception<ap::BadInput>(m, "BadInput", PyExc_ValueError);
  py::register_exception<ap::NoSolution>(m, "NoSolution", bad.ptr());
  m.def("inspect", &ap::Inspect, py::arg("path"), py::call_guard<py::gil_scoped_release>());
  m.def("plan", &ap::Plan, py::arg("path"), py::arg("planner"), py::arg("target"), py::arg("alignment"),
        py::arg("time_limit"), py::call_guard<py::gil_scoped_release>());
  m.def("size", &ap::Size, py::arg("path"), py::arg("target"), py::arg("planner"),
        py::call_guard<py::gil_scoped_release>());
  m.def("solve", &ap::Solve, py::arg("csv"), py::arg("name"), py::arg("planner"), py::arg("capacity"),
        py::arg("time_limit"), py::arg("minimize"), py::arg("work_time"), py::arg("threads"),
        py::call_guard<py::gil_scoped_release>());
  m.def("render", &ap::Render, py::arg("format"), py::arg("plans"), py::arg("name"));
  m.def("planners", &ap::PlannerNames);
  m.def("targets", &ap::TargetNames);
  m.attr("default_target") = arenaplan::tflm::kDefaultTarget;
}
