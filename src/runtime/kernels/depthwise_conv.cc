// DEPTHWISE_CONV_2D, bit-exact with TFLM's reference kernels (reference/depthwiseconv_float.h,
// integer_ops/depthwise_conv.h). Output channel oc = ic * depth_multiplier + m reads input channel
// ic and filter channel oc (filter [1, fh, fw, out_depth]):
//   float32:      out = clamp(sum_{fy,fx} in * w + bias);
//   int8 x int8:  acc = sum w * (in - zp_in) + bias (int32), per-channel MultiplyByQuantizedMultiplier,
//                 + zp_out, clamp;
//   int16 x int8: int64 accumulator and int64 bias (TFLM only accepts int64 bias here), no zero points.
// Packed INT4 filters (int8 input) are unpacked into an arena scratch buffer on every Invoke (TFLM).
// The depth multiplier is out_depth / in_depth (what the reference kernel requires it to be).
// O(out_elems * fh * fw) time, O(1) extra memory.
#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

StatusCode Prepare(KernelContext& ctx) {
  ConvTensors t;
  RT_RETURN_IF_ERROR(PrepareConvTensors(ctx, 0, 1, &t));
  {
    // TFLM's depthwise Prepare also takes an INT4 filter with int16 input; its Eval refuses it.
    ConvTensors checked = t;
    if (t.in.type == TensorType::INT16 && t.filter.type == TensorType::INT4) checked.filter.type = TensorType::INT8;
    RT_RETURN_IF_ERROR(CheckConv2DTensors(ctx, checked));
  }
  const TensorView &in = t.in, &f = t.filter, &bias = t.bias, &out = t.out;
  const int32_t in_d = in.dims[3];
  const int32_t out_d = out.dims[3];
  if (in.dims[0] != out.dims[0] || f.dims[0] != 1 || f.dims[3] != out_d || in_d <= 0 || out_d % in_d != 0) {
    return ctx.Fail(StatusCode::kInvalidModel,
                    "shapes do not match: input depth %d, filter [%d,%d,%d,%d], output depth %d", in_d, f.dims[0],
                    f.dims[1], f.dims[2], f.dims[3], out_d);
  }
  if (t.has_bias) {
    TensorType want = TensorType::INT32;
    if (in.type == TensorType::FLOAT32) want = TensorType::FLOAT32;
    if (in.type == TensorType::INT16) want = TensorType::INT64;
    if (bias.type != want) return ctx.Fail(StatusCode::kUnsupported, "bias type %s not supported", TypeName(bias.type));
    if (!HasShape(bias, -1) || ElementCount(bias) != out_d) {  // computed at run time is fine, as on TFLM
      return ctx.Fail(StatusCode::kInvalidModel, "bias must have %d elements", out_d);
    }
  }
  const auto* o = Options<tfl::DepthwiseConv2DOptions>(ctx);
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(DepthwiseData), &mem));
  auto* d = static_cast<DepthwiseData*>(mem);
  d->dsp_scratch = -1;
  RT_RETURN_IF_ERROR(PrepareConvWindow(ctx, o, in, f, &d->w));
  d->depth_multiplier = out_d / in_d;
  const auto act = o != nullptr ? o->fused_activation_function() : tfl::ActivationFunctionType::NONE;
  RT_RETURN_IF_ERROR(PrepareConvOutput(ctx, act, in, f, out, out_d, &d->q));
  RT_RETURN_IF_ERROR(RequestInt4FilterScratch(ctx, f, &d->q.filter_scratch));  // its only scratch: order is free
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

// One multiply-accumulate step, in the reference kernels' operand order.
inline float Mac(float acc, float x, float k, int32_t) { return acc + x * k; }
inline int32_t Mac(int32_t acc, int32_t x, int32_t k, int32_t offset) { return WrappingAdd(acc, k * (x + offset)); }
inline int64_t Mac(int64_t acc, int32_t x, int32_t k, int32_t) {
  return acc + static_cast<int64_t>(k) * static_cast<int64_t>(x);
}

