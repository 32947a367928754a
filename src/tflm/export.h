// Offline-plan export: plan tensors + kernel scratch together with any planner, verify the plan,
// write the tensor offsets as OfflineMemoryAllocation metadata (docs/tflm-arena.md §6) into a copy
// of the model, and prove on the re-read copy that TFLM's greedy planner (offline buffers fixed,
// scratch placed online) lands exactly on the planned head. Scratch buffers stay online in TFLM,
// so the plan leaves their room. Variable tensors keep -1 (TFLM would move an offset-carrying
// variable into the head, where its state would not survive between invocations).
// Also renders a self-contained C header for firmware: for stock TFLM (RenderCHeader), or for
// arenaplan's runtime (RenderRuntimeHeader: a compiled plan over one or several memories, with
// application-owned I/O and kept tensors, which TFLM's offline plan cannot express).
// O(planner + model size).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tflm/arena_size.h"
#include "tflm/target.h"
#include "util/result.h"

namespace arenaplan::tflm {

struct ExportResult {
  std::vector<uint8_t> model_bytes;  // the new .tflite
  std::vector<int32_t> offsets;      // one per tensor over all subgraphs; -1 = TFLM plans / never plans it
  std::string planner;               // the planner whose plan was written
  uint64_t planned_head_bytes = 0;   // height of the verified tensors + scratch plan
  ArenaSize size;                    // ComputeArenaSize of the exported copy (tflm-greedy, as TFLM runs it)
  uint64_t original_head_bytes = 0;  // TFLM's head for the input model
  std::vector<std::string> warnings;
  std::string input_sha256;
};

// Fails when the model cannot be read, TFLM cannot run it, the plan does not verify, or the
// exported copy does not reproduce the planned head. `keep` (subgraph-0 tensor indices): planned
// to live to the end, and accepted only when TFLM's own online placement of the kernel scratch
// buffers (its greedy planner around the fixed offsets, with the tensors' unextended lifetimes)
// cannot overlap them; else Infeasible naming the scratch buffer and the tensor.
Result<ExportResult> ExportOfflinePlan(const uint8_t* bytes, size_t size, const Target& target,
                                       const std::string& planner, const std::vector<uint32_t>& keep = {});

// The C header: arena size (smallest working arena), head size, the per-tensor offset table and a
// comment naming model sha256, target and planner. `symbol` prefixes every name (a C identifier).
std::string RenderCHeader(const ExportResult& result, const std::string& model_name, const std::string& symbol);

// A plan for arenaplan's embedded runtime as rt::CompiledPlan takes it (runtime/interpreter.h):
// one offset per planned buffer in the runtime's AddBuffer order (planned tensors of subgraph 0,
// 1, ..., then its kernels' scratch requests), optionally one region each, and what the
// application must pass in InterpreterOptions (regions, external_io, keep_tensors).
struct RuntimePlanHeader {
  std::string input_sha256;
  std::string kernels;  // the runtime's resolver the plan was made for ("portable", "dsp")
  std::string plan;     // how it was made ("regions, modelled cost 123", "planner best")
  std::vector<int32_t> offsets;
  std::vector<uint8_t> regions;  // empty: one arena
  uint32_t head_bytes = 0;       // the main arena's head (region 0's bytes with regions)
  uint32_t arena_bytes = 0;      // smallest main arena (head + tail) the runtime accepted with this plan
  struct Region {
    std::string name;
    uint64_t capacity = 0;
    int64_t cost = 0;
    uint64_t used_bytes = 0;  // what the region must provide
  };
  std::vector<Region> region_table;  // with regions: region 0 = the main arena's head
  uint8_t external_io = 0;           // rules::ExternalIo
  std::vector<uint32_t> keep;        // kept subgraph-0 tensors
};

// The runtime header: `symbol`_plan_offsets / _plan_regions / _region_names / _region_capacity /
// _region_bytes / _keep_tensors arrays, the counts and sizes as macros, and SYMBOL_COMPILED_PLAN,
// an initializer for rt::CompiledPlan. `symbol` prefixes every name (a C identifier).
std::string RenderRuntimeHeader(const RuntimePlanHeader& plan, const std::string& model_name,
                                const std::string& symbol);

}  // namespace arenaplan::tflm
