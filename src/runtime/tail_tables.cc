#include "runtime/tail_tables.h"

#include <cstring>

#include "runtime/interpreter.h"

namespace arenaplan::rt {
namespace {

StatusCode ResolveKernels(const BoundModel& model, const OpResolver& resolver, TailTables* tables, ErrorText* error) {
  for (uint32_t c = 0; c < model.counts.operator_codes; ++c) {
    const tfl::OperatorCode& code = *model.model->operator_codes()->Get(c);
    tables->kernels[c] = FindKernel(resolver, rules::BuiltinCode(code),
                                    code.custom_code() != nullptr ? code.custom_code()->c_str() : nullptr);
  }
  for (uint32_t s = 0; s < model.counts.subgraphs; ++s) {
    for (uint32_t i = 0; i < rules::Size(model.subgraph(s).operators()); ++i) {
      const KernelRegistration* k = KernelOf(model, *tables, s, i);
      if (k != nullptr && k->eval != nullptr) continue;
      char place[96];
      FormatOpPlace(model, s, i, place, sizeof(place));
      SetError(error, "%s: op not supported by this runtime (no kernel registered)", place);
      return StatusCode::kUnsupported;
    }
  }
  return StatusCode::kOk;
}

uint32_t CountVarHandles(const BoundModel& model) {
  uint32_t handles = 0;
  for (uint32_t s = 0; s < model.counts.subgraphs; ++s) {
    for (uint32_t i = 0; i < rules::Size(model.subgraph(s).operators()); ++i) {
      const int32_t code = rules::BuiltinCode(model.index.code_of(model.index.op(s, i)));
      handles += code == static_cast<int32_t>(tfl::BuiltinOperator::VAR_HANDLE);
    }
  }
  return handles;
}

}  // namespace

StatusCode AllocTail(Arena* arena, uint32_t bytes, uint32_t align, uint32_t* field, const char* what, uint32_t* offset,
                     ErrorText* error) {
  RT_RETURN_IF_ERROR(ArenaAllocTail(arena, bytes, align, offset, error, what));
  if (field != nullptr) *field += bytes;
  std::memset(ArenaPtr(*arena, *offset), 0, bytes);
  return StatusCode::kOk;
}

StatusCode AllocateTailTables(const BoundModel& model, const OpResolver& resolver, Arena* arena, TailTables* t,
                              MemoryRecord* record, ErrorText* error) {
  constexpr uint32_t kPointer = static_cast<uint32_t>(sizeof(void*));
  const rules::ModelCounts& n = model.counts;
  uint32_t off = 0;
  RT_RETURN_IF_ERROR(
      AllocTail(arena, 4 * n.tensors, 4, &record->tensor_table_bytes, "tensor offset table", &off, error));
  t->tensor_offset = reinterpret_cast<uint32_t*>(ArenaPtr(*arena, off));
  for (uint32_t i = 0; i < n.tensors; ++i) t->tensor_offset[i] = kNoData;
  RT_RETURN_IF_ERROR(AllocTail(arena, kPointer * n.operator_codes, alignof(void*), &record->kernel_table_bytes,
                               "kernel table", &off, error));
  t->kernels = reinterpret_cast<const KernelRegistration**>(ArenaPtr(*arena, off));
  RT_RETURN_IF_ERROR(AllocTail(arena, kPointer * n.operators, alignof(void*), &record->op_data_ptr_bytes,
                               "op data pointers", &off, error));
  t->op_data = reinterpret_cast<void**>(ArenaPtr(*arena, off));
  RT_RETURN_IF_ERROR(ResolveKernels(model, resolver, t, error));
  const uint32_t handles = CountVarHandles(model);
  if (handles == 0) return StatusCode::kOk;
  RT_RETURN_IF_ERROR(AllocTail(arena, static_cast<uint32_t>(sizeof(ResourceVariable)) * handles,
                               alignof(ResourceVariable), &record->resource_table_bytes, "resource variable table",
                               &off, error));
  t->resources = reinterpret_cast<ResourceVariable*>(ArenaPtr(*arena, off));
  t->resource_capacity = handles;
  return StatusCode::kOk;
}

}  // namespace arenaplan::rt
