// The runtime's own planning problem (recorded by a first AllocateTensors, running.h) planned on
// the host and compiled in, for `run --region` and `export --c-header` with --region,
// --external-io or --keep: over several memories (ParseRegion, plan::PlanRegions, checked by
// plan::VerifyRegionPlan), or in one arena by a host planner. The plan is of the runtime's buffers
// (its kernels' scratch requests, not a TFLM target's), one entry per planned buffer in AddBuffer
// order, so it is the rt::CompiledPlan the runtime takes as it is. The recorded problem has no op
// graph: each buffer's traffic is modelled as one write and one read of its bytes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli/io_options.h"
#include "cli/running.h"
#include "plan/region_problem.h"
#include "runtime/interpreter.h"
#include "util/result.h"

namespace arenaplan::cli {

struct RuntimeRegionPlan {
  plan::RegionProblem problem;
  plan::RegionPlan plan;
  std::vector<int32_t> offsets;                        // one per runtime buffer, within its region
  std::vector<uint8_t> regions;                        // one per runtime buffer
  std::vector<std::unique_ptr<AlignedBytes>> buffers;  // regions 1..R-1, after CompileRuntimeRegions
  std::vector<rt::RegionArena> arenas;
  rt::CompiledPlan compiled{nullptr, 0, 0};
};

// Parses `specs`, records the runtime's problem with `io` applied (p is set up as SetUpPlan does,
// and must outlive `io`'s use), places it and verifies the placement. Errors: a bad spec or a
// model with an offline plan (which is for one arena): InvalidArgument; does not fit: Infeasible
// with the shortfall; the runtime's own failures as their status. `name` names the model.
Status PlaceRuntimeRegions(const std::string& name, const std::vector<uint8_t>& model, const rt::OpResolver& kernels,
                           const std::vector<std::string>& specs, const IoSelection& io, RunPlan* p,
                           RuntimeRegionPlan* rr);

// One host buffer of the bytes it needs per region after the first; the plan compiled into
// p->options (plan copy off: the region plan was verified).
void CompileRuntimeRegions(RunPlan* p, RuntimeRegionPlan* rr);

// The runtime's problem planned in one arena by `planner` (tflm-greedy: the runtime's own plan,
// as recorded and verified), compiled into p->options as p->compiled over p->host_offsets: one
// offset per planned buffer. A model with an offline plan: InvalidArgument (the runtime would use
// that plan and ignore the compiled one).
Status PlanRuntimeArena(const std::string& name, const std::vector<uint8_t>& model, const rt::OpResolver& kernels,
                        const std::string& planner, const IoSelection& io, RunPlan* p);

}  // namespace arenaplan::cli
