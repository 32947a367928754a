// `arenaplan export MODEL -o OUT.tflite` and/or `--c-header OUT.h`: writes a copy carrying a
// verified offline plan that stock TFLM uses, and/or a C header for firmware (tflm/export.h). At
// least one output is required; either may be given alone.
#include <cstdio>
#include <fstream>
#include <memory>

#include "cli/commands.h"
#include "cli/model_file.h"
#include "cli/planning.h"
#include "report/printable.h"
#include "tflm/export.h"

namespace arenaplan::cli {
namespace {

struct ExportArgs {
  std::string model;
  std::string out;
  std::string c_header;
  std::string planner = "best";
  std::string target = tflm::kDefaultTarget;
};

Status WriteBytes(const std::string& path, const void* data, size_t size) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) return InvalidArgument("cannot open " + path + " for writing");
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!f) return InvalidArgument("cannot write " + path);
  return Status::Ok();
}

std::string Stem(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  const size_t dot = base.find_last_of('.');
  return dot == std::string::npos ? base : base.substr(0, dot);
}

}  // namespace

void RegisterExport(CLI::App& root, int& exit_code) {
  auto args = std::make_shared<ExportArgs>();
  auto* cmd = root.add_subcommand("export",
                                  "Write a copy of the model whose OfflineMemoryAllocation metadata "
                                  "carries a verified plan stock TFLM uses (and optionally a C header)");
  cmd->add_option("MODEL", args->model, "a .tflite file")->required();
  cmd->add_option("-o,--output", args->out, "the .tflite to write (needs -o and/or --c-header)");
  AddPlannerOption(*cmd, &args->planner, "tensors + scratch");
  cmd->add_option("--target", args->target,
                  std::string("TFLM target whose kernel scratch buffers are planned around (default ") +
                      tflm::kDefaultTarget + ")");
  cmd->add_option("--c-header", args->c_header, "also write a C header with arena size and offsets");
  cmd->callback([args, &exit_code] {
    if (args->out.empty() && args->c_header.empty()) {
      exit_code = ReportError("export",
                              InvalidArgument("nothing to write: give -o OUT.tflite and/or --c-header OUT.h"));
      return;
    }
    auto target = tflm::FindTarget(args->target);
    if (!target.ok()) {
      exit_code = ReportError("export", target.status());
      return;
    }
    auto bytes = ReadFile(args->model);
    if (!bytes.ok()) {
      exit_code = ReportError("export", bytes.status());
      return;
    }
    auto result = tflm::ExportOfflinePlan(bytes->data(), bytes->size(), **target, args->planner);
    if (!result.ok()) {
      exit_code = ReportError("export", result.status());
      return;
    }
    for (const std::string& w : result->warnings) {
      std::fprintf(stderr, "arenaplan export: warning: %s\n", report::Printable(w).c_str());
    }
    Status st = Status::Ok();
    if (!args->out.empty()) st = WriteBytes(args->out, result->model_bytes.data(), result->model_bytes.size());
    if (st.ok() && !args->c_header.empty()) {
      // Symbols are named after the written model, else after the input model.
      const std::string header = tflm::RenderCHeader(*result, args->model,
                                                     Stem(args->out.empty() ? args->model : args->out));
      st = WriteBytes(args->c_header, header.data(), header.size());
    }
    if (!st.ok()) {
      exit_code = ReportError("export", st);
      return;
    }
    std::printf("%s%s: planner %s, head %llu bytes (TFLM's own plan: %llu), smallest arena %llu bytes on %s\n",
                args->out.empty() ? "planned " : "wrote ", args->out.empty() ? args->model.c_str() : args->out.c_str(),
                result->planner.c_str(), static_cast<unsigned long long>(result->planned_head_bytes),
                static_cast<unsigned long long>(result->original_head_bytes),
                static_cast<unsigned long long>(result->size.min_arena_bytes), result->size.target.c_str());
    if (!args->c_header.empty()) std::printf("wrote %s\n", args->c_header.c_str());
    exit_code = kExitOk;
  });
}

}  // namespace arenaplan::cli
