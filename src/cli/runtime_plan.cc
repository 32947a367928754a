#include "cli/runtime_plan.h"

#include "cli/regions.h"
#include "lifetime/lifetimes.h"
#include "model/device_status.h"
#include "model/model.h"
#include "plan/region_planner.h"
#include "plan/verify.h"
#include "report/printable.h"
#include "rules/limits.h"

namespace arenaplan::cli {
namespace {

// Runtime buffer i named by the host's lifetimes of the same model (tensors only, the same
// external I/O and kept tensors): the same rules (rules/) plan the same tensors in the same order,
// so a host buffer of equal size and lifetime is that tensor ("buffer s0t3 'a_conv3x3'"); else
// (scratch) "the runtime's buffer i".
std::string DescribeRuntimeBuffer(const std::vector<uint8_t>& bytes, const IoSelection& io, const rt::PlanBuffer& b,
                                  size_t i) {
  const std::string fallback = "the runtime's buffer " + std::to_string(i);
  auto m = model::ReadModel(bytes.data(), bytes.size());
  if (!m.ok()) return fallback;
  lifetime::Options options;
  options.use_offline_plan = false;
  options.external_io = io.external_io;
  options.keep = io.keep;
  auto lt = lifetime::ComputeLifetimes(*m, options);
  if (!lt.ok() || i >= lt->buffers.size()) return fallback;
  const lifetime::BufferLifetime& h = lt->buffers[i];
  if (h.tensor < 0 || h.size != b.size || h.first != b.first || h.last != b.last) return fallback;
  return "buffer " + h.id + " '" + report::Printable(h.name, 60) + "'";
}

// "needs N more bytes", and when one buffer exceeds every region, which and by how much.
std::string ShortfallMessage(const std::string& name, const plan::RegionProblem& rp, const plan::RegionResult& r,
                             const std::vector<int64_t>& index, const std::vector<uint8_t>& model,
                             const IoSelection& io, const RecordedPlan& recorded) {
  std::string msg = name + ": does not fit the regions: needs ";
  msg += r.shortfall_min == r.shortfall_max
             ? std::to_string(r.shortfall_min) + " more bytes"
             : std::to_string(r.shortfall_min) + " to " + std::to_string(r.shortfall_max) + " more bytes";
  size_t largest = 0;
  plan::RegionShortfallLowerBound(rp, &largest);
  size_t biggest_region = 0;
  for (size_t g = 1; g < rp.regions.size(); ++g) {
    if (rp.regions[g].capacity > rp.regions[biggest_region].capacity) biggest_region = g;
  }
  const auto& bufs = rp.problem.buffers;
  if (!bufs.empty() && bufs[largest].size > rp.regions[biggest_region].capacity) {
    size_t runtime_buffer = 0;
    while (runtime_buffer < index.size() && index[runtime_buffer] != static_cast<int64_t>(largest)) ++runtime_buffer;
    msg += " (no region holds " + DescribeRuntimeBuffer(model, io, recorded.problem[runtime_buffer], runtime_buffer) +
           " of " + std::to_string(bufs[largest].size) + " bytes; largest region " + rp.regions[biggest_region].name +
           " has " + std::to_string(rp.regions[biggest_region].capacity) + ")";
  } else if (r.status != plan::PlanStatus::kInfeasible) {
    msg += " (no placement found within the time limit; not proven impossible)";
  }
  return msg;
}

}  // namespace

Status PlaceRuntimeRegions(const std::string& name, const std::vector<uint8_t>& model, const rt::OpResolver& kernels,
                           const std::vector<std::string>& specs, const IoSelection& io, RunPlan* p,
                           RuntimeRegionPlan* rr) {
  for (const std::string& spec : specs) {
    auto region = ParseRegion(spec);
    if (!region.ok()) return region.status();
    rr->problem.regions.push_back(std::move(region).value());
  }
  ARENAPLAN_RETURN_IF_ERROR(SetUpPlan(model, kernels, "tflm-greedy", io, p));
  uint32_t min_bytes = 0;
  std::string error;
  const rt::StatusCode s = ProbeMinimum(model, kernels, p->options, &min_bytes, &error);
  if (s != rt::StatusCode::kOk) return StatusOf(s, error.c_str());
  std::vector<int64_t> index;
  const plan::Problem recorded = RecordedProblem(*p->recorded, &index);
  // A tie stack (an in-place QUANTIZE's or a stream's split input) is one buffer of the region problem, so it
  // lands in one region in one piece, as the runtime's check of the compiled plan requires.
  const std::vector<plan::Tie> ties = RecordedTies(*p->recorded, index);
  ARENAPLAN_RETURN_IF_ERROR(plan::ValidateTies(recorded, ties));
  const plan::MergedTies merged = plan::MergeTies(recorded, ties);
  std::vector<int64_t> delta(index.size(), 0);
  for (size_t i = 0; i < index.size(); ++i) {  // runtime buffer i: merged buffer index[i], delta[i] into it
    if (index[i] < 0) continue;
    delta[i] = merged.delta[static_cast<size_t>(index[i])];
    index[i] = static_cast<int64_t>(merged.index[static_cast<size_t>(index[i])]);
  }
  rr->problem.problem = merged.problem;
  for (const plan::Buffer& b : rr->problem.problem.buffers) {
    if (b.fixed()) return InvalidArgument(name + ": has an offline plan, which is for one arena");
    rr->problem.traffic.push_back(2 * b.size);
  }
  auto placed = plan::PlanRegions(rr->problem);
  if (!placed.ok()) return placed.status();
  if (!placed->fits) return Infeasible(ShortfallMessage(name, rr->problem, *placed, index, model, io, *p->recorded));
  const plan::VerifyReport report = plan::VerifyRegionPlan(rr->problem, placed->plan);
  if (!report.ok()) return Internal("region plan does not verify: " + report.errors[0].message);
  rr->plan = std::move(placed->plan);
  const uint32_t n = p->recorded->copy.count;
  rr->offsets.assign(n, 0);
  rr->regions.assign(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    if (index[i] < 0) continue;  // zero bytes: anywhere in region 0
    rr->offsets[i] = static_cast<int32_t>(rr->plan.offsets[static_cast<size_t>(index[i])] + delta[i]);
    rr->regions[i] = static_cast<uint8_t>(rr->plan.region[static_cast<size_t>(index[i])]);
  }
  PlaceZeroByteTieParts(*p->recorded, &rr->offsets, &rr->regions);
  return Status::Ok();
}

void CompileRuntimeRegions(RunPlan* p, RuntimeRegionPlan* rr) {
  for (size_t r = 1; r < rr->problem.regions.size(); ++r) {
    const auto bytes = static_cast<size_t>(rr->plan.used[r]);  // <= capacity <= kMaxTotalBytes
    rr->buffers.push_back(std::make_unique<AlignedBytes>(bytes));
    rr->arenas.push_back(rt::RegionArena{rr->buffers.back()->data(), static_cast<uint32_t>(bytes)});
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

Status PlanRuntimeArena(const std::string& name, const std::vector<uint8_t>& model, const rt::OpResolver& kernels,
                        const std::string& planner, const IoSelection& io, RunPlan* p) {
  ARENAPLAN_RETURN_IF_ERROR(SetUpPlan(model, kernels, planner, io, p));
  const bool compiled = p->options.compiled_plan != nullptr;  // a host planner's, verified
  uint32_t min_bytes = 0, head = 0;
  std::string error;
  if (!compiled) {  // tflm-greedy: the runtime's own plan, recorded by one AllocateTensors
    const rt::StatusCode s = ProbeMinimum(model, kernels, p->options, &min_bytes, &error, &head);
    if (s != rt::StatusCode::kOk) return StatusOf(s, error.c_str());
    ARENAPLAN_RETURN_IF_ERROR(VerifyRecorded(*p->recorded));
  }
  for (uint32_t i = 0; i < p->recorded->copy.count; ++i) {
    if (p->recorded->problem[i].offset != rules::kOnline) {
      return InvalidArgument(name + ": has an offline plan, which the runtime uses instead of a compiled one");
    }
  }
  if (compiled) return Status::Ok();
  const uint32_t n = p->recorded->copy.count;
  p->host_offsets.assign(p->recorded->offsets.begin(), p->recorded->offsets.begin() + n);
  p->compiled.offsets = p->host_offsets.data();
  p->compiled.count = n;
  p->compiled.head_bytes = head;
  p->options.compiled_plan = &p->compiled;
  return Status::Ok();
}

}  // namespace arenaplan::cli
