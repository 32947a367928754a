// SUB for float32, int32, int8 and int16 with broadcasting (up to 6D), bit-exact with TFLM's
// reference kernels. Quantized: both inputs are shifted left (20 bits for int8, 15 for int16),
// rescaled to a common scale 2 * max(s1, s2), subtracted and rescaled to the output; the three
// multipliers come from QuantizeMultiplierSmallerThanOneExp of ratios TFLM computes in float.
// O(output elements).
#include "runtime/kernels/binary_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

struct SubData {
  Broadcast bc;
  AddSubParams q;  // act_min / act_max also clamp int32
  float act_min_f, act_max_f;
};

Status Prepare(KernelContext& ctx) {
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(PrepareSameTypeBinary(ctx, &a, &b, &out));
  const TensorType t = out.type;
  if (t != TensorType::FLOAT32 && t != TensorType::INT32 && t != TensorType::INT8 && t != TensorType::INT16) {
    return ctx.Fail(Status::kUnsupported, "type %s not supported", TypeName(t));
  }
  SubData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  RT_RETURN_IF_ERROR(PrepareBroadcast(ctx, a, b, out, &d->bc));
  const auto* opts = Options<tfl::SubOptions>(ctx);
  const auto act = opts != nullptr ? opts->fused_activation_function() : tfl::ActivationFunctionType::NONE;
  bool ok = true;
  if (t == TensorType::FLOAT32) {
    ok = CalculateActivationRangeFloat(act, &d->act_min_f, &d->act_max_f);
  } else if (t == TensorType::INT32) {
    ok = CalculateActivationRangeInt32(act, &d->act_min_f, &d->act_max_f, &d->q.act_min, &d->q.act_max);
  } else {
    if (a.scale <= 0.0f || b.scale <= 0.0f || out.scale <= 0.0f) {
      return ctx.Fail(Status::kInvalidModel, "quantized tensors need positive scales");
    }
    PrepareAddSubParams<float>(a, b, out, &d->q);  // sub_common.cc takes the ratios in float
    if (d->q.in1_shift > 0 || d->q.in2_shift > 0 || d->q.out_shift > 0) {
      // TFLM assumes multipliers < 1; refuse rather than misbehave
      return ctx.Fail(Status::kUnsupported, "scales give a rescaling multiplier >= 1");
    }
    ok = CalculateActivationRangeQuantized(act, out, &d->q.act_min, &d->q.act_max);
  }
  if (!ok) return ctx.Fail(Status::kUnsupported, "fused activation %d not supported", static_cast<int>(act));
  ctx.set_op_data(d);
  return Status::kOk;
}

Status Eval(KernelContext& ctx) {
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(GetBinaryTensors(ctx, &a, &b, &out));
  const auto& d = *static_cast<const SubData*>(ctx.op_data());
  const auto sub = [](int32_t s1, int32_t s2) { return s1 - s2; };
  switch (out.type) {
    case TensorType::FLOAT32: {
      const float* x = a.As<float>();
      const float* y = b.As<float>();
      float* z = out.As<float>();
      ForEachBroadcast(d.bc, [&](int32_t o, int32_t i, int32_t j) {
        z[o] = ClampFloat(x[i] - y[j], d.act_min_f, d.act_max_f);
      });
      break;
    }
    case TensorType::INT32: {
      const int32_t* x = a.As<int32_t>();
      const int32_t* y = b.As<int32_t>();
      int32_t* z = out.As<int32_t>();
      ForEachBroadcast(d.bc, [&](int32_t o, int32_t i, int32_t j) {
        // Wrapping subtraction (defined behaviour via unsigned).
        const int32_t v = static_cast<int32_t>(static_cast<uint32_t>(x[i]) - static_cast<uint32_t>(y[j]));
        z[o] = ClampInt32(v, d.q.act_min, d.q.act_max);
      });
      break;
    }
    case TensorType::INT8: AddSubQuantized(d.bc, d.q, a.As<int8_t>(), b.As<int8_t>(), out.As<int8_t>(), sub); break;
    default: AddSubQuantized(d.bc, d.q, a.As<int16_t>(), b.As<int16_t>(), out.As<int16_t>(), sub); break;
  }
  return Status::kOk;
}

const KernelRegistration kSub{"SUB", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_SUB() { return &kSub; }

}  // namespace arenaplan::rt
