// `arenaplan run MODEL --region NAME:BYTES[:COST] ...`: the runtime's own planning problem placed
// over the regions and compiled in (cli/runtime_plan.h, the same plan `export --c-header --region`
// writes): the first region is the main arena's head, each other region one host buffer of the
// bytes it uses; --external-io / --keep as export plans them (cli/run_io.h).
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/model_file.h"
#include "cli/run_io.h"
#include "cli/running.h"
#include "cli/runtime_plan.h"
#include "plan/region_planner.h"
#include "plan/verify.h"
#include "report/printable.h"
#include "rules/limits.h"

namespace arenaplan::cli {
namespace {

nlohmann::json RegionsJson(const RuntimeRegionPlan& rr) {
  nlohmann::json out = nlohmann::json::array();
  for (size_t r = 0; r < rr.problem.regions.size(); ++r) {
    const auto members = plan::RegionMembers(rr.plan.region, static_cast<uint32_t>(r));
    out.push_back({{"name", rr.problem.regions[r].name},
                   {"capacity", rr.problem.regions[r].capacity},
                   {"cost", rr.problem.regions[r].cost},
                   {"used_bytes", rr.plan.used[r]},
                   {"buffers", members.size()},
                   {"memory", r == 0 ? "main arena head" : "own buffer"}});
  }
  return out;
}

void PrintText(const RunArgs& a, const rt::Interpreter& interp, uint32_t arena_bytes, const RuntimeRegionPlan& rr,
               const Invoked& r) {
  const rt::MemoryRecord& rec = interp.memory_record();
  std::printf("model:            %s\n", a.models[0].c_str());
  std::printf("plan:             %s (%u buffers, %u scratch), modelled cost %lld\n", rec.plan_source,
              rec.planned_buffers, rec.scratch_requests, static_cast<long long>(rr.plan.cost));
  for (const auto& g : RegionsJson(rr)) {
    std::printf("region %-9s %llu of %llu bytes, %zu buffers (%s)\n", (g["name"].get<std::string>() + ":").c_str(),
                g["used_bytes"].get<unsigned long long>(), g["capacity"].get<unsigned long long>(),
                g["buffers"].get<size_t>(), g["memory"].get<std::string>().c_str());
  }
  std::printf("main arena:       %u bytes (head %u, tail %u)\n", arena_bytes, rec.head_bytes, rec.tail_bytes);
  std::printf("invoke:           %.6f s (mean of %u)\n", r.seconds, a.invokes);
  PrintOutputLines(r.outputs, "");
}

}  // namespace

int RunRegions(const RunArgs& a) {
  if (a.models.size() != 1 || !a.dump_tensors.empty() || a.planner != "tflm-greedy") {
    return RunFail("--region takes one model, without --dump-tensors or --planner", kExitBadInput);
  }
  std::vector<uint8_t> model;
  const int loaded = LoadModel(a, a.models[0], &model);
  if (loaded >= 0) return loaded;
  RunIo io;  // as export --c-header --region plans it: the same tensors external or kept
  const Status resolved = ResolveRunIo(a, model, &io);
  if (!resolved.ok()) return ReportError("run", resolved);
  RunPlan p;
  auto rr = std::make_unique<RuntimeRegionPlan>();
  const Status placed = PlaceRuntimeRegions(a.models[0], model, Kernels(a), a.regions, io.selection, &p, rr.get());
  if (!placed.ok()) return ReportError("run", placed);
  CompileRuntimeRegions(&p, rr.get());
  uint32_t arena_bytes = static_cast<uint32_t>(a.arena_bytes);
  if (arena_bytes == 0) {
    std::string error;
    const rt::StatusCode s = ProbeMinimum(model, Kernels(a), p.options, &arena_bytes, &error);
    if (s != rt::StatusCode::kOk) return RunFail(s, error);
  }
  AlignedBytes arena(arena_bytes);
  rt::Interpreter interp(model.data(), model.size(), Kernels(a), arena.data(), arena.size(), p.options);
  const rt::StatusCode s = interp.AllocateTensors();
  if (s != rt::StatusCode::kOk) return RunFail(s, interp.error_message());
  std::vector<uint32_t> externals;
  const rt::StatusCode bound = BindOwnBuffers(interp, &io, &externals);
  if (bound != rt::StatusCode::kOk) return RunFail(bound, interp.error_message());
  const InvokeFiles files{a.inputs_from.empty() ? "" : a.inputs_from[0], a.outputs_to.empty() ? "" : a.outputs_to[0]};
  Invoked r;
  for (uint32_t i = 0; i < a.invokes; ++i) {
    const int failed = InvokeOnce(a, files, i, interp, nullptr, &r);
    if (failed >= 0) return failed;
  }
  r.seconds /= a.invokes;
  if (a.format == "json") {
    const rt::MemoryRecord& rec = interp.memory_record();
    nlohmann::json j = {{"model", a.models[0]},         {"plan_source", rec.plan_source}, {"arena_bytes", arena_bytes},
                        {"head_bytes", rec.head_bytes}, {"tail_bytes", rec.tail_bytes},   {"regions", RegionsJson(*rr)},
                        {"cost", rr->plan.cost},        {"invokes", a.invokes},           {"invoke_seconds", r.seconds},
                        {"outputs", r.outputs},         {"sequence", r.sequence}};
    if (a.io.any()) {
      j["external_tensors"] = externals;
      j["kept"] = KeptJson(interp, io);
    }
    std::cout << report::JsonText(j) << "\n";
  } else {
    PrintText(a, interp, arena_bytes, *rr, r);
    if (!externals.empty()) {
      std::string list;
      for (uint32_t t : externals) list += (list.empty() ? "" : ", ") + std::to_string(t);
      std::printf("external tensors: %s (in the application's own buffers, outside every region)\n", list.c_str());
    }
    PrintKept(KeptJson(interp, io));
  }
  return kExitOk;
}

}  // namespace arenaplan::cli
