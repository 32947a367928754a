// `arenaplan optimize MODEL -o OUT`: rewrites a model to need a smaller arena (graph/optimize.h) for
// stock TFLM (default; standard builtin ops, an offline plan from `best`) or for arenaplan's
// runtime, and prints the before / after table, what changed and what was left alone.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/model_file.h"
#include "cli/running.h"
#include "graph/runtime_evaluator.h"
#include "graph/tflm_evaluator.h"

namespace arenaplan::cli {
namespace {

struct OptimizeArgs {
  std::string model;
  std::string out;
  std::string target = tflm::kDefaultTarget;
  std::string runtime = "tflm";
  std::string kernels = "portable";  // --for arenaplan: the runtime kernels candidates are measured with
  double max_extra_macs = 20.0;
  bool int8_io = false;
  std::string format = "text";
};

nlohmann::json FiguresJson(const graph::Figures& f, uint64_t macs) {
  return {{"head_bytes", f.head},
          {"tail_bytes", f.tail},
          {"arena_used_bytes", f.arena_used},
          {"min_arena_bytes", f.min_arena},
          {"macs", macs}};
}

nlohmann::json PeakJson(const graph::MemoryProfile& p) {
  nlohmann::json alive = nlohmann::json::array();
  for (const auto& b : p.alive_at_peak)
    alive.push_back({{"name", b.name}, {"bytes", b.bytes}, {"first", b.first}, {"last", b.last}});
  return {{"bytes", p.peak_bytes}, {"step", p.peak_step}, {"op", p.peak_op}, {"alive", alive}};
}

nlohmann::json ToJson(const OptimizeArgs& a, const graph::OptimizeResult& r) {
  return {{"model", a.model},
          {"output", a.out},
          {"for", a.runtime},
          {"target", a.runtime == "tflm" ? nlohmann::json(a.target) : nlohmann::json(nullptr)},
          {"kernels", a.runtime == "arenaplan" ? nlohmann::json(a.kernels) : nlohmann::json(nullptr)},
          {"changed", r.changed},
          {"before", FiguresJson(r.before, r.macs_before)},
          {"after", FiguresJson(r.after, r.macs_after)},
          {"extra_macs_pct", r.extra_macs_pct},
          {"zero_extra_macs", {{"head_bytes", r.zero_extra_head}, {"min_arena_bytes", r.zero_extra_min_arena}}},
          {"rewrites", r.rewrites},
          {"skipped", r.skipped},
          {"peak_before", PeakJson(r.profile_before)},
          {"peak_after", PeakJson(r.profile_after)},
          {"candidates", r.candidates}};
}

void PrintPeak(const char* label, const graph::MemoryProfile& p) {
  std::printf("%s %llu bytes live at %s:", label, static_cast<unsigned long long>(p.peak_bytes), p.peak_op.c_str());
  for (size_t i = 0; i < p.alive_at_peak.size() && i < 4; ++i) {
    std::printf("%s %s (%llu)", i ? "," : "", p.alive_at_peak[i].name.c_str(),
                static_cast<unsigned long long>(p.alive_at_peak[i].bytes));
  }
  std::printf("%s\n", p.alive_at_peak.size() > 4 ? ", ..." : "");
}

void PrintText(const OptimizeArgs& a, const graph::OptimizeResult& r) {
  auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  std::printf("model:   %s\nfor:     %s%s\n", a.model.c_str(), a.runtime.c_str(),
              a.runtime == "tflm" ? (" on " + a.target).c_str() : (" runtime, " + a.kernels + " kernels").c_str());
  std::printf("%-8s %12s %12s %14s %14s\n", "", "head", "tail", "smallest arena", "MACs");
  std::printf("%-8s %12llu %12llu %14llu %14llu\n", "before", u(r.before.head), u(r.before.tail), u(r.before.min_arena),
              u(r.macs_before));
  std::printf("%-8s %12llu %12llu %14llu %14llu\n", "after", u(r.after.head), u(r.after.tail), u(r.after.min_arena),
              u(r.macs_after));
  std::printf("extra MACs: %+.1f %%; smallest arena with 0 %% extra MACs: %llu (head %llu)\n", r.extra_macs_pct,
              u(r.zero_extra_min_arena), u(r.zero_extra_head));
  PrintPeak("peak before:", r.profile_before);
  PrintPeak("peak after: ", r.profile_after);
  for (const auto& s : r.rewrites) std::printf("rewrote: %s\n", s.c_str());
  for (const auto& s : r.skipped) std::printf("left:    %s\n", s.c_str());
  std::printf("wrote %s (%s)\n", a.out.c_str(), r.changed ? "rewritten" : "unchanged");
}

int Optimize(const OptimizeArgs& a) {
  if (!(a.max_extra_macs >= 0)) return ReportError("optimize", InvalidArgument("--max-extra-macs must be >= 0"));
  if (a.runtime == "tflm" && a.kernels != "portable") {
    return ReportError("optimize", InvalidArgument("--kernels is for --for arenaplan; stock TFLM's are --target"));
  }
  auto target = tflm::FindTarget(a.target);
  if (!target.ok()) return ReportError("optimize", target.status());
  auto bytes = ReadFile(a.model);
  if (!bytes.ok()) return ReportError("optimize", bytes.status());
  graph::OptimizeOptions o;
  o.max_extra_macs_pct = a.max_extra_macs;
  o.int8_io = a.int8_io;
  auto r = a.runtime == "tflm" ? graph::Optimize(*bytes, o, graph::TflmEvaluator(**target), graph::TflmFinish(**target))
                               : graph::OptimizeForRuntime(*bytes, o, KernelsNamed(a.kernels));
  if (!r.ok()) return ReportError("optimize", r.status());
  std::ofstream f(a.out, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(r->bytes.data()), static_cast<std::streamsize>(r->bytes.size()));
  if (!f) return ReportError("optimize", InvalidArgument("cannot write " + a.out));
  if (a.format == "json") {
    std::cout << ToJson(a, *r).dump(2) << "\n";
  } else {
    PrintText(a, *r);
  }
  return kExitOk;
}

}  // namespace

void RegisterOptimize(CLI::App& root, int& exit_code) {
  auto args = std::make_shared<OptimizeArgs>();
  auto* cmd = root.add_subcommand("optimize",
                                  "Rewrite a model to need a smaller arena (patches, PAD folding, int8 I/O)");
  cmd->add_option("MODEL", args->model, "a .tflite file")->required();
  cmd->add_option("-o,--output", args->out, "the .tflite to write")->required();
  cmd->add_option("--target", args->target, std::string("TFLM target (default ") + tflm::kDefaultTarget + ")");
  cmd->add_option("--for", args->runtime, "tflm (standard ops, offline plan; default) or arenaplan (the runtime)")
      ->check(CLI::IsMember({"tflm", "arenaplan"}));
  cmd->add_option("--kernels", args->kernels,
                  "--for arenaplan: the runtime's kernels the arena is measured with: portable (default) or dsp "
                  "(the Cortex-M DSP-extension kernels and their scratch, as `run --kernels dsp`)")
      ->check(CLI::IsMember({"portable", "dsp"}));
  cmd->add_option("--max-extra-macs", args->max_extra_macs, "extra MACs allowed, percent (default 20)");
  cmd->add_flag("--int8-io", args->int8_io, "let the model take and give int8 where it only quantizes its float I/O");
  cmd->add_option("--format", args->format, "text (default) or json")->check(CLI::IsMember({"text", "json"}));
  cmd->callback([args, &exit_code] { exit_code = Optimize(*args); });
}

}  // namespace arenaplan::cli
