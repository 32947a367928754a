// CONV_2D, bit-exact with TFLM's reference kernels (reference/conv.h, integer_ops/conv.h):
//   float32:        out = clamp(sum_{fy,fx,ic} in * w + bias), accumulated in float in that order;
//   int8 x int8:    acc = sum w * (in - zp_in) + bias (int32), MultiplyByQuantizedMultiplier per
//                   output channel, + zp_out, clamp;
//   int16 x int8:   acc = sum w * in + bias with an int64 accumulator when the bias is int64 (the
//                   64-bit MultiplyByQuantizedMultiplier), else int32; no zero points (TFLM).
// Grouped convolution (input depth a multiple of the filter depth) and dilation are supported.
// Packed INT4 filters (int8 input) are unpacked into an arena scratch buffer on every Invoke (TFLM).
// Taps outside the image are skipped (zero padding). Streams rows (KernelContext::StreamPadTop):
// the loop reads only the view it is given, the top padding may come per row. O(out_elems * fh * fw * filter_depth) time,
// O(1) extra memory; multipliers are computed once in prepare.
#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

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

StatusCode Prepare(KernelContext& ctx) {
  ConvTensors t;
  RT_RETURN_IF_ERROR(PrepareConvTensors(ctx, 0, 1, &t));
  RT_RETURN_IF_ERROR(CheckConv2DTensors(ctx, t));
  const TensorView &in = t.in, &f = t.filter, &bias = t.bias, &out = t.out;
  if (in.dims[0] != out.dims[0] || f.dims[0] != out.dims[3] || f.dims[3] <= 0 || in.dims[3] % f.dims[3] != 0 ||
      in.dims[3] / f.dims[3] == 0 || out.dims[3] % (in.dims[3] / f.dims[3]) != 0) {
    return ctx.Fail(StatusCode::kInvalidModel,
                    "shapes do not match: input depth %d, filter [%d,%d,%d,%d], output depth %d", in.dims[3], f.dims[0],
                    f.dims[1], f.dims[2], f.dims[3], out.dims[3]);
  }
  const int32_t channels = out.dims[3];
  if (t.has_bias) {
    const TensorType want = in.type == TensorType::FLOAT32 ? TensorType::FLOAT32 : TensorType::INT32;
    const bool bias_ok = bias.type == want || (in.type == TensorType::INT16 && bias.type == TensorType::INT64);
    if (!bias_ok) return ctx.Fail(StatusCode::kUnsupported, "bias type %s not supported", TypeName(bias.type));
    if (!HasShape(bias, -1) || ElementCount(bias) != channels) {  // computed at run time is fine, as on TFLM
      return ctx.Fail(StatusCode::kInvalidModel, "bias must have %d elements", channels);
    }
  }
  const auto* o = Options<tfl::Conv2DOptions>(ctx);
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(ConvData), &mem));
  auto* d = static_cast<ConvData*>(mem);
  d->dsp_scratch = -1;
  RT_RETURN_IF_ERROR(PrepareConvWindow(ctx, o, in, f, out, &d->w));
  const auto act = o != nullptr ? o->fused_activation_function() : tfl::ActivationFunctionType::NONE;
  RT_RETURN_IF_ERROR(PrepareConvOutput(ctx, act, in, f, out, channels, &d->q));
  RT_RETURN_IF_ERROR(RequestInt4FilterScratch(ctx, f, &d->q.filter_scratch));  // after the multipliers, as TFLM
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

// Adds one filter tap (n input channels) to acc in the reference kernels' order: float sums in
// sequence; integer sums are order-independent (wrapping), so that loop may be vectorized.
inline float AccumulateTap(float acc, const float* x, const float* k, int32_t n, int32_t) {
  for (int32_t ic = 0; ic < n; ++ic) acc += x[ic] * k[ic];
  return acc;
}
template <typename In, typename Acc>
inline Acc AccumulateTap(Acc acc, const In* x, const int8_t* k, int32_t n, int32_t input_offset) {
  Acc part = 0;
  for (int32_t ic = 0; ic < n; ++ic) {
    part = WrappingAdd(part,
                       static_cast<Acc>(static_cast<int32_t>(k[ic]) * (static_cast<int32_t>(x[ic]) + input_offset)));
  }
  return WrappingAdd(acc, part);
}

