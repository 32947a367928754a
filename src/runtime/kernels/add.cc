// ADD for float32, int8, int16 and int32 (with broadcasting), bit-exact with TFLM's reference kernels.
// int8/int16: both inputs are rescaled to a common scale 2 * max(s1, s2) with 20 (int16: 15) bits of headroom,
// summed, then rescaled to the output (TFLM add_common.cc); every multiplier comes from
// QuantizeMultiplierSmallerThanOneExp.
#include "runtime/kernels/binary_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

struct AddData {
  Broadcast bc;
  AddSubParams q;
  float act_min_f, act_max_f;
};

Status Prepare(KernelContext& ctx) {
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(PrepareSameTypeBinary(ctx, &a, &b, &out));
  if (out.type != TensorType::FLOAT32 && out.type != TensorType::INT8 && out.type != TensorType::INT16 &&
      out.type != TensorType::INT32) {
    return ctx.Fail(Status::kUnsupported, "type %s not supported", TypeName(out.type));
  }
  AddData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  RT_RETURN_IF_ERROR(PrepareBroadcast(ctx, a, b, out, &d->bc));
  const auto* opts = Options<tfl::AddOptions>(ctx);
  const auto act = opts != nullptr ? opts->fused_activation_function() : tfl::ActivationFunctionType::NONE;
  if (out.type == TensorType::INT32) {
    // TFLM: plain int32 sum, activation range forced to the full int32 range (fused activation
    // ignored).
  } else if (out.type == TensorType::FLOAT32) {
    if (!CalculateActivationRangeFloat(act, &d->act_min_f, &d->act_max_f)) {
      return ctx.Fail(Status::kUnsupported, "fused activation %d not supported", static_cast<int>(act));
    }
  } else {
    if (a.scale <= 0.0f || b.scale <= 0.0f || out.scale <= 0.0f) {
      return ctx.Fail(Status::kInvalidModel, "int8 tensors need positive scales");
    }
    PrepareAddSubParams<double>(a, b, out, &d->q);  // add_common.cc takes the ratios in double
    if (!CalculateActivationRangeQuantized(act, out, &d->q.act_min, &d->q.act_max)) {
      return ctx.Fail(Status::kUnsupported, "fused activation %d not supported", static_cast<int>(act));
    }
  }
  ctx.set_op_data(d);
  return Status::kOk;
}

Status Eval(KernelContext& ctx) {
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(GetBinaryTensors(ctx, &a, &b, &out));
  const auto* d = static_cast<const AddData*>(ctx.op_data());
  const auto add = [](int32_t s1, int32_t s2) { return s1 + s2; };
  if (out.type == TensorType::FLOAT32) {
    const float* x = a.As<float>();
    const float* y = b.As<float>();
    float* z = out.As<float>();
    ForEachBroadcast(d->bc, [&](int32_t o, int32_t i, int32_t j) {
      z[o] = ClampFloat(x[i] + y[j], d->act_min_f, d->act_max_f);
    });
    return Status::kOk;
  }
  if (out.type == TensorType::INT32) {
    const int32_t* x = a.As<int32_t>();
    const int32_t* y = b.As<int32_t>();
    int32_t* z = out.As<int32_t>();
    ForEachBroadcast(d->bc, [&](int32_t o, int32_t i, int32_t j) {
      z[o] = static_cast<int32_t>(static_cast<uint32_t>(x[i]) + static_cast<uint32_t>(y[j]));  // wraps like TFLM
    });
    return Status::kOk;
  }
  if (out.type == TensorType::INT16) {
    AddSubQuantized(d->bc, d->q, a.As<int16_t>(), b.As<int16_t>(), out.As<int16_t>(), add);
  } else {
    AddSubQuantized(d->bc, d->q, a.As<int8_t>(), b.As<int8_t>(), out.As<int8_t>(), add);
  }
  return Status::kOk;
}

const KernelRegistration kAdd{"ADD", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_ADD() { return &kAdd; }

}  // namespace arenaplan::rt
