// `arenaplan size MODEL...`: the exact arena stock TFLM needs on a target (tflm/arena_size.h); with
// several models, the arena they need sharing one MicroAllocator (tflm/shared_arena.h).
#include <cstdio>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "cli/model_file.h"
#include "cli/planning.h"
#include "report/printable.h"
#include "report/size_report.h"
#include "tflm/arena_size.h"
#include "tflm/shared_arena.h"

namespace arenaplan::cli {
namespace {

struct SizeArgs {
  std::vector<std::string> models;
  std::string target = tflm::kDefaultTarget;
  std::string planner = "tflm-greedy";
  std::string format = "text";
};

void PrintText(const SizeArgs& a, const tflm::ArenaSize& s) {
  std::printf("model:   %s\ntarget:  %s (planner %s)\n", a.models[0].c_str(), s.target.c_str(), s.planner.c_str());
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

unsigned long long U(uint64_t v) { return static_cast<unsigned long long>(v); }

void PrintOrder(const SizeArgs& a, const tflm::SharedArenaSize& s) {
  const tflm::OrderSearch& o = s.cheapest;
  if (!o.searched) {
    std::printf("cheapest order:                   not searched (more than %zu models)\n", tflm::kMaxOrderSearchModels);
    return;
  }
  std::string best;
  for (size_t i : o.best) best += (best.empty() ? "" : ", ") + report::Printable(a.models[i]);
  if (o.best_min_arena_bytes < s.min_arena_bytes) {
    std::printf("cheapest order:                   %s: %llu bytes (%llu less; %llu orders tried)\n", best.c_str(),
                U(o.best_min_arena_bytes), U(s.min_arena_bytes - o.best_min_arena_bytes), U(o.orders_tried));
  } else {
    std::printf("cheapest order:                   the given one (%llu orders tried)\n", U(o.orders_tried));
  }
}

void PrintSharedText(const SizeArgs& a, const tflm::SharedArenaSize& s) {
  std::printf("models:  %zu sharing one MicroAllocator, allocated in this order\n", a.models.size());
  std::printf("target:  %s (planner %s)\n", s.target.c_str(), s.planner.c_str());
  if (!s.allocates) return;
  std::printf("allocator objects (once):         %llu bytes\n", U(s.allocator_object_bytes));
  // Figures first, so long paths do not push the columns apart.
  std::printf("  %10s %12s %12s  %s\n", "head", "tail added", "arena_used", "model (in allocation order)");
  for (size_t i = 0; i < s.models.size(); ++i) {
    std::printf("  %10llu %12llu %12llu  %s\n", U(s.models[i].head_bytes), U(s.models[i].tail_bytes),
                U(s.models[i].arena_used_bytes), report::Printable(a.models[i]).c_str());
  }
  std::printf("shared head (largest plan):       %llu bytes\n", U(s.head_bytes));
  std::printf("shared tail (persistent):         %llu bytes\n", U(s.tail_bytes));
  for (const auto& c : s.tail_breakdown) std::printf("  %-28s %10llu\n", c.name.c_str(), U(c.bytes));
  std::printf("arena_used_bytes:                 %llu bytes\n", U(s.arena_used_bytes));
  if (s.supported) {
    std::printf("smallest working arena:           %llu bytes%s\n", U(s.min_arena_bytes),
                s.min_arena_bytes > s.arena_used_bytes ? " (planning needs temporary memory)" : "");
    if (s.safe_arena_bytes > s.min_arena_bytes) {
      std::printf("every arena from:                 %llu bytes works\n", U(s.safe_arena_bytes));
    }
    PrintOrder(a, s);
    std::printf("\nconstexpr size_t kTensorArenaSize = %llu;\n", U(s.safe_arena_bytes));
  }
  for (const auto& n : s.notes) std::printf("note: %s\n", report::Printable(n).c_str());
}

// Several models on one allocator; the exit code.
int SizeShared(const SizeArgs& a, const tflm::Target& target) {
  std::vector<std::unique_ptr<LoadedModel>> loaded;
  std::vector<tflm::Tenant> tenants;
  for (const std::string& path : a.models) {
    auto m = LoadModel(path);
    if (!m.ok()) return ReportError("size", m.status());
    loaded.push_back(std::move(*m));
    tenants.push_back({path, &loaded.back()->model});
  }
  auto size = tflm::ComputeSharedArenaSize(tenants, target, a.planner);
  if (!size.ok()) return ReportError("size", size.status());
  if (a.format == "json") {
    std::cout << report::JsonText(report::SharedSizeToJson(a.models, *size)) << "\n";
  } else {
    PrintSharedText(a, *size);
  }
  if (!size->supported) {
    std::fprintf(stderr, "arenaplan size: not supported by TFLM on %s: %s\n", size->target.c_str(),
                 report::Printable(size->error).c_str());
    return kExitNoSolution;
  }
  return kExitOk;
}

}  // namespace

void RegisterSize(CLI::App& root, int& exit_code) {
  auto args = std::make_shared<SizeArgs>();
  auto* cmd = root.add_subcommand("size",
                                  "The exact tensor arena stock TFLM needs for a model on a target: head, "
                                  "tail by category, arena_used_bytes and the smallest working arena; for "
                                  "several models, the arena they need sharing one MicroAllocator");
  cmd->add_option("MODEL", args->models,
                  "one or more .tflite files; several share one MicroAllocator, allocated in this order")
      ->required();
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
    if (args->models.size() > 1) {
      exit_code = SizeShared(*args, **target);
      return;
    }
    auto loaded = LoadModel(args->models[0]);
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
      std::cout << report::JsonText(report::SizeToJson(args->models[0], *size)) << "\n";
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