// One loop nest for all types: finish(acc, oc) adds the bias and produces the output value.
template <typename In, typename W, typename Acc, typename Out, typename Finish>
void Run(const ConvWindow& d, const Geometry& g, const In* in, const W* w, int32_t input_offset, Out* out,
         Finish finish) {
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
              const W* k = w + ((oc * g.f_h + fy) * g.f_w + fx) * g.f_d;
              acc = AccumulateTap(acc, x, k, g.f_d, input_offset);
            }
          }
          o[oc] = finish(acc, oc);
        }
      }
    }
  }
}

void EvalFloat(const ConvData& d, const Geometry& g, const float* in, const float* w, const float* bias, float* out) {
  Run<float, float, float, float>(d.w, g, in, w, 0, out, [&](float total, int32_t oc) {
    return ClampConvOutput(d.q, total + (bias != nullptr ? LoadUnaligned<float>(bias, oc) : 0.0f));
  });
}

template <typename In, typename Acc, typename Bias, typename Out>
void EvalQuantized(const ConvData& d, const Geometry& g, const In* in, const int8_t* w, const Bias* bias,
                   int32_t input_offset, int32_t output_offset, Out* out) {
  Run<In, int8_t, Acc, Out>(d.w, g, in, w, input_offset, out, [&](Acc acc, int32_t oc) {
    if (bias != nullptr) acc = WrappingAdd(acc, static_cast<Acc>(LoadUnaligned<Bias>(bias, oc)));
    return static_cast<Out>(RequantizeConvOutput(d.q, acc, oc, output_offset));
  });
}

StatusCode Eval(KernelContext& ctx) {
  ConvTensors t;
  RT_RETURN_IF_ERROR(GetConvTensors(ctx, 0, 1, &t));
  const TensorView &in = t.in, &f = t.filter, &bias = t.bias, &out = t.out;
  const bool has_bias = t.has_bias;
  ConvData row = *static_cast<const ConvData*>(ctx.op_data());
  int32_t top = 0;
  if (ctx.StreamPadTop(&top)) row.w.pad.height = top;  // one output row of a stream: its own top padding
  const ConvData* d = &row;
  const Geometry g = MakeGeometry(in, f, out);
  switch (in.type) {
    case TensorType::FLOAT32:
      EvalFloat(*d, g, in.As<float>(), f.As<float>(), has_bias ? bias.As<float>() : nullptr, out.As<float>());
      return StatusCode::kOk;
    case TensorType::INT8: {
      const int8_t* w = FilterInt8(ctx, f, d->q.filter_scratch);  // INT4: unpacked into scratch
      if (w == nullptr) return ctx.Fail(StatusCode::kKernelError, "INT4 filter scratch missing");
      EvalQuantized<int8_t, int32_t, int32_t, int8_t>(*d, g, in.As<int8_t>(), w, has_bias ? bias.As<int32_t>() : nullptr,
                                                      d->q.input_offset, d->q.output_offset, out.As<int8_t>());
      return StatusCode::kOk;
    }
    case TensorType::INT16:
      if (has_bias && bias.type == TensorType::INT64) {
        EvalQuantized<int16_t, int64_t, int64_t, int16_t>(*d, g, in.As<int16_t>(), f.As<int8_t>(), bias.As<int64_t>(),
                                                          0, 0, out.As<int16_t>());
      } else {
        EvalQuantized<int16_t, int32_t, int32_t, int16_t>(
            *d, g, in.As<int16_t>(), f.As<int8_t>(), has_bias ? bias.As<int32_t>() : nullptr, 0, 0, out.As<int16_t>());
      }
      return StatusCode::kOk;
    default: return ctx.Fail(StatusCode::kUnsupported, "type %s not supported", TypeName(in.type));
  }
}

const KernelRegistration kConv2D{"CONV_2D", &Prepare, &Eval, nullptr, true};

}  // namespace

const KernelRegistration* Register_CONV_2D() { return &kConv2D; }

}  // namespace arenaplan::rt
