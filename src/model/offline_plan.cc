#include "model/offline_plan.h"

#include <cstring>
#include <string>

namespace arenaplan::model {
namespace {

int32_t ReadWord(const uint8_t* p) {
  uint32_t v = uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
  int32_t out;
  std::memcpy(&out, &v, sizeof(out));
  return out;
}

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
  if (size < 12 || data == nullptr) {
    return InvalidArgument("offline plan: " + std::to_string(size) +
                           " bytes, need at least 12 (version, subgraphs, count)");
  }
  OfflinePlan plan;
  plan.version = ReadWord(data);
  plan.subgraphs_word = ReadWord(data + 4);
  const int32_t n = ReadWord(data + 8);
  if (n < 0) return InvalidArgument("offline plan: negative offset count " + std::to_string(n));
  const uint64_t need = 12 + uint64_t{4} * static_cast<uint64_t>(n);
  if (size < need) {
    return InvalidArgument("offline plan: truncated, count " + std::to_string(n) + " needs " +
                           std::to_string(need) + " bytes, buffer has " + std::to_string(size));
  }
  plan.offsets.reserve(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) plan.offsets.push_back(ReadWord(data + 12 + 4 * uint64_t(i)));
  return plan;
}

std::vector<uint8_t> EncodeOfflinePlan(const std::vector<int32_t>& offsets, int32_t version,
                                       int32_t subgraphs_word) {
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
    return InvalidArgument("offline plan: metadata buffer " + std::to_string(index) +
                           " out of range (" + std::to_string(model.buffers.size()) + " buffers)");
  }
  const Buffer& buffer = model.buffers[index];
  auto plan = DecodeOfflinePlan(buffer.data, buffer.size);
  if (!plan.ok()) return plan.status();
  const size_t total = model.total_tensors();
  if (plan->offsets.size() != total) {
    return InvalidArgument("offline plan: " + std::to_string(plan->offsets.size()) +
                           " offsets but the model has " + std::to_string(total) +
                           " tensors over all subgraphs");
  }
  size_t global = 0;
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    for (size_t t = 0; t < model.subgraphs[s].tensors.size(); ++t, ++global) {
      const int32_t o = plan->offsets[global];
      if (o < -1) {
        return InvalidArgument("offline plan: subgraph " + std::to_string(s) + ", tensor " +
                               std::to_string(t) + ": negative offset " + std::to_string(o) +
                               " (only -1 means online)");
      }
    }
  }
  if (model.file_data != nullptr && buffer.data != nullptr) {
    const auto at = static_cast<uint64_t>(buffer.data - model.file_data);
    if (at % 4 != 0) {
      return InvalidArgument("offline plan: buffer " + std::to_string(index) + " data at file offset " +
                             std::to_string(at) + " is not 4-byte aligned (TFLM reads it as int32)");
    }
  }
  return Status::Ok();
}

}  // namespace arenaplan::model
