#include "runtime/model_binding.h"

#include <cstring>

#include "rules/lifetimes.h"

namespace arenaplan::rt {

const uint8_t* BoundModel::ConstantData(const tfl::Tensor& t, uint64_t* bytes) const {
  const uint8_t* data = nullptr;
  rules::BufferData(*model, file, t.buffer(), &data, bytes);
  return data;
}

void FormatOpPlace(const BoundModel& model, uint32_t s, uint32_t op, char* buf, uint32_t cap) {
  char name[48] = "?";
  if (model.model != nullptr && s < model.counts.subgraphs && op < rules::Size(model.subgraph(s).operators())) {
    rules::OpName(model.index.code_of(model.index.op(s, op)), name, sizeof(name));
  }
  Format(buf, cap, "subgraph %u, op %u (%.40s)", s, op, name);
}

namespace {

// INT4 constants are stored packed (rules::CheckModel accepts what TFLM does), but no kernel here
// unpacks them, and a view's byte count is the unpacked one: refuse them rather than let a kernel
// read past the packed data.
StatusCode CheckRuntimeTypes(const tfl::Model& model, ErrorText* error) {
  for (uint32_t s = 0; s < rules::Size(model.subgraphs()); ++s) {
    const auto* tensors = model.subgraphs()->Get(s)->tensors();
    for (uint32_t t = 0; t < rules::Size(tensors); ++t) {
      if (tensors->Get(t)->type() != tfl::TensorType::INT4) continue;
      SetError(error, "subgraph %u, tensor %u: INT4 tensors are not supported by this runtime", s, t);
      return StatusCode::kUnsupported;
    }
  }
  return StatusCode::kOk;
}

}  // namespace

StatusCode BindModel(const uint8_t* bytes, size_t size, Arena* arena, BoundModel* bound, uint32_t* subgraph_table_bytes,
                     ErrorText* error) {
  // bound->model stays nullptr until the model passed every check.
  const rules::ModelFile file{bytes, size};
  const tfl::Model* model = nullptr;
  rules::ModelCounts counts;
  RT_RETURN_IF_ERROR(rules::VerifyModel(file, &model, error));
  RT_RETURN_IF_ERROR(rules::CheckModel(*model, file, &counts, error));
  RT_RETURN_IF_ERROR(rules::CheckPlannable(*model, error));  // the runtime plans every model it runs
  RT_RETURN_IF_ERROR(CheckRuntimeTypes(*model, error));
  const uint32_t n = counts.subgraphs;
  uint32_t* bases = bound->inline_bases;
  if (n > 1) {  // limits.h keeps 8 * (n + 1) far below 2^32
    uint32_t off = 0;
    const uint32_t table = 8 * (n + 1);
    RT_RETURN_IF_ERROR(ArenaAllocTail(arena, table, 4, &off, error, "subgraph table"));
    *subgraph_table_bytes += table;
    bases = reinterpret_cast<uint32_t*>(ArenaPtr(*arena, off));
    std::memset(bases, 0, table);
  }
  rules::FillModelIndex(*model, bases, bases + n + 1);
  const rules::ModelIndex index{model, n, bases, bases + n + 1};
  rules::Schedule schedule;
  RT_RETURN_IF_ERROR(rules::ReadSchedule(index, file, &schedule, error));
  bound->model = model;
  bound->file = file;
  bound->counts = counts;
  bound->index = index;
  bound->schedule = schedule;
  return StatusCode::kOk;
}

}  // namespace arenaplan::rt
