#include "runtime/kernels/binary_util.h"

namespace arenaplan::rt {

StatusCode GetBinaryTensors(KernelContext& ctx, TensorView* a, TensorView* b, TensorView* out) {
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, a));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, b));
  return RequireOutput(ctx, 0, out);
}

StatusCode PrepareSameTypeBinary(KernelContext& ctx, TensorView* a, TensorView* b, TensorView* out) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  RT_RETURN_IF_ERROR(GetBinaryTensors(ctx, a, b, out));
  if (a->type != out->type || b->type != out->type) {
    return ctx.Fail(StatusCode::kInvalidModel, "input types %s, %s differ from output type %s", TypeName(a->type),
                    TypeName(b->type), TypeName(out->type));
  }
  return StatusCode::kOk;
}

StatusCode PrepareBroadcast(KernelContext& ctx, const TensorView& a, const TensorView& b, const TensorView& out,
                            Broadcast* bc) {
  if (!MakeBroadcast(a, b, out, bc)) {
    return ctx.Fail(StatusCode::kInvalidModel, "shapes of rank %d and %d do not broadcast to the output (rank %d)",
                    a.rank, b.rank, out.rank);
  }
  return StatusCode::kOk;
}

bool CalculateActivationRangeInt32(tfl::ActivationFunctionType act, float* act_min_f, float* act_max_f,
                                   int32_t* act_min, int32_t* act_max) {
  const bool ok = CalculateActivationRangeFloat(act, act_min_f, act_max_f);
  *act_min = act == tfl::ActivationFunctionType::NONE ? INT32_MIN : static_cast<int32_t>(*act_min_f);
  *act_max = *act_max_f >= 2147483647.0f ? INT32_MAX : static_cast<int32_t>(*act_max_f);
  return ok;
}

}  // namespace arenaplan::rt
