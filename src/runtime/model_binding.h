// Binding the runtime to a model: the flatbuffer verified and checked by rules/ (the same checks,
// limits and messages as the host tools), and the numbering of tensors and ops over all subgraphs.
// The numbering's base arrays live in the arena tail (8 bytes per subgraph + 8) when the model has
// control flow, inside BoundModel otherwise, so single-subgraph models cost no tail for it.
// O(file size + tensors x rank + ops x arity + call-tree visits).
#pragma once

#include <cstddef>
#include <cstdint>

#include "rules/model.h"
#include "rules/model_check.h"
#include "rules/schedule.h"
#include "runtime/arena.h"
#include "runtime/status.h"

namespace arenaplan::rt {

struct BoundModel {
  const tfl::Model* model = nullptr;  // nullptr until BindModel succeeded
  rules::ModelFile file;
  rules::ModelCounts counts;
  rules::ModelIndex index;
  uint32_t inline_bases[4] = {0, 0, 0, 0};  // tensor_base / op_base of a one-subgraph model
  rules::Schedule schedule;                 // arenaplan_schedule metadata, read in place (rules/schedule.h)

  const tfl::SubGraph& subgraph(uint32_t s) const { return index.subgraph(s); }
  const tfl::Tensor& tensor(uint32_t global) const { return index.tensor(global); }
  // The constant data of tensor t (nullptr when it has none), its size in *bytes.
  const uint8_t* ConstantData(const tfl::Tensor& t, uint64_t* bytes) const;
};

// "subgraph 0, op 3 (CONV_2D)" into buf, as every message names an op (rules/model_check.h).
void FormatOpPlace(const BoundModel& model, uint32_t s, uint32_t op, char* buf, uint32_t cap);

// Verifies and checks the model, then fills `bound` (table bytes go to *subgraph_table_bytes).
// BoundModel holds pointers into itself: bind it in place, never copy it afterwards.
StatusCode BindModel(const uint8_t* bytes, size_t size, Arena* arena, BoundModel* bound, uint32_t* subgraph_table_bytes,
                     ErrorText* error);

}  // namespace arenaplan::rt
