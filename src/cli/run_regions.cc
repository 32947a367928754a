// `arenaplan run MODEL --region NAME:BYTES[:COST] ...`: the runtime's own planning problem
// (recorded by a first AllocateTensors, as SetUpPlan does) placed over the regions by
// plan::PlanRegions, checked by plan::VerifyRegionPlan, and compiled in with one region per buffer
// (runtime/region_arenas.h): the first region is the main arena's head, each other region one host
// buffer of the bytes it uses. The recorded problem has no op graph, so each buffer's traffic is
// modelled as one write and one read of its bytes (plan --region counts every consumer).
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/regions.h"
#include "cli/running.h"
#include "plan/region_planner.h"
#include "plan/verify.h"
#include "report/printable.h"
#include "rules/limits.h"

namespace arenaplan::cli {
namespace {

// The region plan as the runtime takes it: one offset and region per runtime buffer.
struct RegionRun {
  plan::RegionProblem problem;
  plan::RegionPlan plan;
  std::vector<int32_t> offsets;
  std::vector<uint8_t> regions;
  std::vector<std::unique_ptr<ArenaBuffer>> buffers;  // regions 1..R-1
  std::vector<rt::RegionArena> arenas;
  rt::CompiledPlan compiled{nullptr, 0, 0};
};

// Records the runtime's problem and places it. Returns an exit code on failure, -1 on success.
int PlaceRegions(const RunArgs& a, const std::vector<uint8_t>& model, RunPlan* p, RegionRun* rr) {
  for (const std::string& spec : a.regions) {
    auto region = ParseRegion(spec);
    if (!region.ok()) return ReportError("run", region.status());
    rr->problem.regions.push_back(std::move(region).value());
  }
  const Status set_up = SetUpPlan(model, Kernels(a), "tflm-greedy", IoSelection(), p);
  if (!set_up.ok()) return ReportError("run", set_up);
  uint32_t min_bytes = 0;
  std::string error;
  const rt::StatusCode s = ProbeMinimum(model, Kernels(a), p->options, &min_bytes, &error);
  if (s != rt::StatusCode::kOk) return RunFail(s, error);
  std::vector<int64_t> index;
  rr->problem.problem = RecordedProblem(*p->recorded, &index);
  for (const plan::Buffer& b : rr->problem.problem.buffers) {
    if (b.fixed()) return RunFail(a.models[0] + ": has an offline plan, which is for one arena", kExitBadInput);
    rr->problem.traffic.push_back(2 * b.size);
  }
  auto placed = plan::PlanRegions(rr->problem);
  if (!placed.ok()) return ReportError("run", placed.status());
  if (!placed->fits) {
    return RunFail(a.models[0] + ": does not fit the regions: needs at least " + std::to_string(placed->shortfall_min) +
                       " more bytes",
                   kExitNoSolution);
  }
  const plan::VerifyReport report = plan::VerifyRegionPlan(rr->problem, placed->plan);
  if (!report.ok()) return ReportError("run", Internal("region plan does not verify: " + report.errors[0].message));
  rr->plan = std::move(placed->plan);
  const uint32_t n = p->recorded->copy.count;
  rr->offsets.assign(n, 0);
  rr->regions.assign(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    if (index[i] < 0) continue;  // zero bytes: anywhere in region 0
    rr->offsets[i] = static_cast<int32_t>(rr->plan.offsets[static_cast<size_t>(index[i])]);
    rr->regions[i] = static_cast<uint8_t>(rr->plan.region[static_cast<size_t>(index[i])]);
  }
  return -1;
}

// One host buffer per region after the first; the plan compiled in.
void CompileRegions(RunPlan* p, RegionRun* rr) {
  for (size_t r = 1; r < rr->problem.regions.size(); ++r) {
    const auto bytes = static_cast<size_t>(rr->plan.used[r]);  // <= capacity <= kMaxTotalBytes
    rr->buffers.push_back(std::make_unique<ArenaBuffer>(bytes));
    rr->arenas.push_back(rt::RegionArena{rr->buffers.back()->data, static_cast<uint32_t>(bytes)});
  }
  rr->compiled.offsets = rr->offsets.data();
  rr->compiled.count = static_cast<uint32_t>(rr->offsets.size());
  rr->compiled.head_bytes = static_cast<uint32_t>(rr->plan.used[0]);
  rr->compiled.regions = rr->regions.data();
  p->options.compiled_plan = &rr->compiled;
  p->options.regions = rr->arenas.data();
  p->options.num_regions = static_cast<uint32_t>(rr->arenas.size());
  p->options.plan_copy = nullptr;  // the region plan was verified above
}

nlohmann::json RegionsJson(const RegionRun& rr) {
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

void PrintText(const RunArgs& a, const rt::Interpreter& interp, uint32_t arena_bytes, const RegionRun& rr,
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
  if (a.models.size() != 1 || a.io.any() || !a.dump_tensors.empty() || a.planner != "tflm-greedy") {
    return RunFail("--region takes one model, without --external-io, --keep, --dump-tensors or --planner",
                   kExitBadInput);
  }
  std::vector<uint8_t> model;
  const int loaded = LoadModel(a, a.models[0], &model);
  if (loaded >= 0) return loaded;
  RunPlan p;
  auto rr = std::make_unique<RegionRun>();
  const int placed = PlaceRegions(a, model, &p, rr.get());
  if (placed >= 0) return placed;
  CompileRegions(&p, rr.get());
  uint32_t arena_bytes = static_cast<uint32_t>(a.arena_bytes);
  if (arena_bytes == 0) {
    std::string error;
    const rt::StatusCode s = ProbeMinimum(model, Kernels(a), p.options, &arena_bytes, &error);
    if (s != rt::StatusCode::kOk) return RunFail(s, error);
  }
  ArenaBuffer arena(arena_bytes);
  rt::Interpreter interp(model.data(), model.size(), Kernels(a), arena.data, arena.size, p.options);
  const rt::StatusCode s = interp.AllocateTensors();
  if (s != rt::StatusCode::kOk) return RunFail(s, interp.error_message());
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
    std::cout << report::JsonText(j) << "\n";
  } else {
    PrintText(a, interp, arena_bytes, *rr, r);
  }
  return kExitOk;
}

}  // namespace arenaplan::cli
