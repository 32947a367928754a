// `arenaplan export MODEL -o OUT.tflite` and/or `--c-header OUT.h`: writes a copy carrying a
// verified offline plan that stock TFLM uses, and/or a C header for firmware (tflm/export.h). At
// least one output is required; either may be given alone.
// With --region, --external-io or --keep the header is for arenaplan's runtime instead: the
// runtime's own problem (its --kernels' scratch requests) planned over the regions or in one arena
// (cli/runtime_plan.h, the plan `run --region` runs), proven by one AllocateTensors on the host,
// as rt::CompiledPlan arrays. Stock TFLM's offline plan can say neither regions (one arena) nor
// external I/O (-1 means "TFLM plans it", never "outside the arena"), so -o is refused with them
// (exit 2). --keep with -o is the .tflite for stock TFLM, accepted only when TFLM's own online
// placement of the kernel scratch buffers cannot overlap the kept tensors (tflm/export.h).
#include <cstdio>
#include <fstream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "cli/io_options.h"
#include "cli/model_file.h"
#include "cli/planning.h"
#include "cli/runtime_plan.h"
#include "model/device_status.h"
#include "report/printable.h"
#include "tflm/export.h"
#include "tflm/sha256.h"

namespace arenaplan::cli {
namespace {

struct ExportArgs {
  std::string model;
  std::string out;
  std::string c_header;
  std::string planner = "best";
  std::string target = tflm::kDefaultTarget;
  std::vector<std::string> regions;  // --region: a runtime header
  IoArgs io;                         // --external-io, --keep: a runtime header
  std::string kernels = "portable";  // the runtime's resolver a runtime header is planned for
  bool target_given = false;
  // --region and --external-io exist for the runtime only; --keep for both: with -o the .tflite
  // for stock TFLM keeps it (checked against TFLM's scratch placement), without -o the runtime header.
  bool runtime() const { return !regions.empty() || io.external_io != "none" || (!io.keep.empty() && out.empty()); }
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

// Why -o cannot carry the runtime-only options; empty when it can.
std::string TflmRefusal(const ExportArgs& a) {
  if (!a.regions.empty()) {
    return "-o: stock TFLM's offline plan has one arena and no regions; a --region plan goes to --c-header only "
           "(for arenaplan's runtime)";
  }
  if (a.io.external_io != "none") {
    return "-o: TFLM's offline plan cannot put a tensor outside the arena (-1 means TFLM plans it online); "
           "--external-io goes to --c-header only (for arenaplan's runtime)";
  }
  return "";
}

// The runtime header: plan the runtime's problem, prove AllocateTensors takes it, render.
int ExportRuntimeHeader(const ExportArgs& a) {
  if (!a.out.empty()) return ReportError("export", InvalidArgument(TflmRefusal(a)));
  if (a.c_header.empty()) {
    return ReportError("export", InvalidArgument("nothing to write: --region, --external-io and --keep need "
                                                 "--c-header OUT.h"));
  }
  if (a.target_given) {
    return ReportError("export", InvalidArgument("--target is stock TFLM's; a runtime header (--region, "
                                                 "--external-io, --keep) is planned for --kernels"));
  }
  auto loaded = LoadModel(a.model);
  if (!loaded.ok()) return ReportError("export", loaded.status());
  auto io = ResolveIo((*loaded)->model, a.io);
  if (!io.ok()) return ReportError("export", Status(io.status().code(), a.model + ": " + io.status().message()));
  const std::vector<uint8_t>& model = (*loaded)->bytes;
  const rt::OpResolver& kernels = KernelsNamed(a.kernels);

  tflm::RuntimePlanHeader h;
  h.input_sha256 = tflm::Sha256Hex(model.data(), model.size());
  h.kernels = a.kernels;
  h.external_io = static_cast<uint8_t>(io->external_io);
  h.keep = io->keep;
  RunPlan p;
  RuntimeRegionPlan rr;
  if (!a.regions.empty()) {
    const Status placed = PlaceRuntimeRegions(a.model, model, kernels, a.regions, *io, &p, &rr);
    if (!placed.ok()) return ReportError("export", placed);
    CompileRuntimeRegions(&p, &rr);
    h.offsets = rr.offsets;
    h.regions = rr.regions;
    h.head_bytes = rr.compiled.head_bytes;
    for (size_t r = 0; r < rr.problem.regions.size(); ++r) {
      const plan::Region& g = rr.problem.regions[r];
      h.region_table.push_back(
          {g.name, static_cast<uint64_t>(g.capacity), g.cost, static_cast<uint64_t>(rr.plan.used[r])});
    }
    h.plan = "regions, modelled cost " + std::to_string(rr.plan.cost);
  } else {
    const Status planned = PlanRuntimeArena(a.model, model, kernels, a.planner, *io, &p);
    if (!planned.ok()) return ReportError("export", planned);
    h.offsets = p.host_offsets;
    h.head_bytes = p.compiled.head_bytes;
    h.plan = "planner " + a.planner + " (one arena)";
  }
  // The proof: AllocateTensors takes the compiled plan (checked again there), and the smallest
  // main arena with it.
  p.options.plan_copy = nullptr;
  std::string error;
  const rt::StatusCode s = ProbeMinimum(model, kernels, p.options, &h.arena_bytes, &error);
  if (s != rt::StatusCode::kOk) return ReportError("export", StatusOf(s, error.c_str()));
  const std::string header = tflm::RenderRuntimeHeader(h, a.model, Stem(a.model));
  const Status st = WriteBytes(a.c_header, header.data(), header.size());
  if (!st.ok()) return ReportError("export", st);
  std::printf("planned %s for arenaplan's runtime (kernels %s, %s): main arena %u bytes, head %u", a.model.c_str(),
              a.kernels.c_str(), h.plan.c_str(), h.arena_bytes, h.head_bytes);
  for (size_t r = 0; r < h.region_table.size(); ++r) {
    std::printf("%s %s %llu of %llu bytes", r == 0 ? " =" : ",", h.region_table[r].name.c_str(),
                static_cast<unsigned long long>(h.region_table[r].used_bytes),
                static_cast<unsigned long long>(h.region_table[r].capacity));
  }
  std::printf("\nwrote %s\n", a.c_header.c_str());
  return kExitOk;
}

}  // namespace

void RegisterExport(CLI::App& root, int& exit_code) {
  auto args = std::make_shared<ExportArgs>();
  auto* cmd = root.add_subcommand("export",
                                  "Write a copy of the model whose OfflineMemoryAllocation metadata "
                                  "carries a verified plan stock TFLM uses (and optionally a C header); with "
                                  "--region / --external-io (or --keep without -o), a C header for arenaplan's "
                                  "runtime");
  cmd->add_option("MODEL", args->model, "a .tflite file")->required();
  cmd->add_option("-o,--output", args->out, "the .tflite to write (needs -o and/or --c-header)");
  AddPlannerOption(*cmd, &args->planner, "tensors + scratch");
  cmd->add_option("--target", args->target,
                  std::string("TFLM target whose kernel scratch buffers are planned around (default ") +
                      tflm::kDefaultTarget + ")");
  cmd->add_option("--c-header", args->c_header, "also write a C header with arena size and offsets");
  cmd->add_option("--region", args->regions,
                  "NAME:BYTES[:COST], repeatable: a C header for arenaplan's runtime placing every buffer in one "
                  "of several memories (as run --region; not with -o: stock TFLM has one arena)")
      ->take_all()
      ->allow_extra_args(false);
  AddIoOptions(*cmd, &args->io);
  cmd->add_option("--kernels", args->kernels,
                  "the runtime's kernels a runtime header is planned for: portable (default) or dsp "
                  "(their scratch buffers are part of the plan)")
      ->check(CLI::IsMember({"portable", "dsp"}));
  cmd->callback([args, cmd, &exit_code] {
    args->target_given = cmd->count("--target") > 0;
    if (!args->runtime() && cmd->count("--kernels") > 0) {
      exit_code = ReportError("export", InvalidArgument("--kernels is for a runtime header (--region, "
                                                        "--external-io, --keep); stock TFLM's kernels are --target"));
      return;
    }
    if (args->runtime()) {
      exit_code = ExportRuntimeHeader(*args);
      return;
    }
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
    std::vector<uint32_t> keep;
    if (!args->io.keep.empty()) {  // names -> subgraph-0 indices
      auto m = model::ReadModel(bytes->data(), bytes->size());
      if (!m.ok()) {
        exit_code = ReportError("export", Status(m.status().code(), args->model + ": " + m.status().message()));
        return;
      }
      auto io = ResolveIo(*m, args->io);
      if (!io.ok()) {
        exit_code = ReportError("export", Status(io.status().code(), args->model + ": " + io.status().message()));
        return;
      }
      keep = io->keep;
    }
    auto result = tflm::ExportOfflinePlan(bytes->data(), bytes->size(), **target, args->planner, keep);
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
