// The interpreter's tables in the arena tail, each with one meaning:
//   tensor_offset   per tensor (all subgraphs): arena offset of its data, or kNoData. Before
//                   planning only tensors a kernel pointed at persistent data (VAR_HANDLE) have
//                   one; after planning every planned tensor and tail variable does.
//   kernels         per operator code: the resolved kernel
//   op_data         per op (all subgraphs): the kernel's persistent data
//   scratch_offset  per scratch request: head offset of its buffer (after planning)
//   resources       one entry per VAR_HANDLE op (resource_variables.h)
// Sizes are accounted in MemoryRecord. O(tensors + ops + operator codes).
#pragma once

#include <cstdint>

#include "runtime/arena.h"
#include "runtime/kernel_api.h"
#include "runtime/model_binding.h"
#include "runtime/op_resolver.h"
#include "runtime/resource_variables.h"
#include "runtime/status.h"

namespace arenaplan::rt {

inline constexpr uint32_t kNoData = 0xFFFFFFFFu;  // tensor_offset of a tensor without arena data

struct MemoryRecord;

struct TailTables {
  uint32_t* tensor_offset = nullptr;
  const KernelRegistration** kernels = nullptr;
  void** op_data = nullptr;
  uint32_t* scratch_offset = nullptr;
  ResourceVariable* resources = nullptr;
  uint32_t resource_capacity = 0;  // = number of VAR_HANDLE ops
};

// A zeroed tail allocation counted in *field (which may be nullptr).
StatusCode AllocTail(Arena* arena, uint32_t bytes, uint32_t align, uint32_t* field, const char* what, uint32_t* offset,
                     ErrorText* error);

// Tensor, kernel and op-data tables, the resource table (TFLM's MicroResourceVariables: capacity
// = number of VAR_HANDLE ops), and every op's kernel resolved; an op without a kernel fails
// (kUnsupported) naming it.
StatusCode AllocateTailTables(const BoundModel& model, const OpResolver& resolver, Arena* arena, TailTables* tables,
                              MemoryRecord* record, ErrorText* error);

// The kernel of op `op` in subgraph s.
inline const KernelRegistration* KernelOf(const BoundModel& model, const TailTables& tables, uint32_t s, uint32_t op) {
  return tables.kernels[model.index.op(s, op).opcode_index()];
}

}  // namespace arenaplan::rt
