#include "tflm/export.h"

#include <cctype>
#include <optional>
#include <sstream>

#include "lifetime/lifetimes.h"
#include "model/offline_plan.h"
#include "model/writer.h"
#include "plan/plan_and_verify.h"
#include "plan/verify.h"
#include "tflm/sha256.h"

namespace arenaplan::tflm {
namespace {

// Plans (verified, with the target's alignment) and turns the plan into one offset per tensor
// (variables and unplanned: -1).
Result<std::vector<int32_t>> PlanOffsets(const model::Model& m, const lifetime::Lifetimes& lt, const Target& target,
                                         const std::string& planner, uint64_t& height) {
  const plan::Problem problem = lifetime::ToProblem(lt, target.buffer_alignment);
  auto planned = plan::PlanAndVerify(problem, planner);
  if (!planned.ok()) return planned.status();
  std::vector<size_t> base;
  size_t total = 0;
  for (const model::Subgraph& sg : m.subgraphs) {
    base.push_back(total);
    total += sg.tensors.size();
  }
  std::vector<int32_t> offsets(total, -1);
  for (size_t b = 0; b < lt.buffers.size(); ++b) {
    const lifetime::BufferLifetime& buf = lt.buffers[b];
    if (buf.tensor < 0) continue;  // scratch stays online in TFLM
    const int64_t off = planned->plan.offsets[b];
    if (off > INT32_MAX) return InvalidArgument(buf.id + ": offset " + std::to_string(off) + " does not fit int32");
    offsets[base[static_cast<size_t>(buf.subgraph)] + static_cast<size_t>(buf.tensor)] = static_cast<int32_t>(off);
  }
  height = static_cast<uint64_t>(planned->plan.height);
  return offsets;
}

// Kept tensors (lifetimes extended to the end) in a .tflite for stock TFLM: the tensors' offsets
// are fixed by the plan, but TFLM places the kernel scratch buffers online, by its greedy planner
// around the fixed offsets, with the tensors' own lifetimes, so a scratch buffer may land on a
// kept tensor after the tensor's own last use. TFLM's placement on the exported copy, checked
// against the kept lifetimes (the plan was verified on them already; only scratch can differ).
Status CheckKeptAgainstTflmScratch(const model::Model& copy, const Target& target, const lifetime::Lifetimes& kept) {
  auto options = LifetimeOptionsFor(copy, target);  // the offline plan honoured, nothing kept: as TFLM
  if (!options.ok()) return options.status();
  auto tflm = lifetime::ComputeLifetimes(copy, *options);
  if (!tflm.ok()) return tflm.status();
  if (tflm->buffers.size() != kept.buffers.size()) return Internal("the exported copy plans other buffers");
  auto placed = plan::FindPlanner("tflm-greedy")->run(lifetime::ToProblem(*tflm, target.buffer_alignment), {});
  if (!placed.ok()) return placed.status();
  const plan::Problem problem = lifetime::ToProblem(kept, target.buffer_alignment);
  plan::Plan as_tflm;
  as_tflm.offsets = placed->plan.offsets;
  as_tflm.height = plan::PlanHeight(problem, as_tflm.offsets);
  const plan::VerifyReport report = plan::VerifyPlan(problem, as_tflm);
  if (report.ok()) return Status::Ok();
  const plan::VerifyIssue& e = report.errors.front();
  const bool a_is_scratch = kept.buffers[e.a].tensor < 0;
  const lifetime::BufferLifetime& a = kept.buffers[a_is_scratch ? e.b : e.a];  // the tensor
  const lifetime::BufferLifetime& b = kept.buffers[a_is_scratch ? e.a : e.b];  // the scratch buffer
  return Infeasible("--keep: TFLM would place " + b.id + " '" + b.name + "' over " + a.id + " '" + a.name +
                    "' (it plans kernel scratch online with the tensors' own lifetimes); the .tflite cannot keep "
                    "it: write --c-header without -o for arenaplan's runtime");
}

std::string Identifier(const std::string& s) {
  std::string out;
  for (char c : s) out.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "m_" + out;
  return out;
}

std::string Upper(const std::string& id) {
  std::string upper;
  for (char c : id) upper.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  return upper;
}

// `static const TYPE NAME[N] = {...};` (C has no empty arrays: one 0 for none, the count says 0).
template <typename T>
void CArray(std::ostringstream& o, const char* type, const std::string& name, const std::vector<T>& v,
            const char* suffix, size_t per_line) {
  o << "static const " << type << " " << name << "[" << (v.empty() ? 1 : v.size()) << "] = {";
  for (size_t i = 0; i < v.size(); ++i) o << (i % per_line == 0 ? "\n    " : " ") << +v[i] << suffix << ",";
  if (v.empty()) o << "\n    0,";
  o << "\n};\n";
}

}  // namespace

Result<ExportResult> ExportOfflinePlan(const uint8_t* bytes, size_t size, const Target& target,
                                       const std::string& planner, const std::vector<uint32_t>& keep) {
  ARENAPLAN_RETURN_IF_ERROR(plan::CheckPlannerName(planner));
  ExportResult r;
  r.input_sha256 = Sha256Hex(bytes, size);
  auto m = model::ReadModel(bytes, size);
  if (!m.ok()) return m.status();
  if (model::FindOfflinePlanMetadata(*m)) {
    const Status valid = model::ValidateOfflinePlan(*m);
    if (!valid.ok()) {
      r.warnings.push_back("the model's existing OfflineMemoryAllocation is invalid (" + valid.message() +
                           "); it is replaced");
    } else {
      r.warnings.push_back("the model's existing OfflineMemoryAllocation is replaced unless it is smaller");
    }
  }
  // TFLM must be able to run the model at all; the input is sized ignoring any old plan.
  auto original = ComputeArenaSize(*m, target, "tflm-greedy", /*use_offline_plan=*/false);
  if (!original.ok()) return original.status();
  if (!original->allocates) return Unsupported("TFLM cannot allocate this model: " + original->error);
  r.original_head_bytes = original->head_bytes;

  // A valid existing plan (e.g. Vela's, which overlaps buffers TFLM never uses together) may beat
  // anything a planner finds without it; it is then kept rather than replaced by a worse one.
  std::optional<uint64_t> existing_head;
  if (keep.empty() && model::FindOfflinePlanMetadata(*m) && model::ValidateOfflinePlan(*m).ok()) {
    auto with_plan = ComputeArenaSize(*m, target, "tflm-greedy", /*use_offline_plan=*/true);
    if (with_plan.ok() && with_plan->allocates) existing_head = with_plan->head_bytes;
  }
  if (existing_head) r.original_head_bytes = *existing_head;  // what TFLM does with the input

  auto options = LifetimeOptionsFor(*m, target);
  if (!options.ok()) return options.status();
  options->use_offline_plan = false;
  options->keep = keep;
  auto lt = lifetime::ComputeLifetimes(*m, *options);
  if (!lt.ok()) return lt.status();
  // The chosen planner first; if TFLM's online scratch placement around the fixed tensors would
  // not land on the planned head, fall back to tflm-greedy (which TFLM reproduces by definition).
  for (const std::string& p : {planner, std::string("tflm-greedy")}) {
    uint64_t height = 0;
    auto offsets = PlanOffsets(*m, *lt, target, p, height);
    if (!offsets.ok()) return offsets.status();
    auto copy = model::WriteModelCopyWithMetadata(bytes, size, std::string(model::kOfflinePlanMetadataName),
                                                  model::EncodeOfflinePlan(*offsets));
    if (!copy.ok()) return copy.status();
    auto reread = model::ReadModel(copy->data(), copy->size());
    if (!reread.ok()) return Internal("exported model does not read back: " + reread.status().message());
    ARENAPLAN_RETURN_IF_ERROR(model::ValidateOfflinePlan(*reread));
    auto sized = ComputeArenaSize(*reread, target, "tflm-greedy");
    if (!sized.ok()) return sized.status();
    if (!keep.empty() && sized->allocates && sized->head_bytes == height) {
      const Status kept = CheckKeptAgainstTflmScratch(*reread, target, *lt);
      if (!kept.ok() && p != "tflm-greedy") {
        r.warnings.push_back("planner '" + p + "': " + kept.message() + "; trying tflm-greedy");
        continue;
      }
      ARENAPLAN_RETURN_IF_ERROR(kept);
    }
    if (sized->allocates && sized->head_bytes == height && existing_head && *existing_head < height) {
      r.warnings.push_back("the existing offline plan needs a smaller head (" + std::to_string(*existing_head) +
                           " bytes) than planner '" + p + "' (" + std::to_string(height) + "); it is kept");
      auto kept = ComputeArenaSize(*m, target, "tflm-greedy", /*use_offline_plan=*/true);
      if (!kept.ok()) return kept.status();
      r.model_bytes.assign(bytes, bytes + size);
      r.offsets = m->offline_plan->offsets;
      r.planner = "existing offline plan";
      r.planned_head_bytes = kept->head_bytes;
      r.size = std::move(*kept);
      return r;
    }
    if (sized->allocates && sized->head_bytes == height) {
      r.model_bytes = std::move(*copy);
      r.offsets = std::move(*offsets);
      r.planner = p;
      r.planned_head_bytes = height;
      r.size = std::move(*sized);
      // Keep the model valid for the reader: the bytes moved, so nothing else may point into *copy.
      return r;
    }
    r.warnings.push_back("planner '" + p + "': TFLM would place the online scratch buffers higher (head " +
                         std::to_string(sized->head_bytes) + " instead of " + std::to_string(height) +
                         "); falling back to tflm-greedy");
  }
  return Internal("the exported plan does not reproduce under TFLM's greedy planner");
}

std::string RenderCHeader(const ExportResult& r, const std::string& model_name, const std::string& symbol) {
  const std::string id = Identifier(symbol);
  const std::string upper = Upper(id);
  std::ostringstream o;
  o << "// Generated by arenaplan export. Do not edit.\n"
    << "// model:   " << model_name << "\n"
    << "// sha256:  " << r.input_sha256 << " (the input model)\n"
    << "// target:  " << r.size.target << "\n"
    << "// planner: " << r.planner << " (head " << r.planned_head_bytes
    << " bytes; TFLM's own plan: " << r.original_head_bytes << ")\n"
    << "// Offsets are bytes from the 16-aligned arena start; -1 = planned by TFLM / never planned.\n"
    << "#ifndef " << upper << "_ARENA_H_\n#define " << upper << "_ARENA_H_\n\n"
    << "#include <stddef.h>\n#include <stdint.h>\n\n"
    << "// Smallest arena for which AllocateTensors and Invoke succeed with the exported model.\n"
    << "#define " << upper << "_TENSOR_ARENA_SIZE " << r.size.min_arena_bytes << "u\n"
    << "#define " << upper << "_HEAD_BYTES " << r.size.head_bytes << "u\n"
    << "#define " << upper << "_TAIL_BYTES " << r.size.tail_bytes << "u\n"
    << "#define " << upper << "_TENSOR_COUNT " << r.offsets.size() << "u\n\n"
    << "static const int32_t " << id << "_tensor_offsets[" << (r.offsets.empty() ? 1 : r.offsets.size()) << "] = {";
  for (size_t i = 0; i < r.offsets.size(); ++i) o << (i % 12 == 0 ? "\n    " : " ") << r.offsets[i] << ",";
  if (r.offsets.empty()) o << "-1";
  o << "\n};\n\n#endif  // " << upper << "_ARENA_H_\n";
  return o.str();
}

std::string RenderRuntimeHeader(const RuntimePlanHeader& h, const std::string& model_name, const std::string& symbol) {
  const std::string id = Identifier(symbol);
  const std::string upper = Upper(id);
  const bool regions = !h.regions.empty();
  std::ostringstream o;
  o << "// Generated by arenaplan export. Do not edit.\n"
    << "// model:   " << model_name << "\n"
    << "// sha256:  " << h.input_sha256 << " (the input model)\n"
    << "// for:     arenaplan's runtime, kernels " << h.kernels << " (rt::CompiledPlan); plan: " << h.plan << "\n";
  if (regions) {
    o << "// regions:";
    for (size_t r = 0; r < h.region_table.size(); ++r) {
      const auto& g = h.region_table[r];
      o << (r ? "," : "") << " " << g.name << " " << g.used_bytes << " of " << g.capacity << " bytes (cost " << g.cost
        << ")";
    }
    o << "\n";
  }
  o << "// One entry per planned buffer in the runtime's order (planned tensors of subgraph 0, 1, ...,\n"
    << "// then the kernels' scratch requests); offsets are bytes from the start of the buffer's region.\n";
  if (regions) {
    o << "// Region 0 is the main arena's head; region r >= 1 is InterpreterOptions::regions[r - 1], the\n"
      << "// application's 16-aligned buffer of at least " << id << "_region_bytes[r] bytes.\n";
  }
  o << "#ifndef " << upper << "_RUNTIME_PLAN_H_\n#define " << upper << "_RUNTIME_PLAN_H_\n\n"
    << "#include <stddef.h>\n#include <stdint.h>\n\n"
    << "// Smallest main arena (head + tail) AllocateTensors accepted with this plan (host build).\n"
    << "#define " << upper << "_ARENA_BYTES " << h.arena_bytes << "u\n"
    << "#define " << upper << "_HEAD_BYTES " << h.head_bytes << "u\n"
    << "#define " << upper << "_PLAN_COUNT " << h.offsets.size() << "u\n"
    << "#define " << upper << "_REGION_COUNT " << (regions ? h.region_table.size() : 0) << "u\n";
  for (size_t r = 0; regions && r < h.region_table.size(); ++r) {  // for static buffers in linker sections
    o << "#define " << upper << "_REGION" << r << "_BYTES " << h.region_table[r].used_bytes << "u  // "
      << h.region_table[r].name << (r == 0 ? ": the main arena's head\n" : "\n");
  }
  o << "// InterpreterOptions::external_io (0 none, 1 inputs, 2 outputs, 3 both: bind them before Invoke)\n"
    << "#define " << upper << "_EXTERNAL_IO " << +h.external_io << "u\n"
    << "#define " << upper << "_KEEP_COUNT " << h.keep.size() << "u\n\n";
  CArray(o, "int32_t", id + "_plan_offsets", h.offsets, "", 12);
  if (regions) {
    CArray(o, "uint8_t", id + "_plan_regions", h.regions, "", 24);
    o << "static const char* const " << id << "_region_names[" << h.region_table.size() << "] = {";
    for (size_t r = 0; r < h.region_table.size(); ++r) o << (r ? ", " : "") << "\"" << h.region_table[r].name << "\"";
    o << "};\n";
    std::vector<uint64_t> capacity, used;
    for (const auto& g : h.region_table) {
      capacity.push_back(g.capacity);
      used.push_back(g.used_bytes);
    }
    CArray(o, "uint64_t", id + "_region_capacity", capacity, "ull", 8);
    CArray(o, "uint32_t", id + "_region_bytes", used, "u", 8);
  }
  CArray(o, "uint32_t", id + "_keep_tensors", h.keep, "u", 12);
  o << "\n// C++: static const arenaplan::rt::CompiledPlan plan = " << upper << "_COMPILED_PLAN;\n"
    << "#define " << upper << "_COMPILED_PLAN {" << id << "_plan_offsets, " << upper << "_PLAN_COUNT, " << upper
    << "_HEAD_BYTES, " << (regions ? id + "_plan_regions" : std::string("NULL")) << "}\n"
    << "\n#endif  // " << upper << "_RUNTIME_PLAN_H_\n";
  return o.str();
}

}  // namespace arenaplan::tflm
