// DEPTHWISE_CONV_2D, bit-exact with TFLM's reference kernels (reference/depthwiseconv_float.h,
// integer_ops/depthwise_conv.h). Output channel oc = ic * depth_multiplier + m reads input channel
// ic and filter channel oc (filter [1, fh, fw, out_depth]):
//   float32:      out = clamp(sum_{fy,fx} in * w + bias);
//   int8 x int8:  acc = sum w * (in - zp_in) + bias (int32), per-channel MultiplyByQuantizedMultiplier,
//                 + zp_out, clamp;
//   int16 x int8: int64 accumulator and int64 bias (TFLM only accepts int64 bias here), no zero points.
// Packed INT4 filters (int8 input) are unpacked into an arena scratch buffer on every Invoke (TFLM).
// The depth multiplier is out_depth / in_depth (what the reference kernel requires it to be).
// In place (arenaplan's schedule, rules/schedule.h; depth multiplier 1, output shape = input
// shape): when the planner gave input and output one buffer, each channel's output plane is
// computed into a scratch plane (out_h x out_w values) and then stored over that channel, which
// only this channel's outputs read: every value from the same taps in the same order.
// O(out_elems * fh * fw) time, O(1) extra memory (one plane in place).
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
  RT_RETURN_IF_ERROR(PrepareConvWindow(ctx, o, in, f, out, &d->w));
  d->depth_multiplier = out_d / in_d;
  d->in_place_scratch = -1;
  if (ctx.InPlace()) {
    if (d->depth_multiplier != 1 || in.type != out.type || in.dims[1] != out.dims[1] || in.dims[2] != out.dims[2]) {
      return ctx.Fail(StatusCode::kInvalidModel, "in place needs depth multiplier 1 and the input's shape, has %d, %dx%d",
                      d->depth_multiplier, out.dims[1], out.dims[2]);
    }
    const uint64_t plane = static_cast<uint64_t>(out.dims[1]) * static_cast<uint64_t>(out.dims[2]) * TypeSize(out.type);
    if (plane > 0x7FFFFFF0u) return ctx.Fail(StatusCode::kUnsupported, "in-place plane of %llu bytes", static_cast<unsigned long long>(plane));
    RT_RETURN_IF_ERROR(ctx.RequestScratch(static_cast<uint32_t>(plane), &d->in_place_scratch));
  }
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

// Output (b, oy, ox, oc) of input channel ic: the taps in the reference kernel's order.
template <typename In, typename W, typename Acc, typename Bias, typename Out, typename Finish>
inline Out Element(const DepthwiseData& dd, const TensorView& vin, const TensorView& vf, const TensorView& vout,
                   const In* in, const W* w, const Bias* bias, int32_t input_offset, Finish& finish, int32_t b,
                   int32_t oy, int32_t ox, int32_t ic, int32_t oc) {
  const int32_t in_h = vin.dims[1], in_w = vin.dims[2], in_d = vin.dims[3];
  const int32_t f_h = vf.dims[1], f_w = vf.dims[2], out_d = vout.dims[3];
  const ConvWindow& d = dd.w;
  const int32_t iy0 = oy * d.stride_h - d.pad.height;
  const int32_t ix0 = ox * d.stride_w - d.pad.width;
  int32_t fy0 = 0, fy1 = 0, fx0 = 0, fx1 = 0;
  ValidTaps(iy0, d.dilation_h, f_h, in_h, &fy0, &fy1);
  ValidTaps(ix0, d.dilation_w, f_w, in_w, &fx0, &fx1);
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
  return finish(acc, bias != nullptr ? static_cast<Acc>(LoadUnaligned<Bias>(bias, oc)) : static_cast<Acc>(0), oc);
}

// One routine for all types: Acc is float for float32 (Finish then clamps floats). `plane`
// (out_h x out_w values) set: in place, in and out are one buffer, one channel at a time.
template <typename In, typename W, typename Acc, typename Bias, typename Out, typename Finish>
void Run(const DepthwiseData& dd, const TensorView& vin, const TensorView& vf, const TensorView& vout, const In* in,
         const W* w, const Bias* bias, Out* out, int32_t input_offset, Finish finish, Out* plane = nullptr) {
  const int32_t batches = vout.dims[0], in_d = vin.dims[3];
  const int32_t out_h = vout.dims[1], out_w = vout.dims[2], out_d = vout.dims[3];
  const int32_t dm = dd.depth_multiplier;
  if (plane != nullptr) {  // dm == 1, out_d == in_d, out_h x out_w == in_h x in_w
    for (int32_t b = 0; b < batches; ++b) {
      for (int32_t c = 0; c < out_d; ++c) {
        for (int32_t oy = 0; oy < out_h; ++oy) {
          for (int32_t ox = 0; ox < out_w; ++ox) {
            plane[oy * out_w + ox] = Element<In, W, Acc, Bias, Out>(dd, vin, vf, vout, in, w, bias, input_offset,
                                                                    finish, b, oy, ox, c, c);
          }
        }
        Out* o = out + b * out_h * out_w * out_d + c;
        for (int32_t i = 0; i < out_h * out_w; ++i) o[i * out_d] = plane[i];
      }
    }
    return;
  }
  for (int32_t b = 0; b < batches; ++b) {
    for (int32_t oy = 0; oy < out_h; ++oy) {
      for (int32_t ox = 0; ox < out_w; ++ox) {
        Out* o = out + ((b * out_h + oy) * out_w + ox) * out_d;
        for (int32_t ic = 0; ic < in_d; ++ic) {
          for (int32_t m = 0; m < dm; ++m) {
            const int32_t oc = m + ic * dm;
            o[oc] = Element<In, W, Acc, Bias, Out>(dd, vin, vf, vout, in, w, bias, input_offset, finish, b, oy, ox, ic,
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
  DepthwiseData row = *static_cast<const DepthwiseData*>(ctx.op_data());
  int32_t top = 0;
  if (ctx.StreamPadTop(&top)) row.w.pad.height = top;  // one output row of a stream: its own top padding
  const DepthwiseData* d = &row;
  const ConvOutputParams& q = d->q;
  void* plane = nullptr;  // set: in place, in and out are one buffer
  if (d->in_place_scratch >= 0 && in.data == out.data) {
    plane = ctx.GetScratch(d->in_place_scratch);
    if (plane == nullptr) return ctx.Fail(StatusCode::kKernelError, "in place without its plane scratch");
  }
  switch (in.type) {
    case TensorType::FLOAT32: {
      auto finish = [&q](float total, float b, int32_t) { return ClampConvOutput(q, total + b); };
      Run<float, float, float, float, float>(*d, in, f, out, in.As<float>(), f.As<float>(),
                                             has_bias ? bias.As<float>() : nullptr, out.As<float>(), 0, finish,
                                             static_cast<float*>(plane));
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
                                                    q.input_offset, finish, static_cast<int8_t*>(plane));
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
                                                      finish, static_cast<int16_t*>(plane));
      return StatusCode::kOk;
    }
    default: return ctx.Fail(StatusCode::kUnsupported, "type %s not supported", TypeName(in.type));
  }
}

const KernelRegistration kDepthwiseConv2D{"DEPTHWISE_CONV_2D", &Prepare, &Eval, nullptr, true};

}  // namespace

const KernelRegistration* Register_DEPTHWISE_CONV_2D() { return &kDepthwiseConv2D; }

}  // namespace arenaplan::rt
