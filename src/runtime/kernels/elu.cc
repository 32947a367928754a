// ELU, as TFLM (elu.cc, reference/elu.h): float32 out = x < 0 ? expm1(x) : x; int8 through a
// 256-entry table built in Prepare: dequantize each int8 value, apply x < 0 ? exp(x) - 1 : x in
// float, divide by the output scale (multiply by its float inverse), round half away from zero,
// add the output zero point, clamp. Other types pass Prepare and fail at eval, as on TFLM.
// O(elements) (+ 256 in Prepare).
#include <cmath>
#include <cstdint>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

struct EluData {
  int8_t table[256];
};

StatusCode Prepare(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireElementwiseIo(ctx, &in, &out));
  EluData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  if (in.type == TensorType::INT8) {
    if (!(out.scale > 0.0f)) return ctx.Fail(StatusCode::kInvalidModel, "output scale must be positive");
    const float inverse_scale = 1 / out.scale;
    for (int32_t v = -128; v <= 127; ++v) {
      const float x = in.scale * static_cast<float>(v - in.zero_point);
      const float y = x < 0.0f ? std::exp(x) - 1.0f : x;
      const float rescaled = std::round(y * inverse_scale);
      int32_t q = static_cast<int32_t>(rescaled + static_cast<float>(out.zero_point));
      q = q < -128 ? -128 : (q > 127 ? 127 : q);
      d->table[static_cast<uint8_t>(static_cast<int8_t>(v))] = static_cast<int8_t>(q);
    }
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  const int64_t n = ElementCount(in);
  if (in.type == TensorType::FLOAT32) {
    const float* x = in.As<float>();
    float* y = out.As<float>();
    for (int64_t i = 0; i < n; ++i) y[i] = x[i] < 0.0f ? std::expm1(x[i]) : x[i];
    return StatusCode::kOk;
  }
  if (in.type == TensorType::INT8) {
    const auto& d = *static_cast<const EluData*>(ctx.op_data());
    const int8_t* x = in.As<int8_t>();
    int8_t* y = out.As<int8_t>();
    for (int64_t i = 0; i < n; ++i) y[i] = d.table[static_cast<uint8_t>(x[i])];
    return StatusCode::kOk;
  }
  return ctx.Fail(StatusCode::kUnsupported, "ELU only supports float32 and int8 currently, got %s.", TypeName(in.type));
}

}  // namespace

RT_REGISTER_KERNEL(ELU, &Prepare, &Eval)

}  // namespace arenaplan::rt
