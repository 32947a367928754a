// SUB for float32, int32, int8 and int16 with broadcasting (up to 6D), bit-exact with TFLM's
// reference kernels. Quantized: both inputs are shifted left (20 bits for int8, 15 for int16),
// rescaled to a common scale 2 * max(s1, s2), subtracted and rescaled to the output; the three
// multipliers come from QuantizeMultiplierSmallerThanOneExp of ratios TFLM computes in float.
// O(output elements).
#include "runtime/kernels/broadcast.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

struct SubData {
  Broadcast bc;
  int32_t in1_offset, in2_offset, out_offset;
  int32_t in1_mult, in2_mult, out_mult;
  int32_t in1_shift, in2_shift, out_shift;
  int32_t left_shift;
  int32_t act_min, act_max;
  float act_min_f, act_max_f;
};

Status Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &a));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &b));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (a.type != out.type || b.type != out.type) {
    return ctx.Fail(Status::kInvalidModel, "input types %s, %s differ from output type %s", TypeName(a.type),
                    TypeName(b.type), TypeName(out.type));
  }
  const TensorType t = out.type;
  if (t != TensorType::FLOAT32 && t != TensorType::INT32 && t != TensorType::INT8 && t != TensorType::INT16) {
    return ctx.Fail(Status::kUnsupported, "type %s not supported", TypeName(t));
  }
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(SubData), &mem));
  auto* d = static_cast<SubData*>(mem);
  *d = SubData{};
  if (!MakeBroadcast(a, b, out, &d->bc)) {
    return ctx.Fail(Status::kInvalidModel, "shapes of rank %d and %d do not broadcast to the output (rank %d)",
                    a.rank, b.rank, out.rank);
  }
  const auto* opts = Options<tfl::SubOptions>(ctx);
  const auto act = opts != nullptr ? opts->fused_activation_function() : tfl::ActivationFunctionType::NONE;
  bool ok = true;
  if (t == TensorType::FLOAT32) {
    ok = CalculateActivationRangeFloat(act, &d->act_min_f, &d->act_max_f);
  } else if (t == TensorType::INT32) {
    // Plain int32 (TFLM's CalculateActivationRange<int32_t>): RELU clamps at 0, RELU6 at [0, 6].
    ok = CalculateActivationRangeFloat(act, &d->act_min_f, &d->act_max_f);
    d->act_min = act == tfl::ActivationFunctionType::NONE ? INT32_MIN : static_cast<int32_t>(d->act_min_f);
    d->act_max = d->act_max_f >= 2147483647.0f ? INT32_MAX : static_cast<int32_t>(d->act_max_f);
  } else {
    if (a.scale <= 0.0f || b.scale <= 0.0f || out.scale <= 0.0f) {
      return ctx.Fail(Status::kInvalidModel, "quantized tensors need positive scales");
    }
    d->in1_offset = -a.zero_point;
    d->in2_offset = -b.zero_point;
    d->out_offset = out.zero_point;
    d->left_shift = t == TensorType::INT16 ? 15 : 20;
    // Float arithmetic, then widened: exactly TFLM's sub_common.cc.
    const float twice_max = 2 * (a.scale > b.scale ? a.scale : b.scale);
    int s1 = 0, s2 = 0, so = 0;
    QuantizeMultiplierSmallerThanOneExp(static_cast<double>(a.scale / twice_max), &d->in1_mult, &s1);
    QuantizeMultiplierSmallerThanOneExp(static_cast<double>(b.scale / twice_max), &d->in2_mult, &s2);
    QuantizeMultiplierSmallerThanOneExp(
        static_cast<double>(twice_max / ((1 << d->left_shift) * out.scale)), &d->out_mult, &so);
    if (s1 > 0 || s2 > 0 || so > 0) {  // TFLM assumes multipliers < 1; refuse rather than misbehave
      return ctx.Fail(Status::kUnsupported, "scales give a rescaling multiplier >= 1");
    }
    d->in1_shift = s1;
    d->in2_shift = s2;
    d->out_shift = so;
    ok = CalculateActivationRangeQuantized(act, out, &d->act_min, &d->act_max);
  }
  if (!ok) return ctx.Fail(Status::kUnsupported, "fused activation %d not supported", static_cast<int>(act));
  ctx.set_op_data(d);
  return Status::kOk;
}

template <typename T>
void SubQuant(const SubData& d, const T* x, const T* y, T* z) {
  ForEachBroadcast(d.bc, [&](int32_t o, int32_t i, int32_t j) {
    const int32_t v1 = (d.in1_offset + x[i]) * (1 << d.left_shift);
    const int32_t v2 = (d.in2_offset + y[j]) * (1 << d.left_shift);
    const int32_t s1 = MultiplyByQuantizedMultiplierSmallerThanOneExp(v1, d.in1_mult, d.in1_shift);
    const int32_t s2 = MultiplyByQuantizedMultiplierSmallerThanOneExp(v2, d.in2_mult, d.in2_shift);
    int32_t r = MultiplyByQuantizedMultiplierSmallerThanOneExp(s1 - s2, d.out_mult, d.out_shift) + d.out_offset;
    r = r < d.act_min ? d.act_min : (r > d.act_max ? d.act_max : r);
    z[o] = static_cast<T>(r);
  });
}

Status Eval(KernelContext& ctx) {
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &a));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &b));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const auto& d = *static_cast<const SubData*>(ctx.op_data());
  switch (out.type) {
    case TensorType::FLOAT32: {
      const float* x = a.As<float>();
      const float* y = b.As<float>();
      float* z = out.As<float>();
      ForEachBroadcast(d.bc, [&](int32_t o, int32_t i, int32_t j) {
        const float v = x[i] - y[j];
        z[o] = v < d.act_min_f ? d.act_min_f : (v > d.act_max_f ? d.act_max_f : v);
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
        z[o] = v < d.act_min ? d.act_min : (v > d.act_max ? d.act_max : v);
      });
      break;
    }
    case TensorType::INT8: SubQuant(d, a.As<int8_t>(), b.As<int8_t>(), out.As<int8_t>()); break;
    default: SubQuant(d, a.As<int16_t>(), b.As<int16_t>(), out.As<int16_t>()); break;
  }
  return Status::kOk;
}

const KernelRegistration kSub{"SUB", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_SUB() { return &kSub; }

}  // namespace arenaplan::rt
