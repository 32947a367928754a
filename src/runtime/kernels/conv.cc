// CONV_2D, bit-exact with TFLM's reference kernels (reference/conv.h, integer_ops/conv.h):
//   float32:        out = clamp(sum_{fy,fx,ic} in * w + bias), accumulated in float in that order;
//   int8 x int8:    acc = sum w * (in - zp_in) + bias (int32), MultiplyByQuantizedMultiplier per
//                   output channel, + zp_out, clamp;
//   int16 x int8:   acc = sum w * in + bias with an int64 accumulator when the bias is int64 (the
//                   64-bit MultiplyByQuantizedMultiplier), else int32; no zero points (TFLM).
// Grouped convolution (input depth a multiple of the filter depth) and dilation are supported.
// Taps outside the image are skipped (zero padding). O(out_elems * fh * fw * filter_depth) time,
// O(1) extra memory; multipliers are computed once in prepare.
#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

struct ConvData {
  Padding2D pad;
  int32_t stride_h, stride_w, dilation_h, dilation_w;
  int32_t input_offset, output_offset;
  int32_t act_min, act_max;
  float act_min_f, act_max_f;
  int32_t* multipliers;  // per output channel (quantized only)
  int32_t* shifts;
};

struct Geometry {
  int32_t batches, in_h, in_w, in_d, f_h, f_w, f_d, out_h, out_w, out_d, per_group;
};

Geometry MakeGeometry(const TensorView& in, const TensorView& f, const TensorView& out) {
  Geometry g;
  g.batches = out.dims[0];
  g.in_h = in.dims[1];
  g.in_w = in.dims[2];
  g.in_d = in.dims[3];
  g.f_h = f.dims[1];
  g.f_w = f.dims[2];
  g.f_d = f.dims[3];
  g.out_h = out.dims[1];
  g.out_w = out.dims[2];
  g.out_d = out.dims[3];
  g.per_group = g.out_d / (g.in_d / g.f_d);
  return g;
}

