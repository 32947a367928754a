#include "rules/offline_plan.h"

#include <cstring>

#include "rules/limits.h"

namespace arenaplan::rules {
namespace {

using U64 = unsigned long long;

// The words need not be aligned for us (only for TFLM, where it reads them).
int32_t Word(const uint8_t* p) { return LittleEndianWord(p); }

}  // namespace

int32_t OfflineOffset(const OfflinePlan& plan, uint32_t i) {
  return plan.present() && i < plan.count ? Word(plan.offsets + 4u * i) : kOnlineOffset;
}

StatusCode DecodeOfflinePlan(const uint8_t* data, uint64_t size, OfflinePlan* plan, ErrorText* error) {
  *plan = OfflinePlan{};
  if (data == nullptr || size < 12) {
    SetError(error, "offline plan: %llu bytes, need at least 12 (version, subgraphs, count)", static_cast<U64>(size));
    return StatusCode::kInvalidModel;
  }
  const int32_t n = Word(data + 8);
  if (n < 0) {
    SetError(error, "offline plan: negative offset count %d", n);
    return StatusCode::kInvalidModel;
  }
  const uint64_t need = 12 + uint64_t{4} * static_cast<uint64_t>(n);
  if (size < need) {
    SetError(error, "offline plan: truncated, count %d needs %llu bytes, buffer has %llu", n, static_cast<U64>(need),
             static_cast<U64>(size));
    return StatusCode::kInvalidModel;
  }
  plan->version = Word(data);
  plan->subgraphs_word = Word(data + 4);
  plan->count = static_cast<uint32_t>(n);
  plan->offsets = data + 12;
  return StatusCode::kOk;
}

int32_t FindOfflinePlanMetadata(const tfl::Model& model) {
  constexpr uint32_t kNameLength = sizeof(kOfflinePlanMetadataName) - 1;
  for (uint32_t i = 0; i < Size(model.metadata()); ++i) {
    const flatbuffers::String* name = model.metadata()->Get(i)->name();
    if (name != nullptr && name->size() == kNameLength &&
        std::memcmp(name->data(), kOfflinePlanMetadataName, kNameLength) == 0) {
      return static_cast<int32_t>(i);
    }
  }
  return -1;
}

StatusCode CheckOfflinePlan(const OfflinePlan& plan, const uint32_t* tensor_base, uint32_t num_subgraphs,
                            uint64_t file_offset, ErrorText* error) {
  const uint32_t total = tensor_base[num_subgraphs];
  if (plan.count != total) {
    SetError(error, "offline plan: %u offsets but the model has %u tensors over all subgraphs", plan.count, total);
    return StatusCode::kInvalidModel;
  }
  for (uint32_t s = 0; s < num_subgraphs; ++s) {
    for (uint32_t global = tensor_base[s]; global < tensor_base[s + 1]; ++global) {
      const int32_t o = OfflineOffset(plan, global);
      if (o < kOnlineOffset) {
        SetError(error, "offline plan: subgraph %u, tensor %u: negative offset %d (only -1 means online)", s,
                 global - tensor_base[s], o);
        return StatusCode::kInvalidModel;
      }
    }
  }
  if (file_offset % 4 != 0) {
    SetError(error, "offline plan: buffer %u data at file offset %llu is not 4-byte aligned (TFLM reads it as int32)",
             plan.buffer, static_cast<U64>(file_offset));
    return StatusCode::kInvalidModel;
  }
  return StatusCode::kOk;
}

StatusCode ReadOfflinePlan(const ModelIndex& index, const ModelFile& file, OfflinePlan* plan, ErrorText* error) {
  *plan = OfflinePlan{};
  const int32_t entry = FindOfflinePlanMetadata(*index.model);
  if (entry < 0) return StatusCode::kOk;
  const uint32_t buffer = index.model->metadata()->Get(static_cast<uint32_t>(entry))->buffer();
  const uint8_t* data = nullptr;
  uint64_t size = 0;
  BufferData(*index.model, file, buffer, &data, &size);
  OfflinePlan decoded;
  RT_RETURN_IF_ERROR(DecodeOfflinePlan(data, size, &decoded, error));
  decoded.buffer = buffer;
  RT_RETURN_IF_ERROR(CheckOfflinePlan(decoded, index.tensor_base, index.num_subgraphs,
                                      static_cast<uint64_t>(data - file.data), error));
  *plan = decoded;
  return StatusCode::kOk;
}

}  // namespace arenaplan::rules
