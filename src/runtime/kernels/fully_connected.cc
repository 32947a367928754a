// FULLY_CONNECTED, bit-exact with TFLM's reference kernels (reference/fully_connected.h,
// integer_ops/fully_connected.h). The output's last dim is the unit count; every other output dim
// is a batch (keep_num_dims only changes the output shape, which the model carries):
//   float32:          out = clamp(sum_d in * w + bias);
//   int8, per tensor: acc = sum (w - zp_w) * (in - zp_in) + bias, M = float(s_in * s_w) / s_out;
//   int8, per channel (filter with one scale per unit): acc = sum w * (in - zp_in) + bias,
//                     M_c = s_in * s_w[c] / s_out in double;
//   int16 x int8:     acc = sum (w - zp_w) * in + bias, int64 when the bias is int64 (else int32),
//                     no output zero point (TFLM).
// Weights and bias may be computed at run time (read at eval only), as on TFLM. Packed INT4 weights
// (int8 input) are unpacked into an arena scratch buffer on every Invoke, as TFLM does.
// O(batches * units * depth) time, O(1) extra memory.
#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

StatusCode Prepare(KernelContext& ctx) {
  ConvTensors t;
  RT_RETURN_IF_ERROR(PrepareConvTensors(ctx, 0, 1, &t));
  const TensorView &in = t.in, &f = t.filter, &bias = t.bias, &out = t.out;
  const bool has_bias = t.has_bias;
  if (!SupportedConvTypes(in.type, f.type)) {
    return ctx.Fail(StatusCode::kUnsupported, "input %s with filter %s not supported", TypeName(in.type),
                    TypeName(f.type));
  }
  if (!HasShape(in, -1) || !HasShape(f, -1) || !HasShape(out, -1) || f.rank < 2 || out.rank < 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "filter must have rank >= 2 and output rank >= 1, with data");
  }
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(FcData), &mem));
  auto* d = static_cast<FcData*>(mem);
  RT_RETURN_IF_ERROR(RequestInt4FilterScratch(ctx, f, &d->filter_scratch));
  d->units = Dim(out, -1);
  d->depth = Dim(f, -1);
  d->batches = d->units > 0 ? static_cast<int32_t>(ElementCount(out) / d->units) : 0;
  if (d->units > Dim(f, -2) || (in.type == TensorType::FLOAT32 && d->units != Dim(f, -2)) ||
      static_cast<int64_t>(d->batches) * d->depth > ElementCount(in)) {
    return ctx.Fail(StatusCode::kInvalidModel,
                    "shapes do not match: weights [.., %d, %d], output units %d, input has %d elements", Dim(f, -2),
                    d->depth, d->units, static_cast<int32_t>(ElementCount(in)));
  }
  if (has_bias) {
    TensorType want = in.type == TensorType::FLOAT32 ? TensorType::FLOAT32 : TensorType::INT32;
    const bool bias_ok = bias.type == want || (in.type == TensorType::INT16 && bias.type == TensorType::INT64);
    if (!bias_ok) return ctx.Fail(StatusCode::kUnsupported, "bias type %s not supported", TypeName(bias.type));
    if (!HasShape(bias, -1) || ElementCount(bias) < d->units) {
      return ctx.Fail(StatusCode::kInvalidModel, "bias must have %d elements", d->units);
    }
  }
  const auto* o = Options<tfl::FullyConnectedOptions>(ctx);
  if (o != nullptr && o->weights_format() != tfl::FullyConnectedOptionsWeightsFormat::DEFAULT) {
    return ctx.Fail(StatusCode::kUnsupported, "shuffled weights format %d not supported",
                    static_cast<int>(o->weights_format()));
  }
  const auto act = o != nullptr ? o->fused_activation_function() : tfl::ActivationFunctionType::NONE;
  d->multipliers = nullptr;
  d->shifts = nullptr;
  if (in.type == TensorType::FLOAT32) {
    if (!CalculateActivationRangeFloat(act, &d->act_min_f, &d->act_max_f)) {
      return ctx.Fail(StatusCode::kUnsupported, "fused activation %d not supported", static_cast<int>(act));
    }
    ctx.set_op_data(d);
    return StatusCode::kOk;
  }
  if (in.scale <= 0.0f || out.scale <= 0.0f || f.num_channels < 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "quantized input, weights and output need positive scales");
  }
  if (f.num_channels > 1) {
    if (in.type != TensorType::INT8) {
      return ctx.Fail(StatusCode::kUnsupported, "per-channel weights are supported for int8 input only");
    }
    if (f.quantized_dimension < 0 || f.quantized_dimension >= f.rank ||
        f.num_channels != f.dims[f.quantized_dimension] || f.num_channels < d->units) {
      return ctx.Fail(StatusCode::kInvalidModel, "weights have %d scales along dimension %d", f.num_channels,
                      f.quantized_dimension);
    }
    RT_RETURN_IF_ERROR(AllocateInt32(ctx, f.num_channels, &d->multipliers));
    RT_RETURN_IF_ERROR(AllocateInt32(ctx, f.num_channels, &d->shifts));
    RT_RETURN_IF_ERROR(PopulatePerChannelMultipliers(ctx, in, f, out, f.num_channels, d->multipliers, d->shifts));
  } else {
    if (!(f.scale > 0.0f)) return ctx.Fail(StatusCode::kInvalidModel, "weights scale is not positive");
    // TFLM GetQuantizedConvolutionMultipler: the product is taken in float, then widened.
    const double real = static_cast<double>(in.scale * f.scale) / static_cast<double>(out.scale);
    int shift = 0;
    QuantizeMultiplier(real, &d->multiplier, &shift);
    d->shift = shift;
  }
  d->input_offset = in.type == TensorType::INT16 ? 0 : -in.zero_point;  // TFLM ignores it for int16
  d->filter_offset = -f.zero_point;
  d->output_offset = out.zero_point;
  if (!CalculateActivationRangeQuantized(act, out, &d->act_min, &d->act_max)) {
    return ctx.Fail(StatusCode::kUnsupported, "fused activation %d not supported", static_cast<int>(act));
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

void EvalFloat(const FcData& d, const float* in, const float* w, const float* bias, float* out) {
  for (int32_t b = 0; b < d.batches; ++b) {
    const float* x = in + b * d.depth;
    for (int32_t u = 0; u < d.units; ++u) {
      const float* k = w + u * d.depth;
      float total = 0.0f;
      for (int32_t i = 0; i < d.depth; ++i) total += x[i] * k[i];
      const float v = total + (bias != nullptr ? LoadUnaligned<float>(bias, u) : 0.0f);
      const float lo = v < d.act_min_f ? d.act_min_f : v;
      out[u + d.units * b] = lo > d.act_max_f ? d.act_max_f : lo;
    }
  }
}

// filter_offset is 0 on the per-channel path; output_offset is 0 for int16 (TFLM adds none).
template <typename In, typename Acc, typename Bias, typename Out>
void EvalQuantized(const FcData& d, const In* in, const int8_t* w, const Bias* bias, int32_t filter_offset,
                   int32_t output_offset, Out* out) {
  for (int32_t b = 0; b < d.batches; ++b) {
    const In* x = in + b * d.depth;
    for (int32_t u = 0; u < d.units; ++u) {
      const int8_t* k = w + u * d.depth;
      Acc acc = 0;
      for (int32_t i = 0; i < d.depth; ++i) {
        acc = WrappingAdd(acc, static_cast<Acc>((static_cast<int32_t>(k[i]) + filter_offset) *
                                                (static_cast<int32_t>(x[i]) + d.input_offset)));
      }
      if (bias != nullptr) acc = WrappingAdd(acc, static_cast<Acc>(LoadUnaligned<Bias>(bias, u)));
      const int32_t m = d.multipliers != nullptr ? d.multipliers[u] : d.multiplier;
      const int32_t s = d.multipliers != nullptr ? d.shifts[u] : d.shift;
      int32_t r = MultiplyByQuantizedMultiplier(acc, m, s) + output_offset;
      r = r < d.act_min ? d.act_min : (r > d.act_max ? d.act_max : r);
      out[u + d.units * b] = static_cast<Out>(r);
    }
  }
}

StatusCode Eval(KernelContext& ctx) {
  ConvTensors t;
  RT_RETURN_IF_ERROR(GetConvTensors(ctx, 0, 1, &t));
  const TensorView &in = t.in, &f = t.filter, &bias = t.bias, &out = t.out;
  const bool has_bias = t.has_bias;
  const auto* d = static_cast<const FcData*>(ctx.op_data());
  switch (in.type) {
    case TensorType::FLOAT32:
      EvalFloat(*d, in.As<float>(), f.As<float>(), has_bias ? bias.As<float>() : nullptr, out.As<float>());
      return StatusCode::kOk;
    case TensorType::INT8: {
      const int8_t* w = FilterInt8(ctx, f, d->filter_scratch);  // INT4: unpacked into scratch
      if (w == nullptr) return ctx.Fail(StatusCode::kKernelError, "INT4 filter scratch missing");
      EvalQuantized<int8_t, int32_t, int32_t, int8_t>(*d, in.As<int8_t>(), w, has_bias ? bias.As<int32_t>() : nullptr,
                                                      d->multipliers != nullptr ? 0 : d->filter_offset,
                                                      d->output_offset, out.As<int8_t>());
      return StatusCode::kOk;
    }
    case TensorType::INT16:
      if (has_bias && bias.type == TensorType::INT64) {
        EvalQuantized<int16_t, int64_t, int64_t, int16_t>(*d, in.As<int16_t>(), f.As<int8_t>(), bias.As<int64_t>(),
                                                          d->filter_offset, 0, out.As<int16_t>());
      } else {
        EvalQuantized<int16_t, int32_t, int32_t, int16_t>(*d, in.As<int16_t>(), f.As<int8_t>(),
                                                          has_bias ? bias.As<int32_t>() : nullptr, d->filter_offset, 0,
                                                          out.As<int16_t>());
      }
      return StatusCode::kOk;
    default: return ctx.Fail(StatusCode::kUnsupported, "type %s not supported", TypeName(in.type));
  }
}

const KernelRegistration kFullyConnected{"FULLY_CONNECTED", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_FULLY_CONNECTED() { return &kFullyConnected; }

}  // namespace arenaplan::rt
