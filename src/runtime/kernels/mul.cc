// MUL for float32, int32, int8 and int16 with broadcasting (up to 6D), bit-exact with TFLM's
// reference kernels. Quantized: out = zp_out + MultiplyByQuantizedMultiplier((a - zp_a) * (b - zp_b),
// M, s) with M, s = QuantizeMultiplier(s_a * s_b / s_out) in double, clamped to the activation
// range. int16 requires zero points 0 (as TFLM). O(output elements).
#include "runtime/kernels/binary_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

struct MulData {
  Broadcast bc;
  int32_t in1_offset, in2_offset, out_offset;
  int32_t out_mult, out_shift;
  int32_t act_min, act_max;
  float act_min_f, act_max_f;
};

Status Prepare(KernelContext& ctx) {
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(PrepareSameTypeBinary(ctx, &a, &b, &out));
  const TensorType t = out.type;
  if (t != TensorType::FLOAT32 && t != TensorType::INT32 && t != TensorType::INT8 && t != TensorType::INT16) {
    return ctx.Fail(Status::kUnsupported, "type %s not supported", TypeName(t));
  }
  MulData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  RT_RETURN_IF_ERROR(PrepareBroadcast(ctx, a, b, out, &d->bc));
  const auto* opts = Options<tfl::MulOptions>(ctx);
  const auto act = opts != nullptr ? opts->fused_activation_function() : tfl::ActivationFunctionType::NONE;
  bool ok = true;
  if (t == TensorType::FLOAT32) {
    ok = CalculateActivationRangeFloat(act, &d->act_min_f, &d->act_max_f);
  } else if (t == TensorType::INT32) {
    ok = CalculateActivationRangeInt32(act, &d->act_min_f, &d->act_max_f, &d->act_min, &d->act_max);
  } else {
    if (a.scale <= 0.0f || b.scale <= 0.0f || out.scale <= 0.0f) {
      return ctx.Fail(Status::kInvalidModel, "quantized tensors need positive scales");
    }
    if (t == TensorType::INT16 && (a.zero_point != 0 || b.zero_point != 0 || out.zero_point != 0)) {
      return ctx.Fail(Status::kInvalidModel, "int16 MUL needs zero points 0");
    }
    ok = CalculateActivationRangeQuantized(act, out, &d->act_min, &d->act_max);
    int shift = 0;
    QuantizeMultiplier(static_cast<double>(a.scale) * static_cast<double>(b.scale) / static_cast<double>(out.scale),
                       &d->out_mult, &shift);
    d->out_shift = shift;
    d->in1_offset = -a.zero_point;
    d->in2_offset = -b.zero_point;
    d->out_offset = out.zero_point;
  }
  if (!ok) return ctx.Fail(Status::kUnsupported, "fused activation %d not supported", static_cast<int>(act));
  ctx.set_op_data(d);
  return Status::kOk;
}

template <typename T>
void MulQuant(const MulData& d, const T* x, const T* y, T* z) {
  ForEachBroadcast(d.bc, [&](int32_t o, int32_t i, int32_t j) {
    const int32_t v = (d.in1_offset + x[i]) * (d.in2_offset + y[j]);
    const int32_t r = d.out_offset + MultiplyByQuantizedMultiplier(v, d.out_mult, d.out_shift);
    z[o] = static_cast<T>(ClampInt32(r, d.act_min, d.act_max));
  });
}

Status Eval(KernelContext& ctx) {
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(GetBinaryTensors(ctx, &a, &b, &out));
  const auto& d = *static_cast<const MulData*>(ctx.op_data());
  switch (out.type) {
    case TensorType::FLOAT32: {
      const float* x = a.As<float>();
      const float* y = b.As<float>();
      float* z = out.As<float>();
      ForEachBroadcast(d.bc, [&](int32_t o, int32_t i, int32_t j) {
        z[o] = ClampFloat(x[i] * y[j], d.act_min_f, d.act_max_f);
      });
      break;
    }
    case TensorType::INT32: {
      const int32_t* x = a.As<int32_t>();
      const int32_t* y = b.As<int32_t>();
      int32_t* z = out.As<int32_t>();
      ForEachBroadcast(d.bc, [&](int32_t o, int32_t i, int32_t j) {
        const int32_t v = static_cast<int32_t>(static_cast<uint32_t>(x[i]) * static_cast<uint32_t>(y[j]));
        z[o] = ClampInt32(v, d.act_min, d.act_max);
      });
      break;
    }
    case TensorType::INT8: MulQuant(d, a.As<int8_t>(), b.As<int8_t>(), out.As<int8_t>()); break;
    default: MulQuant(d, a.As<int16_t>(), b.As<int16_t>(), out.As<int16_t>()); break;
  }
  return Status::kOk;
}

const KernelRegistration kMul{"MUL", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_MUL() { return &kMul; }

}  // namespace arenaplan::rt