Status Prepare(KernelContext& ctx) {
  const uint32_t n_in = ctx.num_inputs();
  if ((n_in != 2 && n_in != 3) || ctx.num_outputs() != 1) {
    return ctx.Fail(Status::kInvalidModel, "expects 2 or 3 inputs and 1 output, got %u and %u", n_in,
                    ctx.num_outputs());
  }
  TensorView in, f, bias, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &f));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const bool has_bias = ctx.GetInput(2, &bias);
  if (in.type != out.type) {
    return ctx.Fail(Status::kInvalidModel, "input type %s differs from output type %s", TypeName(in.type),
                    TypeName(out.type));
  }
  const bool ok_types = (in.type == TensorType::FLOAT32 && f.type == TensorType::FLOAT32) ||
                        (in.type == TensorType::INT8 && f.type == TensorType::INT8) ||
                        (in.type == TensorType::INT16 && f.type == TensorType::INT8);
  if (!ok_types) {
    return ctx.Fail(Status::kUnsupported, "input %s with filter %s not supported (hybrid models are not)",
                    TypeName(in.type), TypeName(f.type));
  }
  if (!HasShape(in, 4) || !HasShape(f, 4) || !HasShape(out, 4)) {
    return ctx.Fail(Status::kInvalidModel, "input, filter and output must be rank-4 tensors with data");
  }
  if (f.data == nullptr) return ctx.Fail(Status::kUnsupported, "filter must be a constant tensor");
  if (in.dims[0] != out.dims[0] || f.dims[0] != out.dims[3] || f.dims[3] <= 0 || in.dims[3] % f.dims[3] != 0 ||
      in.dims[3] / f.dims[3] == 0 || out.dims[3] % (in.dims[3] / f.dims[3]) != 0) {
    return ctx.Fail(Status::kInvalidModel,
                    "shapes do not match: input depth %d, filter [%d,%d,%d,%d], output depth %d", in.dims[3],
                    f.dims[0], f.dims[1], f.dims[2], f.dims[3], out.dims[3]);
  }
  const int32_t channels = out.dims[3];
  if (has_bias) {
    const TensorType want = in.type == TensorType::FLOAT32 ? TensorType::FLOAT32 : TensorType::INT32;
    const bool bias_ok = bias.type == want || (in.type == TensorType::INT16 && bias.type == TensorType::INT64);
    if (!bias_ok) return ctx.Fail(Status::kUnsupported, "bias type %s not supported", TypeName(bias.type));
    if (!HasShape(bias, -1) || ElementCount(bias) != channels || bias.data == nullptr) {
      return ctx.Fail(Status::kInvalidModel, "bias must be constant with %d elements", channels);
    }
  }
  const auto* o = Options<tfl::Conv2DOptions>(ctx);
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(ConvData), &mem));
  auto* d = static_cast<ConvData*>(mem);
  d->stride_h = o != nullptr ? o->stride_h() : 1;
  d->stride_w = o != nullptr ? o->stride_w() : 1;
  d->dilation_h = o != nullptr ? o->dilation_h_factor() : 1;
  d->dilation_w = o != nullptr ? o->dilation_w_factor() : 1;
  if (d->stride_h < 1 || d->stride_w < 1 || d->dilation_h < 1 || d->dilation_w < 1) {
    return ctx.Fail(Status::kInvalidModel, "strides (%d, %d) and dilations (%d, %d) must be >= 1", d->stride_h,
                    d->stride_w, d->dilation_h, d->dilation_w);
  }
  const tfl::Padding padding = o != nullptr ? o->padding() : tfl::Padding::SAME;
  d->pad = ComputePadding2D(padding, d->stride_h, d->stride_w, d->dilation_h, d->dilation_w, in.dims[1],
                            in.dims[2], f.dims[1], f.dims[2]);
  const auto act = o != nullptr ? o->fused_activation_function() : tfl::ActivationFunctionType::NONE;
  d->multipliers = nullptr;
  d->shifts = nullptr;
  if (in.type == TensorType::FLOAT32) {
    if (!CalculateActivationRangeFloat(act, &d->act_min_f, &d->act_max_f)) {
      return ctx.Fail(Status::kUnsupported, "fused activation %d not supported", static_cast<int>(act));
    }
  } else {
    RT_RETURN_IF_ERROR(AllocateInt32(ctx, channels, &d->multipliers));
    RT_RETURN_IF_ERROR(AllocateInt32(ctx, channels, &d->shifts));
    RT_RETURN_IF_ERROR(PopulatePerChannelMultipliers(ctx, in, f, out, channels, d->multipliers, d->shifts));
    if (!CalculateActivationRangeQuantized(act, out, &d->act_min, &d->act_max)) {
      return ctx.Fail(Status::kUnsupported, "fused activation %d not supported", static_cast<int>(act));
    }
    d->input_offset = -in.zero_point;
    d->output_offset = out.zero_point;
  }
  ctx.set_op_data(d);
  return Status::kOk;
}

void EvalFloat(const ConvData& d, const Geometry& g, const float* in, const float* w, const float* bias,
               float* out) {
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.out_h; ++oy) {
      const int32_t iy0 = oy * d.stride_h - d.pad.height;
      int32_t fy0 = 0, fy1 = 0;
      ValidTaps(iy0, d.dilation_h, g.f_h, g.in_h, &fy0, &fy1);
      for (int32_t ox = 0; ox < g.out_w; ++ox) {
        const int32_t ix0 = ox * d.stride_w - d.pad.width;
        int32_t fx0 = 0, fx1 = 0;
        ValidTaps(ix0, d.dilation_w, g.f_w, g.in_w, &fx0, &fx1);
        float* o = out + ((b * g.out_h + oy) * g.out_w + ox) * g.out_d;
        for (int32_t oc = 0; oc < g.out_d; ++oc) {
          const int32_t in_c0 = (oc / g.per_group) * g.f_d;
          float total = 0.0f;
          for (int32_t fy = fy0; fy < fy1; ++fy) {
            const int32_t iy = iy0 + d.dilation_h * fy;
            for (int32_t fx = fx0; fx < fx1; ++fx) {
              const int32_t ix = ix0 + d.dilation_w * fx;
              const float* x = in + ((b * g.in_h + iy) * g.in_w + ix) * g.in_d + in_c0;
              const float* k = w + ((oc * g.f_h + fy) * g.f_w + fx) * g.f_d;
              for (int32_t ic = 0; ic < g.f_d; ++ic) total += x[ic] * k[ic];
            }
          }
          const float v = total + (bias != nullptr ? LoadUnaligned<float>(bias, oc) : 0.0f);
          const float lo = v < d.act_min_f ? d.act_min_f : v;
          o[oc] = lo > d.act_max_f ? d.act_max_f : lo;
        }
      }
    }
  }
}

