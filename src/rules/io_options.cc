#include "rules/io_options.h"

#include "rules/lifetimes.h"

namespace arenaplan::rules {
namespace {

bool Lists(const flatbuffers::Vector<int32_t>* tensors, uint32_t tensor) {
  for (uint32_t k = 0; k < Size(tensors); ++k) {
    if (tensors->Get(k) >= 0 && static_cast<uint32_t>(tensors->Get(k)) == tensor) return true;
  }
  return false;
}

}  // namespace

bool IsExternalTensor(const tfl::SubGraph& subgraph0, uint32_t tensor, ExternalIo io) {
  const auto bits = static_cast<uint8_t>(io);
  if ((bits & static_cast<uint8_t>(ExternalIo::kInputs)) != 0 && Lists(subgraph0.inputs(), tensor)) return true;
  return (bits & static_cast<uint8_t>(ExternalIo::kOutputs)) != 0 && Lists(subgraph0.outputs(), tensor);
}

StatusCode ExtendKeptLifetimes(const ModelIndex& index, const uint32_t* planned, uint32_t num_planned,
                               const uint32_t* keep, uint32_t num_keep, int32_t steps, PlanBuffer* buffers,
                               ErrorText* error) {
  const uint32_t tensors0 = index.num_subgraphs > 0 ? Size(index.subgraph(0).tensors()) : 0;
  for (uint32_t k = 0; k < num_keep; ++k) {
    if (keep[k] >= tensors0) {
      SetError(error, "kept tensor %u is not a tensor of subgraph 0 (%u tensors)", keep[k], tensors0);
      return StatusCode::kBadArgument;
    }
    const int32_t found = PlannedBufferOf(planned, num_planned, keep[k]);  // subgraph 0: global = local index
    if (found < 0) continue;
    PlanBuffer& b = buffers[found];
    if (b.first != -1 && b.last < steps) b.last = steps;
  }
  return StatusCode::kOk;
}

}  // namespace arenaplan::rules
