// What many kernel files write alike: prepare checks of the op's main tensors, persistent op
// data, and the registration function each op exports (registrations.h). O(1).
#pragma once

#include "runtime/kernel_api.h"

namespace arenaplan::rt {

// Input 0 and output 0 (prepare or eval).
inline StatusCode RequireIo(KernelContext& ctx, TensorView* in, TensorView* out) {
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, in));
  return RequireOutput(ctx, 0, out);
}

// Prepare: input 0 and output 0, which must have the same type.
inline StatusCode RequireSameTypeIo(KernelContext& ctx, TensorView* in, TensorView* out) {
  RT_RETURN_IF_ERROR(RequireIo(ctx, in, out));
  if (in->type != out->type) {
    return ctx.Fail(StatusCode::kInvalidModel, "input type %s differs from output type %s", TypeName(in->type),
                    TypeName(out->type));
  }
  return StatusCode::kOk;
}

// Prepare: one input and one output of the same type and element count (unary elementwise ops).
inline StatusCode RequireElementwiseIo(KernelContext& ctx, TensorView* in, TensorView* out) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  RT_RETURN_IF_ERROR(RequireSameTypeIo(ctx, in, out));
  if (ElementCount(*in) != ElementCount(*out)) {
    return ctx.Fail(StatusCode::kInvalidModel, "input and output sizes differ");
  }
  return StatusCode::kOk;
}

// Prepare: t must be float32, int8, int16 or int32 (the types most arithmetic kernels run).
inline StatusCode RequireNumericType(KernelContext& ctx, TensorType t) {
  if (t != TensorType::FLOAT32 && t != TensorType::INT8 && t != TensorType::INT16 && t != TensorType::INT32) {
    return ctx.Fail(StatusCode::kUnsupported, "type %s not supported", TypeName(t));
  }
  return StatusCode::kOk;
}

// Prepare: the value of a constant axis tensor (one int32/int64), made non-negative and checked
// against rank.
inline StatusCode ReadConstantAxis(KernelContext& ctx, const TensorView& axis_t, int32_t rank, int64_t* axis) {
  if (axis_t.data == nullptr) return ctx.Fail(StatusCode::kUnsupported, "non-constant axis tensor is not supported");
  if (ElementCount(axis_t) != 1 || (axis_t.type != TensorType::INT32 && axis_t.type != TensorType::INT64)) {
    return ctx.Fail(StatusCode::kInvalidModel, "axis must be one int32/int64 value");
  }
  *axis = axis_t.type == TensorType::INT32 ? axis_t.As<int32_t>()[0] : axis_t.As<int64_t>()[0];
  if (*axis < 0) *axis += rank;
  if (*axis < 0 || *axis >= rank) return ctx.Fail(StatusCode::kInvalidModel, "axis out of range for rank %d", rank);
  return StatusCode::kOk;
}

// Prepare: zero-initialised persistent op data of type T.
template <typename T>
StatusCode AllocateOpData(KernelContext& ctx, T** out) {
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(T), &mem));
  *out = static_cast<T*>(mem);
  **out = T{};
  return StatusCode::kOk;
}

// Prepare: persistent op data holding a copy of value, set as the op's data.
template <typename T>
StatusCode SetOpData(KernelContext& ctx, const T& value) {
  T* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  *d = value;
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

}  // namespace arenaplan::rt

// Defines Register_<OP>() returning the constant registration {"OP", prepare, eval[, reset]}.
// Use outside the anonymous namespace, inside arenaplan::rt.
#define RT_REGISTER_KERNEL(OP, ...)                                      \
  const KernelRegistration* Register_##OP() {                            \
    static constexpr KernelRegistration kRegistration{#OP, __VA_ARGS__}; \
    return &kRegistration;                                               \
  }
// The same for an op whose name is not its registration's (custom ops: "SignalFramer").
#define RT_REGISTER_NAMED_KERNEL(FN, NAME, ...)                           \
  const KernelRegistration* Register_##FN() {                             \
    static constexpr KernelRegistration kRegistration{NAME, __VA_ARGS__}; \
    return &kRegistration;                                                \
  }
