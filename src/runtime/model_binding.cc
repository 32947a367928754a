#include "runtime/model_binding.h"

#include <cstring>

#include "rules/int4.h"
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

// INT4 constants are stored packed (rules/int4.h) while a view counts one byte per element: only
// the kernels that unpack them (rules::UnpacksInt4Filter, input 1) may see one, and only constant
// ones (TFLM's kernels unpack the buffer as stored). Everything else is refused here, before any
// kernel could read past the packed data. O(tensors + operator inputs).
StatusCode CheckInt4Tensors(const tfl::Model& model, const rules::ModelFile& file, ErrorText* error) {
  for (uint32_t s = 0; s < rules::Size(model.subgraphs()); ++s) {
    const tfl::SubGraph& g = *model.subgraphs()->Get(s);
    const auto* tensors = g.tensors();
    for (uint32_t t = 0; t < rules::Size(tensors); ++t) {
      const tfl::Tensor& tensor = *tensors->Get(t);
      if (tensor.type() != tfl::TensorType::INT4) continue;
      const uint8_t* data = nullptr;
      uint64_t bytes = 0;
      rules::BufferData(model, file, tensor.buffer(), &data, &bytes);
      if (data == nullptr) {
        SetError(error, "subgraph %u, tensor %u: INT4 tensor is not constant (this runtime runs INT4 only as "
                 "constant filters)", s, t);
        return StatusCode::kUnsupported;
      }
    }
    for (uint32_t i = 0; i < rules::Size(g.operators()); ++i) {
      const tfl::Operator& op = *g.operators()->Get(i);
      const int32_t code = rules::BuiltinCode(*model.operator_codes()->Get(op.opcode_index()));
      for (uint32_t k = 0; k < rules::Size(op.inputs()); ++k) {
        const int32_t t = op.inputs()->Get(k);
        if (t < 0 || tensors->Get(static_cast<uint32_t>(t))->type() != tfl::TensorType::INT4) continue;
        if (k == 1 && rules::UnpacksInt4Filter(code)) continue;
        char name[48];
        rules::OpName(*model.operator_codes()->Get(op.opcode_index()), name, sizeof(name));
        SetError(error, "subgraph %u, op %u (%.40s): INT4 tensor %d as input %u (INT4 runs only as the filter of "
                 "FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D)", s, i, name, t, k);
        return StatusCode::kUnsupported;
      }
      for (uint32_t k = 0; k < rules::Size(op.outputs()); ++k) {
        const int32_t t = op.outputs()->Get(k);
        if (t < 0 || tensors->Get(static_cast<uint32_t>(t))->type() != tfl::TensorType::INT4) continue;
        SetError(error, "subgraph %u, op %u: INT4 output tensor %d is not supported", s, i, t);
        return StatusCode::kUnsupported;
      }
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
  RT_RETURN_IF_ERROR(CheckInt4Tensors(*model, file, error));
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
