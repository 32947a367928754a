// VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE (TFLM micro kernels var_handle.cc, read_variable.cc,
// assign_variable.cc, micro_resource_variable.cc). A variable is found by (container, shared_name)
// in the interpreter's fixed table; its bytes are reserved in the tail when an ASSIGN_VARIABLE is
// prepared (sized by the assigned value, filled with its zero point), and persist across Invokes.
#include <cstring>

#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

struct VarHandleData {
  int32_t resource_id;
};

StatusCode VarHandlePrepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 0, 1));
  TensorView out;
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (out.bytes != 4)
    return ctx.Fail(StatusCode::kInvalidModel, "resource output must be one 4-byte id (%u bytes)", out.bytes);
  const auto* o = Options<tfl::VarHandleOptions>(ctx);
  // TFLM: a missing container matches any container; a missing shared name is the empty name.
  const char* container = (o != nullptr && o->container() != nullptr) ? o->container()->c_str() : nullptr;
  const char* name = (o != nullptr && o->shared_name() != nullptr) ? o->shared_name()->c_str() : "";
  void* p = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(VarHandleData), &p));
  auto* d = static_cast<VarHandleData*>(p);
  ctx.set_op_data(d);
  RT_RETURN_IF_ERROR(ctx.ResourceId(container, name, &d->resource_id));
  // The output holds the id for good and is never planned (as in TFLM).
  return ctx.PointOutputAt(0, &d->resource_id);
}

StatusCode VarHandleEval(KernelContext& ctx) { return StatusCode::kOk; }

// The id held by the resource input (VAR_HANDLE's output); false when it has no data yet.
bool ResourceIdOf(const TensorView& t, int32_t* id) {
  if (t.data == nullptr || t.bytes != 4) return false;
  std::memcpy(id, t.data, 4);
  return true;
}

StatusCode CheckResourceInput(KernelContext& ctx, const TensorView& t) {
  if ((t.type != TensorType::RESOURCE && t.type != TensorType::INT32) || t.bytes != 4) {
    return ctx.Fail(StatusCode::kInvalidModel, "input 0 must be one resource id (type %s, %u bytes)", TypeName(t.type),
                    t.bytes);
  }
  return StatusCode::kOk;
}

StatusCode Variable(KernelContext& ctx, const TensorView& handle, uint32_t bytes, uint8_t** data) {
  int32_t id = -1;
  if (!ResourceIdOf(handle, &id)) return ctx.Fail(StatusCode::kBadState, "resource id tensor has no data");
  uint32_t have = 0;
  RT_RETURN_IF_ERROR(ctx.GetResource(id, data, &have));
  if (*data == nullptr) {
    return ctx.Fail(StatusCode::kBadState, "resource variable %d was never allocated by an ASSIGN_VARIABLE", id);
  }
  if (have != bytes)
    return ctx.Fail(StatusCode::kInvalidModel, "resource variable %d holds %u bytes, tensor has %u", id, have, bytes);
  return StatusCode::kOk;
}

StatusCode ReadPrepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView handle;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &handle));
  return CheckResourceInput(ctx, handle);
}

StatusCode ReadEval(KernelContext& ctx) {
  TensorView handle, out;
  ctx.GetInput(0, &handle);
  ctx.GetOutput(0, &out);
  uint8_t* data = nullptr;
  RT_RETURN_IF_ERROR(Variable(ctx, handle, out.bytes, &data));
  if (out.bytes > 0) std::memcpy(out.data, data, out.bytes);
  return StatusCode::kOk;
}

StatusCode AssignPrepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 0));
  TensorView handle, value;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &handle));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &value));
  RT_RETURN_IF_ERROR(CheckResourceInput(ctx, handle));
  int32_t id = -1;
  // No data yet: the id comes from another subgraph and is checked at eval (as TFLM does).
  if (!ResourceIdOf(handle, &id)) return StatusCode::kOk;
  const int8_t fill = value.num_channels > 0 ? static_cast<int8_t>(value.zero_point) : 0;
  return ctx.AllocateResource(id, value.bytes, fill);
}

StatusCode AssignEval(KernelContext& ctx) {
  TensorView handle, value;
  ctx.GetInput(0, &handle);
  ctx.GetInput(1, &value);
  uint8_t* data = nullptr;
  RT_RETURN_IF_ERROR(Variable(ctx, handle, value.bytes, &data));
  if (value.bytes > 0) std::memcpy(data, value.data, value.bytes);
  return StatusCode::kOk;
}

const KernelRegistration kVarHandle{"VAR_HANDLE", &VarHandlePrepare, &VarHandleEval};
const KernelRegistration kRead{"READ_VARIABLE", &ReadPrepare, &ReadEval};
const KernelRegistration kAssign{"ASSIGN_VARIABLE", &AssignPrepare, &AssignEval};

}  // namespace

const KernelRegistration* Register_VAR_HANDLE() { return &kVarHandle; }
const KernelRegistration* Register_READ_VARIABLE() { return &kRead; }
const KernelRegistration* Register_ASSIGN_VARIABLE() { return &kAssign; }

}  // namespace arenaplan::rt
