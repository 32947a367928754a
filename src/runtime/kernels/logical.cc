// LOGICAL_AND and LOGICAL_OR on bool tensors with NumPy broadcasting, as TFLM (logical.cc,
// logical_common.cc): equal shapes go elementwise, others through the 4-D broadcast (so ranks up
// to 4 when broadcasting). TFLM's kernels have no Prepare; the checks here are what its eval
// assumes. O(output elements).
#include "runtime/kernels/binary_util.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

StatusCode Prepare(KernelContext& ctx) {
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(PrepareSameTypeBinary(ctx, &a, &b, &out));
  RT_RETURN_IF_ERROR(RequireType(ctx, out, TensorType::BOOL, "output"));
  if (!SameShape(a, b) && (a.rank > 4 || b.rank > 4 || out.rank > 4)) {
    return ctx.Fail(StatusCode::kUnsupported, "broadcasting supports ranks up to 4 (as TFLM)");
  }
  Broadcast* bc = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &bc));
  RT_RETURN_IF_ERROR(PrepareBroadcast(ctx, a, b, out, bc));
  ctx.set_op_data(bc);
  return StatusCode::kOk;
}

template <bool kAnd>
StatusCode Eval(KernelContext& ctx) {
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(GetBinaryTensors(ctx, &a, &b, &out));
  const auto& bc = *static_cast<const Broadcast*>(ctx.op_data());
  const uint8_t* x = a.As<uint8_t>();
  const uint8_t* y = b.As<uint8_t>();
  uint8_t* z = out.As<uint8_t>();
  ForEachBroadcast(
      bc, [&](int32_t o, int32_t i, int32_t j) { z[o] = kAnd ? (x[i] != 0 && y[j] != 0) : (x[i] != 0 || y[j] != 0); });
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_KERNEL(LOGICAL_AND, &Prepare, &Eval<true>)
RT_REGISTER_KERNEL(LOGICAL_OR, &Prepare, &Eval<false>)

}  // namespace arenaplan::rt
