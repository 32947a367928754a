#include "model/offline_plan.h"

#include <cstring>
#include <string>

#include "model/device_status.h"
#include "rules/offline_plan.h"

namespace arenaplan::model {
namespace {

void PutWord(std::vector<uint8_t>& out, int32_t value) {
  uint32_t v;
  std::memcpy(&v, &value, sizeof(v));
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

}  // namespace

std::optional<size_t> FindOfflinePlanMetadata(const Model& model) {
  for (size_t i = 0; i < model.metadata.size(); ++i) {
    if (model.metadata[i].name == kOfflinePlanMetadataName) return i;
  }
  return std::nullopt;
}

Result<OfflinePlan> DecodeOfflinePlan(const uint8_t* data, uint64_t size) {
  rules::OfflinePlan decoded;
  rules::ErrorText error;
  const rules::StatusCode code = rules::DecodeOfflinePlan(data, size, &decoded, &error);
  if (code != rules::StatusCode::kOk) return StatusOf(code, error.text);
  OfflinePlan plan;
  plan.version = decoded.version;
  plan.subgraphs_word = decoded.subgraphs_word;
  plan.offsets.reserve(decoded.count);
  for (uint32_t i = 0; i < decoded.count; ++i) plan.offsets.push_back(rules::OfflineOffset(decoded, i));
  return plan;
}

std::vector<uint8_t> EncodeOfflinePlan(const std::vector<int32_t>& offsets, int32_t version, int32_t subgraphs_word) {
  std::vector<uint8_t> out;
  out.reserve(12 + 4 * offsets.size());
  PutWord(out, version);
  PutWord(out, subgraphs_word);
  PutWord(out, static_cast<int32_t>(offsets.size()));
  for (int32_t o : offsets) PutWord(out, o);
  return out;
}

Status ValidateOfflinePlan(const Model& model) {
  const auto entry = FindOfflinePlanMetadata(model);
  if (!entry) return Status::Ok();
  const uint32_t index = model.metadata[*entry].buffer;
  if (index >= model.buffers.size()) {
    return InvalidArgument("offline plan: metadata buffer " + std::to_string(index) + " out of range (" +
                           std::to_string(model.buffers.size()) + " buffers)");
  }
  const Buffer& buffer = model.buffers[index];
  rules::OfflinePlan plan;
  rules::ErrorText error;
  rules::StatusCode code = rules::DecodeOfflinePlan(buffer.data, buffer.size, &plan, &error);
  if (code != rules::StatusCode::kOk) return StatusOf(code, error.text);
  plan.buffer = index;
  std::vector<uint32_t> tensor_base = {0};
  for (const Subgraph& sg : model.subgraphs)
    tensor_base.push_back(tensor_base.back() + static_cast<uint32_t>(sg.tensors.size()));
  const uint64_t at = model.file_data != nullptr ? static_cast<uint64_t>(buffer.data - model.file_data) : 0;
  code = rules::CheckOfflinePlan(plan, tensor_base.data(), static_cast<uint32_t>(model.subgraphs.size()), at, &error);
  return StatusOf(code, error.text);
}

}  // namespace arenaplan::model
