#include "runtime/external_io.h"

#include "rules/limits.h"

namespace arenaplan::rt {
namespace {

const flatbuffers::Vector<int32_t>* List(const BoundModel& model, bool output) {
  return output ? model.subgraph(0).outputs() : model.subgraph(0).inputs();
}

const char* NameOf(const BoundModel& model, uint32_t t) {
  const tfl::Tensor& tensor = model.tensor(t);
  return tensor.name() != nullptr ? tensor.name()->c_str() : "";
}

}  // namespace

StatusCode AllocateExternalTable(const BoundModel& model, ExternalIo io, Arena* arena, ExternalBuffers* ext,
                                 uint32_t* table_bytes, ErrorText* error) {
  *ext = ExternalBuffers{};
  ext->io = io;
  if (io == ExternalIo::kNone) return StatusCode::kOk;
  ext->num_inputs = rules::Size(List(model, false));
  ext->num_outputs = rules::Size(List(model, true));
  const uint64_t bytes = (uint64_t{ext->num_inputs} + ext->num_outputs) * sizeof(void*);
  if (bytes > rules::kMaxBufferBytes) {
    SetError(error, "external I/O table: %u inputs and %u outputs", ext->num_inputs, ext->num_outputs);
    return StatusCode::kUnsupported;
  }
  uint32_t off = 0;
  RT_RETURN_IF_ERROR(
      AllocTail(arena, static_cast<uint32_t>(bytes), alignof(void*), table_bytes, "external I/O table", &off, error));
  ext->inputs = reinterpret_cast<void**>(ArenaPtr(*arena, off));  // zeroed: nothing bound
  ext->outputs = ext->inputs + ext->num_inputs;
  return StatusCode::kOk;
}

bool IsExternal(const BoundModel& model, const TailTables& tables, const ExternalBuffers& ext, uint32_t t) {
  if (ext.io == ExternalIo::kNone || t >= rules::Size(model.subgraph(0).tensors())) return false;
  if (tables.tensor_offset[t] != kNoData || !rules::IsExternalTensor(model.subgraph(0), t, ext.io)) return false;
  const tfl::Tensor& tensor = model.tensor(t);
  uint64_t size = 0;
  return model.ConstantData(tensor, &size) == nullptr && rules::TensorBytes(tensor) != 0;
}

StatusCode BindExternal(const BoundModel& model, const TailTables& tables, ExternalBuffers* ext, bool output,
                        uint32_t i, void* data, size_t bytes, ErrorText* error) {
  const char* what = output ? "output" : "input";
  if (ext->io == ExternalIo::kNone) {
    SetError(error, "%s %u: the interpreter has no external I/O (InterpreterOptions::external_io)", what, i);
    return StatusCode::kBadArgument;
  }
  const uint32_t n = output ? ext->num_outputs : ext->num_inputs;
  if (i >= n || List(model, output)->Get(i) < 0) {
    SetError(error, "%s %u out of range (%u %ss)", what, i, n, what);
    return StatusCode::kBadArgument;
  }
  const auto t = static_cast<uint32_t>(List(model, output)->Get(i));
  const uint64_t need = rules::TensorBytes(model.tensor(t));
  if (!IsExternal(model, tables, *ext, t)) {
    SetError(error, "%s %u (%.40s) is not external (InterpreterOptions::external_io)", what, i, NameOf(model, t));
    return StatusCode::kBadArgument;
  }
  if (data == nullptr || bytes < need) {
    SetError(error, "%s %u (%.40s): buffer of %llu bytes, the tensor needs %llu", what, i, NameOf(model, t),
             static_cast<unsigned long long>(data == nullptr ? 0 : bytes), static_cast<unsigned long long>(need));
    return StatusCode::kBadArgument;
  }
  if (reinterpret_cast<uintptr_t>(data) % kArenaAlignment != 0) {
    SetError(error, "%s %u (%.40s): buffer at 0x%llx is not %u-byte aligned", what, i, NameOf(model, t),
             static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(data)), kArenaAlignment);
    return StatusCode::kBadArgument;
  }
  (output ? ext->outputs : ext->inputs)[i] = data;
  return StatusCode::kOk;
}

void* ExternalData(const BoundModel& model, const ExternalBuffers& ext, uint32_t t) {
  for (int side = 0; side < 2; ++side) {
    const flatbuffers::Vector<int32_t>* list = List(model, side == 1);
    void* const* bound = side == 1 ? ext.outputs : ext.inputs;
    for (uint32_t k = 0; bound != nullptr && k < rules::Size(list); ++k) {
      if (list->Get(k) >= 0 && static_cast<uint32_t>(list->Get(k)) == t && bound[k] != nullptr) return bound[k];
    }
  }
  return nullptr;
}

StatusCode CheckExternalBound(const BoundModel& model, const TailTables& tables, const ExternalBuffers& ext,
                              ErrorText* error) {
  for (int side = 0; side < 2; ++side) {
    const flatbuffers::Vector<int32_t>* list = List(model, side == 1);
    for (uint32_t k = 0; k < rules::Size(list); ++k) {
      if (list->Get(k) < 0) continue;
      const auto t = static_cast<uint32_t>(list->Get(k));
      if (!IsExternal(model, tables, ext, t) || ExternalData(model, ext, t) != nullptr) continue;
      SetError(error, "%s %u (%.40s) is external and has no buffer: bind one (Interpreter::Bind%s) before Invoke",
               side == 1 ? "output" : "input", k, NameOf(model, t), side == 1 ? "Output" : "Input");
      return StatusCode::kBadState;
    }
  }
  return StatusCode::kOk;
}

}  // namespace arenaplan::rt
