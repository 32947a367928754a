// `arenaplan run A.tflite B.tflite ...`: several models in one arena of the embedded runtime
// (runtime/shared_arena.h: heads overlaid, tails stacked in the order given), allocated in that
// order, then run in turn: --invokes N rounds, each model once per round (A, B, A, B, ...), each
// model's inputs written right before its Invoke and its outputs read right after (the head is
// common). Per-model options (--inputs-from, --outputs-to) are given once per model; --planner,
// --kernels and --optimize apply to every model. The arena defaults to the smallest that holds
// them all (exact: found by allocating them in order in a big one); with --arena-bytes too small,
// the first model that does not fit is named (exit 1).
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/model_file.h"
#include "cli/running.h"
#include "plan/planner.h"
#include "report/printable.h"
#include "runtime/shared_arena.h"

namespace arenaplan::cli {
namespace {

// One model in the shared arena.
struct Tenant {
  std::string path;
  std::vector<uint8_t> bytes;
  RunPlan plan;
  std::unique_ptr<rt::Interpreter> interp;
  Invoked run;
};
using Tenants = std::vector<std::unique_ptr<Tenant>>;

std::string Which(const Tenants& t, size_t k) {
  return t[k]->path + " (model " + std::to_string(k + 1) + " of " + std::to_string(t.size()) + ")";
}

// `shared` set up over `arena`, the interpreters over it allocated in order. Returns the index
// of the first that failed (its status in *s, its error in *error; 0 when the arena itself is too
// small) or t.size().
size_t AllocateAll(const RunArgs& a, Tenants& t, const AlignedBytes& arena, rt::SharedArena* shared, rt::StatusCode* s,
                   std::string* error) {
  rt::ErrorText init_error;
  *s = rt::SharedArenaInit(shared, arena.data(), arena.size(), &init_error);
  if (*s != rt::StatusCode::kOk) {
    *error = init_error.text;
    return 0;
  }
  for (size_t k = 0; k < t.size(); ++k) {
    Tenant& m = *t[k];
    m.interp = std::make_unique<rt::Interpreter>(m.bytes.data(), m.bytes.size(), Kernels(a), shared, m.plan.options);
    *s = m.interp->AllocateTensors();
    if (*s != rt::StatusCode::kOk) {
      *error = m.interp->error_message();
      return k;
    }
  }
  return t.size();
}

// The smallest shared arena for the models in this order (exact, from one allocation of all of
// them in a big arena). Returns an exit code on failure, -1 on success.
int ProbeShared(const RunArgs& a, Tenants& t, uint32_t* min_bytes) {
  for (size_t bytes = size_t{16} << 20;; bytes *= 4) {
    const AlignedBytes arena(bytes);
    rt::SharedArena shared;
    rt::StatusCode s = rt::StatusCode::kOk;
    std::string error;
    const size_t failed = AllocateAll(a, t, arena, &shared, &s, &error);
    if (failed == t.size()) {
      *min_bytes = shared.min_bytes;
      return -1;
    }
    if (s != rt::StatusCode::kArenaFull || bytes >= (size_t{1} << 32)) {
      return RunFail(s, Which(t, failed) + ": " + error);
    }
  }
}

nlohmann::json TenantJson(const Tenant& m, uint32_t tail_offset) {
  const rt::MemoryRecord& rec = m.interp->memory_record();
  return {{"model", m.path},
          {"plan_source", rec.plan_source},
          {"head_bytes", rec.head_bytes},
          {"tail_bytes", rec.tail_bytes},
          {"shared_tail_bytes", rec.shared_tail_bytes},
          {"tail_offset", tail_offset},
          {"needed_bytes", rec.shared_min_arena_bytes},
          {"planned_buffers", rec.planned_buffers},
          {"scratch_requests", rec.scratch_requests},
          {"tail_breakdown", TailBreakdown(rec)},
          {"planning_temp_bytes", rec.planning_temp_bytes},
          {"invoke_seconds", m.run.seconds},
          {"outputs", m.run.outputs},
          {"sequence", m.run.sequence}};
}

void PrintJson(const RunArgs& a, const std::string& planner, const Tenants& t, const rt::SharedArena& shared,
               size_t arena_bytes, uint32_t min_bytes) {
  nlohmann::json j = {{"planner", planner},
                      {"kernels", a.kernels},
                      {"arena_bytes", arena_bytes},
                      {"head_bytes", shared.max_head},
                      {"tail_bytes", shared.tails},
                      {"arena_used_bytes", rt::SharedArenaUsedBytes(shared)},
                      {"min_arena_bytes", min_bytes},
                      {"invokes", a.invokes},
                      {"models", nlohmann::json::array()}};
  uint32_t end = shared.size;
  for (const auto& m : t) {
    end -= m->interp->memory_record().shared_tail_bytes;
    j["models"].push_back(TenantJson(*m, end));
  }
  std::cout << report::JsonText(j) << "\n";
}

void PrintText(const RunArgs& a, const Tenants& t, const rt::SharedArena& shared, size_t arena_bytes,
               uint32_t min_bytes) {
  size_t largest = 0;
  for (size_t k = 0; k < t.size(); ++k) {
    if (t[k]->interp->memory_record().head_bytes == shared.max_head) largest = k;
  }
  std::printf("models:           %zu in one arena (tails stacked from the end in this order, one shared head)\n",
              t.size());
  std::printf("arena:            %zu bytes; smallest that works: %u (16-aligned start)\n", arena_bytes, min_bytes);
  std::printf("head (shared):    %u bytes (the largest: model %zu)\n", shared.max_head, largest + 1);
  std::printf("tails:            %u bytes (each model's, rounded up to 16)\n", shared.tails);
  std::printf("arena_used_bytes: %u (head + tails; the rest of the smallest arena is planning memory)\n",
              rt::SharedArenaUsedBytes(shared));
  std::printf("invokes:          %u round%s, each model once per round in this order\n", a.invokes,
              a.invokes == 1 ? "" : "s");
  uint32_t end = shared.size;
  for (size_t k = 0; k < t.size(); ++k) {
    const rt::MemoryRecord& rec = t[k]->interp->memory_record();
    const uint32_t start = end - rec.shared_tail_bytes;
    std::printf("model %zu:          %s\n", k + 1, t[k]->path.c_str());
    std::printf("  plan %s (%u buffers, %u scratch), head %u, tail %u at [%u, %u), arena needed so far %u\n",
                rec.plan_source, rec.planned_buffers, rec.scratch_requests, rec.head_bytes, rec.tail_bytes, start, end,
                rec.shared_min_arena_bytes);
    std::printf("  invoke %.6f s (mean of %u)\n", t[k]->run.seconds, a.invokes);
    PrintOutputLines(t[k]->run.outputs, "  ");
    end = start;
  }
}

// Round i: each model's Invoke i in order. Returns an exit code on failure, -1 on success.
int InvokeRounds(const RunArgs& a, Tenants& t) {
  for (uint32_t i = 0; i < a.invokes; ++i) {
    for (size_t k = 0; k < t.size(); ++k) {
      const InvokeFiles files{a.inputs_from.empty() ? "" : a.inputs_from[k],
                              a.outputs_to.empty() ? "" : a.outputs_to[k]};
      const int failed = InvokeOnce(a, files, i, *t[k]->interp, nullptr, &t[k]->run);
      if (failed >= 0) return failed;
    }
  }
  for (auto& m : t) m->run.seconds /= a.invokes;
  return -1;
}

}  // namespace

int RunModels(const RunArgs& a) {
  const std::string planner = plan::FindPlanner(a.planner)->name;
  Tenants t;
  for (const std::string& path : a.models) {
    auto m = std::make_unique<Tenant>();
    m->path = path;
    const int loaded = LoadModel(a, path, &m->bytes);
    if (loaded >= 0) return loaded;
    const Status set_up = SetUpPlan(m->bytes, Kernels(a), planner, IoSelection{}, &m->plan);
    if (!set_up.ok()) return ReportError("run", Status(set_up.code(), path + ": " + set_up.message()));
    t.push_back(std::move(m));
  }
  uint32_t min_bytes = 0;
  const int probe_failed = ProbeShared(a, t, &min_bytes);
  if (probe_failed >= 0) return probe_failed;
  const size_t arena_bytes = a.arena_bytes != 0 ? a.arena_bytes : min_bytes;
  const AlignedBytes arena(arena_bytes);
  rt::SharedArena shared;
  rt::StatusCode s = rt::StatusCode::kOk;
  std::string error;
  const size_t failed = AllocateAll(a, t, arena, &shared, &s, &error);
  if (failed < t.size()) {
    return RunFail(s, Which(t, failed) + " does not fit in the " + std::to_string(arena_bytes) + "-byte arena (" +
                          std::to_string(min_bytes) + " needed): " + error);
  }
  for (size_t k = 0; k < t.size(); ++k) {
    const Status verified = VerifyRecorded(*t[k]->plan.recorded);
    if (!verified.ok()) return ReportError("run", Status(verified.code(), Which(t, k) + ": " + verified.message()));
  }
  const int invoke_failed = InvokeRounds(a, t);
  if (invoke_failed >= 0) return invoke_failed;
  if (a.format == "json") {
    PrintJson(a, planner, t, shared, arena_bytes, min_bytes);
  } else {
    PrintText(a, t, shared, arena_bytes, min_bytes);
  }
  return kExitOk;
}

}  // namespace arenaplan::cli
