#include "runtime/resource_variables.h"

#include <cstring>

#include "runtime/interpreter.h"

namespace arenaplan::rt {

int32_t FindOrCreateResource(ResourceVariable* table, uint32_t* count, uint32_t capacity, const char* container,
                             const char* shared_name) {
  const char* name = shared_name != nullptr ? shared_name : "";
  for (uint32_t i = 0; i < *count; ++i) {
    // TFLM: a lookup without a container matches any; we also let a stored null match any.
    const bool same_container = container == nullptr || table[i].container == nullptr ||
                                std::strcmp(container, table[i].container) == 0;
    if (same_container && std::strcmp(name, table[i].shared_name) == 0) return static_cast<int32_t>(i);
  }
  if (*count >= capacity) return -1;
  table[*count] = ResourceVariable{container, name, 0, 0, 0};
  return static_cast<int32_t>((*count)++);
}

// --- the interpreter's KernelContext over the table (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE) ---

StatusCode Interpreter::ResourceId(const char* container, const char* shared_name, int32_t* id) {
  *id = FindOrCreateResource(tables_.resources, &num_resources_, tables_.resource_capacity, container, shared_name);
  if (*id < 0) {
    return Fail(StatusCode::kUnsupported, "resource variable table full (%u entries, one per VAR_HANDLE)",
                tables_.resource_capacity);
  }
  return StatusCode::kOk;
}

StatusCode Interpreter::AllocateResource(int32_t id, uint32_t bytes, int8_t fill) {
  if (!in_prepare_) return Fail(StatusCode::kBadState, "AllocateResource outside prepare");
  if (id < 0 || static_cast<uint32_t>(id) >= num_resources_) {
    return Fail(StatusCode::kInvalidModel, "resource variable %d does not exist (%u variables)", id, num_resources_);
  }
  ResourceVariable& v = tables_.resources[id];
  if (v.bytes > 0 || bytes == 0) return StatusCode::kOk;  // the first ASSIGN_VARIABLE sizes it (TFLM)
  uint32_t off = 0;
  ErrorText detail;
  const StatusCode s = ArenaAllocTail(&arena_, bytes, kArenaAlignment, &off, &detail, "resource variable");
  if (s != StatusCode::kOk) return Fail(s, "%s", detail.text);
  record_.resource_bytes += bytes;
  v.offset = off;
  v.bytes = bytes;
  v.fill = fill;
  std::memset(ArenaPtr(arena_, off), fill, bytes);
  return StatusCode::kOk;
}

StatusCode Interpreter::GetResource(int32_t id, uint8_t** data, uint32_t* bytes) {
  *data = nullptr;
  *bytes = 0;
  if (id < 0 || static_cast<uint32_t>(id) >= num_resources_) {
    return Fail(StatusCode::kInvalidModel, "resource variable %d does not exist (%u variables)", id, num_resources_);
  }
  if (tables_.resources[id].bytes > 0) {
    *data = ArenaPtr(arena_, tables_.resources[id].offset);
    *bytes = tables_.resources[id].bytes;
  }
  return StatusCode::kOk;
}

// The output's data is set now, so planning leaves it alone (TFLM: a tensor with data is not
// planned, rules::NeedsAllocating).
StatusCode Interpreter::PointOutputAt(uint32_t k, void* data) {
  if (!in_prepare_) return Fail(StatusCode::kBadState, "PointOutputAt outside prepare");
  if (k >= num_outputs()) return Fail(StatusCode::kInvalidModel, "output %u is missing", k);
  const auto* p = static_cast<const uint8_t*>(data);
  if (p < arena_.base + arena_.tail || p >= arena_.base + arena_.size) {
    return Fail(StatusCode::kBadArgument, "output %u must point into persistent arena memory", k);
  }
  const int32_t index = CurrentOp().outputs()->Get(k);
  const tfl::Tensor& t = *model_.subgraph(current_sg_).tensors()->Get(static_cast<uint32_t>(index));
  if (t.is_variable()) return Fail(StatusCode::kInvalidModel, "output %u is a variable tensor", k);
  tables_.tensor_offset[model_.index.tensor_base[current_sg_] + static_cast<uint32_t>(index)] = static_cast<uint32_t>(
      p - arena_.base);
  return StatusCode::kOk;
}

}  // namespace arenaplan::rt