// Wrapping add: TFLM's int32 accumulation overflows only for absurd filters; stay defined anyway.
inline int32_t Wrap(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int64_t Wrap(int64_t a, int64_t b) { return a + b; }

template <typename In, typename Acc, typename Bias, typename Out>
void EvalQuantized(const ConvData& d, const Geometry& g, const In* in, const int8_t* w, const Bias* bias,
                   int32_t input_offset, int32_t output_offset, Out* out) {
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.out_h; ++oy) {
      const int32_t iy0 = oy * d.stride_h - d.pad.height;
      int32_t fy0 = 0, fy1 = 0;
      ValidTaps(iy0, d.dilation_h, g.f_h, g.in_h, &fy0, &fy1);
      for (int32_t ox = 0; ox < g.out_w; ++ox) {
        const int32_t ix0 = ox * d.stride_w - d.pad.width;
        int32_t fx0 = 0, fx1 = 0;
        ValidTaps(ix0, d.dilation_w, g.f_w, g.in_w, &fx0, &fx1);
        Out* o = out + ((b * g.out_h + oy) * g.out_w + ox) * g.out_d;
        for (int32_t oc = 0; oc < g.out_d; ++oc) {
          const int32_t in_c0 = (oc / g.per_group) * g.f_d;
          Acc acc = 0;
          for (int32_t fy = fy0; fy < fy1; ++fy) {
            const int32_t iy = iy0 + d.dilation_h * fy;
            for (int32_t fx = fx0; fx < fx1; ++fx) {
              const int32_t ix = ix0 + d.dilation_w * fx;
              const In* x = in + ((b * g.in_h + iy) * g.in_w + ix) * g.in_d + in_c0;
              const int8_t* k = w + ((oc * g.f_h + fy) * g.f_w + fx) * g.f_d;
              // Integer sums are order-independent (wrapping), so this loop may be vectorized.
              Acc part = 0;
              for (int32_t ic = 0; ic < g.f_d; ++ic) {
                part = Wrap(part, static_cast<Acc>(static_cast<int32_t>(k[ic]) *
                                                   (static_cast<int32_t>(x[ic]) + input_offset)));
              }
              acc = Wrap(acc, part);
            }
          }
          if (bias != nullptr) acc = Wrap(acc, static_cast<Acc>(LoadUnaligned<Bias>(bias, oc)));
          int32_t r = MultiplyByQuantizedMultiplier(acc, d.multipliers[oc], d.shifts[oc]) + output_offset;
          r = r < d.act_min ? d.act_min : (r > d.act_max ? d.act_max : r);
          o[oc] = static_cast<Out>(r);
        }
      }
    }
  }
}

Status Eval(KernelContext& ctx) {
  TensorView in, f, bias, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &f));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const bool has_bias = ctx.GetInput(2, &bias);
  const auto* d = static_cast<const ConvData*>(ctx.op_data());
  const Geometry g = MakeGeometry(in, f, out);
  switch (in.type) {
    case TensorType::FLOAT32:
      EvalFloat(*d, g, in.As<float>(), f.As<float>(), has_bias ? bias.As<float>() : nullptr, out.As<float>());
      return Status::kOk;
    case TensorType::INT8:
      EvalQuantized<int8_t, int32_t, int32_t, int8_t>(*d, g, in.As<int8_t>(), f.As<int8_t>(),
                                                      has_bias ? bias.As<int32_t>() : nullptr, d->input_offset,
                                                      d->output_offset, out.As<int8_t>());
      return Status::kOk;
    case TensorType::INT16:
      if (has_bias && bias.type == TensorType::INT64) {
        EvalQuantized<int16_t, int64_t, int64_t, int16_t>(*d, g, in.As<int16_t>(), f.As<int8_t>(),
                                                          bias.As<int64_t>(), 0, 0, out.As<int16_t>());
      } else {
        EvalQuantized<int16_t, int32_t, int32_t, int16_t>(*d, g, in.As<int16_t>(), f.As<int8_t>(),
                                                          has_bias ? bias.As<int32_t>() : nullptr, 0, 0,
                                                          out.As<int16_t>());
      }
      return Status::kOk;
    default:
      return ctx.Fail(Status::kUnsupported, "type %s not supported", TypeName(in.type));
  }
}

const KernelRegistration kConv2D{"CONV_2D", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_CONV_2D() { return &kConv2D; }

}  // namespace arenaplan::rt
