// `arenaplan size MODEL`: the exact arena stock TFLM needs on a target (tflm/arena_size.h).
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/model_file.h"
#include "cli/planning.h"
#include "report/printable.h"
#include "report/size_report.h"
#include "tflm/arena_size.h"

namespace arenaplan::cli {
namespace {

struct SizeArgs {
  std::string model;
  std::string target = tflm::kDefaultTarget;
  std::string planner = "tflm-greedy";
  std::string format = "text";
};

void PrintText(const SizeArgs& a, const tflm::ArenaSize& s) {
  std::printf("model:   %s\ntarget:  %s (planner %s)\n", a.model.c_str(), s.target.c_str(), s.planner.c_str());
  if (!s.allocates) return;
  std::printf("head (planned tensors + scratch): %llu bytes\n", static_cast<unsigned long long>(s.head_bytes));
  std::printf("tail (persistent):                %llu bytes\n", static_cast<unsigned long long>(s.tail_bytes));
  for (const auto& c : s.tail_breakdown) {
    std::printf("  %-28s %10llu\n", c.name.c_str(), static_cast<unsigned long long>(c.bytes));
  }
  std::printf("arena_used_bytes:                 %llu bytes\n", static_cast<unsigned long long>(s.arena_used_bytes));
  if (s.supported) {
    std::printf("smallest working arena:           %llu bytes%s\n", static_cast<unsigned long long>(s.min_arena_bytes),
                s.min_arena_bytes > s.arena_used_bytes ? " (planning needs temporary memory)" : "");
    if (s.safe_arena_bytes > s.min_arena_bytes) {
      std::printf("every arena from:                 %llu bytes works\n",
                  static_cast<unsigned long long>(s.safe_arena_bytes));
    }
    // The constant is the size from which every larger arena works too, so headroom stays safe.
    std::printf("\nconstexpr size_t kTensorArenaSize = %llu;\n", static_cast<unsigned long long>(s.safe_arena_bytes));
  }
  for (const auto& n : s.notes) std::printf("note: %s\n", report::Printable(n).c_str());
}

}  // namespace

void RegisterSize(CLI::App& root, int& exit_code) {
  auto args = std::make_shared<SizeArgs>();
  auto* cmd = root.add_subcommand("size",
                                  "The exact tensor arena stock TFLM needs for a model on a target: head, "
                                  "tail by category, arena_used_bytes and the smallest working arena");
  cmd->add_option("MODEL", args->model, "a .tflite file")->required();
  std::string targets;
  for (const auto& t : tflm::Targets()) targets += "\n  " + t.name + ": " + t.description;
  cmd->add_option("--target", args->target,
                  std::string("TFLM build target (default ") + tflm::kDefaultTarget + "):" + targets);
  AddPlannerOption(*cmd, &args->planner, "the head (tflm-greedy is what TFLM does)");
  cmd->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->callback([args, &exit_code] {
    auto target = tflm::FindTarget(args->target);
    if (!target.ok()) {
      exit_code = ReportError("size", target.status());
      return;
    }
    auto loaded = LoadModel(args->model);
    if (!loaded.ok()) {
      exit_code = ReportError("size", loaded.status());
      return;
    }
    auto size = tflm::ComputeArenaSize((*loaded)->model, **target, args->planner);
    if (!size.ok()) {
      exit_code = ReportError("size", size.status());
      return;
    }
    if (args->format == "json") {
      std::cout << report::JsonText(report::SizeToJson(args->model, *size)) << "\n";
    } else {
      PrintText(*args, *size);
    }
    if (!size->supported) {
      std::fprintf(stderr, "arenaplan size: not supported by TFLM on %s: %s\n", size->target.c_str(),
                   report::Printable(size->error).c_str());
      exit_code = kExitNoSolution;
      return;
    }
    exit_code = kExitOk;
  });
}

}  // namespace arenaplan::cli
