// L2_NORMALIZATION over the last dim (rank <= 4), as TFLM (l2norm.cc,
// reference/l2normalization.h, integer_ops/l2normalization.h):
//   float32: x / max(sqrt(sum x^2), 1e-6), the squares summed in order;
//   int8:    v = x - zp_in; 1 / sqrt(sum v^2) by TFLM's fixed-point Newton-Raphson
//            (GetInvSqrtQuantizedMultiplierExp), then v times it on the 1/128 output scale, clamped.
// No fused activation (TFLM rejects one). O(elements).
#include <cmath>
#include <cstdint>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireSameTypeIo(ctx, &in, &out));
  if (in.rank > 4 || in.rank < 1)
    return ctx.Fail(StatusCode::kUnsupported, "input rank %d not supported (1..4)", in.rank);
  if (out.type != TensorType::FLOAT32 && out.type != TensorType::INT8) {
    return ctx.Fail(StatusCode::kUnsupported, "output type %s not supported (FLOAT32, INT8)", TypeName(out.type));
  }
  RT_RETURN_IF_ERROR(RequireSameShape(ctx, in, out, "input and output"));
  const auto* o = Options<tfl::L2NormOptions>(ctx);
  if (o != nullptr && o->fused_activation_function() != tfl::ActivationFunctionType::NONE) {
    return ctx.Fail(StatusCode::kUnsupported, "fused activations are not supported");
  }
  return SetOpData(ctx, out.type == TensorType::INT8 ? in.zero_point : 0);
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  const int32_t depth = Dim(in, -1);
  const int64_t outer = depth > 0 ? ElementCount(in) / depth : 0;
  if (out.type == TensorType::FLOAT32) {
    const float* x = in.As<float>();
    float* y = out.As<float>();
    for (int64_t i = 0; i < outer; ++i, x += depth, y += depth) {
      float squared = 0;
      for (int32_t c = 0; c < depth; ++c) squared += x[c] * x[c];
      float norm = std::sqrt(squared);
      norm = norm < 1e-6f ? 1e-6f : norm;
      for (int32_t c = 0; c < depth; ++c) y[c] = x[c] / norm;
    }
    return StatusCode::kOk;
  }
  const int32_t zp = *static_cast<const int32_t*>(ctx.op_data());
  const int8_t* x = in.As<int8_t>();
  int8_t* y = out.As<int8_t>();
  for (int64_t i = 0; i < outer; ++i, x += depth, y += depth) {
    uint32_t acc = 0;  // wraps (defined) where TFLM's int32 would overflow: depth > 33000
    for (int32_t c = 0; c < depth; ++c) acc += static_cast<uint32_t>((x[c] - zp) * (x[c] - zp));
    int32_t multiplier = 0;
    int shift = 0;
    GetInvSqrtQuantizedMultiplierExp(static_cast<int32_t>(acc), -1, &multiplier, &shift);
    for (int32_t c = 0; c < depth; ++c) {
      int32_t v = MultiplyByQuantizedMultiplier(static_cast<int32_t>(x[c] - zp), multiplier, shift + 7);
      v = v < -128 ? -128 : (v > 127 ? 127 : v);
      y[c] = static_cast<int8_t>(v);
    }
  }
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_KERNEL(L2_NORMALIZATION, &Prepare, &Eval)

}  // namespace arenaplan::rt
