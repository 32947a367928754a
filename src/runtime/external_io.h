// Buffers the application owns (InterpreterOptions::external_io, rules/io_options.h): subgraph 0's
// inputs and/or outputs that the plan leaves out of the head. The application binds one buffer to
// each before Invoke (Interpreter::BindInput / BindOutput); kernels then read and write it in place,
// with no copy. The bindings are one pointer per subgraph-0 input and output entry, in the tail
// (sizeof(void*) each, only when external_io is set; MemoryRecord::external_table_bytes).
// A binding is checked for size (>= the tensor's bytes) and alignment (kArenaAlignment, the
// alignment every planned buffer has, which the kernels may assume). O(inputs + outputs) per
// lookup, bind and check.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rules/io_options.h"
#include "runtime/arena.h"
#include "runtime/model_binding.h"
#include "runtime/status.h"
#include "runtime/tail_tables.h"

namespace arenaplan::rt {

using rules::ExternalIo;

struct ExternalBuffers {
  ExternalIo io = ExternalIo::kNone;
  void** inputs = nullptr;  // per subgraph-0 input entry: the bound buffer, or nullptr
  void** outputs = nullptr;
  uint32_t num_inputs = 0;
  uint32_t num_outputs = 0;
};

// After planning: the binding table in the tail (nothing when io is kNone).
StatusCode AllocateExternalTable(const BoundModel& model, ExternalIo io, Arena* arena, ExternalBuffers* ext,
                                 uint32_t* table_bytes, ErrorText* error);

// True when subgraph-0 tensor t is external: an input / output `io` names that the plan left out
// (no arena data, not a constant, not empty).
bool IsExternal(const BoundModel& model, const TailTables& tables, const ExternalBuffers& ext, uint32_t t);

// Binds `data` (`bytes` long) to input (output = false) or output entry i. kBadArgument for an
// index out of range, a tensor that is not external, a null, short or misaligned buffer; each
// message names the tensor.
StatusCode BindExternal(const BoundModel& model, const TailTables& tables, ExternalBuffers* ext, bool output,
                        uint32_t i, void* data, size_t bytes, ErrorText* error);

// The buffer bound to subgraph-0 tensor t (through any of its input / output entries), or nullptr.
void* ExternalData(const BoundModel& model, const ExternalBuffers& ext, uint32_t t);

// kBadState naming the first external tensor with no buffer bound, else kOk.
StatusCode CheckExternalBound(const BoundModel& model, const TailTables& tables, const ExternalBuffers& ext,
                              ErrorText* error);

}  // namespace arenaplan::rt