// One routine for all types: Acc is float for float32 (Finish then clamps floats).
template <typename In, typename W, typename Acc, typename Bias, typename Out, typename Finish>
void Run(const DepthwiseData& dd, const TensorView& vin, const TensorView& vf, const TensorView& vout, const In* in,
         const W* w, const Bias* bias, Out* out, int32_t input_offset, Finish finish) {
  const int32_t batches = vout.dims[0], in_h = vin.dims[1], in_w = vin.dims[2], in_d = vin.dims[3];
  const int32_t f_h = vf.dims[1], f_w = vf.dims[2];
  const int32_t out_h = vout.dims[1], out_w = vout.dims[2], out_d = vout.dims[3];
  const int32_t dm = dd.depth_multiplier;
  const ConvWindow& d = dd.w;
  for (int32_t b = 0; b < batches; ++b) {
    for (int32_t oy = 0; oy < out_h; ++oy) {
      const int32_t iy0 = oy * d.stride_h - d.pad.height;
      int32_t fy0 = 0, fy1 = 0;
      ValidTaps(iy0, d.dilation_h, f_h, in_h, &fy0, &fy1);
      for (int32_t ox = 0; ox < out_w; ++ox) {
        const int32_t ix0 = ox * d.stride_w - d.pad.width;
        int32_t fx0 = 0, fx1 = 0;
        ValidTaps(ix0, d.dilation_w, f_w, in_w, &fx0, &fx1);
        Out* o = out + ((b * out_h + oy) * out_w + ox) * out_d;
        for (int32_t ic = 0; ic < in_d; ++ic) {
          for (int32_t m = 0; m < dm; ++m) {
            const int32_t oc = m + ic * dm;
            Acc acc = 0;
            for (int32_t fy = fy0; fy < fy1; ++fy) {
              // Index arithmetic (not pointers): ix0 may be negative, only valid taps are read.
              const int32_t row = ((b * in_h + iy0 + d.dilation_h * fy) * in_w + ix0) * in_d + ic;
              const int32_t step = d.dilation_w * in_d;
              const W* k = w + fy * f_w * out_d + oc;
              for (int32_t fx = fx0; fx < fx1; ++fx) {
                acc = Mac(acc, in[row + step * fx], k[fx * out_d], input_offset);
              }
            }
            o[oc] = finish(acc, bias != nullptr ? static_cast<Acc>(LoadUnaligned<Bias>(bias, oc)) : static_cast<Acc>(0),
                           oc);
          }
        }
      }
    }
  }
}

StatusCode Eval(KernelContext& ctx) {
  ConvTensors t;
  RT_RETURN_IF_ERROR(GetConvTensors(ctx, 0, 1, &t));
  const TensorView &in = t.in, &f = t.filter, &bias = t.bias, &out = t.out;
  const bool has_bias = t.has_bias;
  const auto* d = static_cast<const DepthwiseData*>(ctx.op_data());
  const ConvOutputParams& q = d->q;
  switch (in.type) {
    case TensorType::FLOAT32: {
      auto finish = [&q](float total, float b, int32_t) { return ClampConvOutput(q, total + b); };
      Run<float, float, float, float, float>(*d, in, f, out, in.As<float>(), f.As<float>(),
                                             has_bias ? bias.As<float>() : nullptr, out.As<float>(), 0, finish);
      return StatusCode::kOk;
    }
    case TensorType::INT8: {
      auto finish = [&q](int32_t acc, int32_t b, int32_t oc) {
        return static_cast<int8_t>(RequantizeConvOutput(q, WrappingAdd(acc, b), oc, q.output_offset));
      };
      const int8_t* w = FilterInt8(ctx, f, d->q.filter_scratch);  // INT4: unpacked into scratch
      if (w == nullptr) return ctx.Fail(StatusCode::kKernelError, "INT4 filter scratch missing");
      Run<int8_t, int8_t, int32_t, int32_t, int8_t>(*d, in, f, out, in.As<int8_t>(), w,
                                                    has_bias ? bias.As<int32_t>() : nullptr, out.As<int8_t>(),
                                                    q.input_offset, finish);
      return StatusCode::kOk;
    }
    case TensorType::INT16: {
      if (f.type == TensorType::INT4) {  // TFLM's message; 18 is kTfLiteInt4
        return ctx.Fail(StatusCode::kUnsupported, "Filter type INT4 (18) for input type INT16 not supported.");
      }
      auto finish = [&q](int64_t acc, int64_t b, int32_t oc) {
        return static_cast<int16_t>(RequantizeConvOutput(q, acc + b, oc, 0));
      };
      Run<int16_t, int8_t, int64_t, int64_t, int16_t>(*d, in, f, out, in.As<int16_t>(), f.As<int8_t>(),
                                                      has_bias ? bias.As<int64_t>() : nullptr, out.As<int16_t>(), 0,
                                                      finish);
      return StatusCode::kOk;
    }
    default: return ctx.Fail(StatusCode::kUnsupported, "type %s not supported", TypeName(in.type));
  }
}

const KernelRegistration kDepthwiseConv2D{"DEPTHWISE_CONV_2D", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_DEPTHWISE_CONV_2D() { return &kDepthwiseConv2D; }

}  // namespace arenaplan::rt
