// DEPTHWISE_CONV_2D, bit-exact with TFLM's reference kernels (reference/depthwiseconv_float.h,
// integer_ops/depthwise_conv.h). Output channel oc = ic * depth_multiplier + m reads input channel
// ic and filter channel oc (filter [1, fh, fw, out_depth]):
//   float32:      out = clamp(sum_{fy,fx} in * w + bias);
//   int8 x int8:  acc = sum w * (in - zp_in) + bias (int32), per-channel MultiplyByQuantizedMultiplier,
//                 + zp_out, clamp;
//   int16 x int8: int64 accumulator and int64 bias (TFLM only accepts int64 bias here), no zero points.
// The depth multiplier is out_depth / in_depth (what the reference kernel requires it to be).
// O(out_elems * fh * fw) time, O(1) extra memory.
#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

struct DepthwiseData {
  Padding2D pad;
  int32_t stride_h, stride_w, dilation_h, dilation_w;
  int32_t depth_multiplier;
  int32_t input_offset, output_offset;
  int32_t act_min, act_max;
  float act_min_f, act_max_f;
  int32_t* multipliers;
  int32_t* shifts;
};

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
  const int32_t in_d = in.dims[3];
  const int32_t out_d = out.dims[3];
  if (in.dims[0] != out.dims[0] || f.dims[0] != 1 || f.dims[3] != out_d || in_d <= 0 || out_d % in_d != 0) {
    return ctx.Fail(Status::kInvalidModel,
                    "shapes do not match: input depth %d, filter [%d,%d,%d,%d], output depth %d", in_d,
                    f.dims[0], f.dims[1], f.dims[2], f.dims[3], out_d);
  }
  if (has_bias) {
    TensorType want = TensorType::INT32;
    if (in.type == TensorType::FLOAT32) want = TensorType::FLOAT32;
    if (in.type == TensorType::INT16) want = TensorType::INT64;
    if (bias.type != want) return ctx.Fail(Status::kUnsupported, "bias type %s not supported", TypeName(bias.type));
    if (!HasShape(bias, -1) || ElementCount(bias) != out_d || bias.data == nullptr) {
      return ctx.Fail(Status::kInvalidModel, "bias must be constant with %d elements", out_d);
    }
  }
  const auto* o = Options<tfl::DepthwiseConv2DOptions>(ctx);
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(DepthwiseData), &mem));
  auto* d = static_cast<DepthwiseData*>(mem);
  d->stride_h = o != nullptr ? o->stride_h() : 1;
  d->stride_w = o != nullptr ? o->stride_w() : 1;
  d->dilation_h = o != nullptr ? o->dilation_h_factor() : 1;
  d->dilation_w = o != nullptr ? o->dilation_w_factor() : 1;
  if (d->stride_h < 1 || d->stride_w < 1 || d->dilation_h < 1 || d->dilation_w < 1) {
    return ctx.Fail(Status::kInvalidModel, "strides (%d, %d) and dilations (%d, %d) must be >= 1", d->stride_h,
                    d->stride_w, d->dilation_h, d->dilation_w);
  }
  d->depth_multiplier = out_d / in_d;
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
    RT_RETURN_IF_ERROR(AllocateInt32(ctx, out_d, &d->multipliers));
    RT_RETURN_IF_ERROR(AllocateInt32(ctx, out_d, &d->shifts));
    RT_RETURN_IF_ERROR(PopulatePerChannelMultipliers(ctx, in, f, out, out_d, d->multipliers, d->shifts));
    if (!CalculateActivationRangeQuantized(act, out, &d->act_min, &d->act_max)) {
      return ctx.Fail(Status::kUnsupported, "fused activation %d not supported", static_cast<int>(act));
    }
    d->input_offset = -in.zero_point;
    d->output_offset = out.zero_point;
  }
  ctx.set_op_data(d);
  return Status::kOk;
}

inline int32_t Wrap(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
// One multiply-accumulate step, in the reference kernels' operand order.
inline float Mac(float acc, float x, float k, int32_t) { return acc + x * k; }
inline int32_t Mac(int32_t acc, int32_t x, int32_t k, int32_t offset) { return Wrap(acc, k * (x + offset)); }
inline int64_t Mac(int64_t acc, int32_t x, int32_t k, int32_t) {
  return acc + static_cast<int64_t>(k) * static_cast<int64_t>(x);
}

// One routine for all types: Acc is float for float32 (Finish then clamps floats).
template <typename In, typename W, typename Acc, typename Bias, typename Out, typename Finish>
void Run(const DepthwiseData& d, const TensorView& vin, const TensorView& vf, const TensorView& vout,
         const In* in, const W* w, const Bias* bias, Out* out, int32_t input_offset, Finish finish) {
  const int32_t batches = vout.dims[0], in_h = vin.dims[1], in_w = vin.dims[2], in_d = vin.dims[3];
  const int32_t f_h = vf.dims[1], f_w = vf.dims[2];
  const int32_t out_h = vout.dims[1], out_w = vout.dims[2], out_d = vout.dims[3];
  const int32_t dm = d.depth_multiplier;
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
            o[oc] = finish(acc, bias != nullptr ? static_cast<Acc>(LoadUnaligned<Bias>(bias, oc)) : static_cast<Acc>(0), oc);
          }
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
  const auto* d = static_cast<const DepthwiseData*>(ctx.op_data());
  switch (in.type) {
    case TensorType::FLOAT32: {
      auto finish = [d](float total, float b, int32_t) {
        const float v = total + b;
        const float lo = v < d->act_min_f ? d->act_min_f : v;
        return lo > d->act_max_f ? d->act_max_f : lo;
      };
      Run<float, float, float, float, float>(*d, in, f, out, in.As<float>(), f.As<float>(),
                                             has_bias ? bias.As<float>() : nullptr, out.As<float>(), 0, finish);
      return Status::kOk;
    }
    case TensorType::INT8: {
      auto finish = [d](int32_t acc, int32_t b, int32_t oc) {
        int32_t r = MultiplyByQuantizedMultiplier(Wrap(acc, b), d->multipliers[oc], d->shifts[oc]) +
                    d->output_offset;
        r = r < d->act_min ? d->act_min : (r > d->act_max ? d->act_max : r);
        return static_cast<int8_t>(r);
      };
      Run<int8_t, int8_t, int32_t, int32_t, int8_t>(
          *d, in, f, out, in.As<int8_t>(), f.As<int8_t>(), has_bias ? bias.As<int32_t>() : nullptr,
          out.As<int8_t>(), d->input_offset, finish);
      return Status::kOk;
    }
    case TensorType::INT16: {
      auto finish = [d](int64_t acc, int64_t b, int32_t oc) {
        int32_t r = MultiplyByQuantizedMultiplier(acc + b, d->multipliers[oc], d->shifts[oc]);
        r = r < d->act_min ? d->act_min : (r > d->act_max ? d->act_max : r);
        return static_cast<int16_t>(r);
      };
      Run<int16_t, int8_t, int64_t, int64_t, int16_t>(*d, in, f, out, in.As<int16_t>(), f.As<int8_t>(),
                                                       has_bias ? bias.As<int64_t>() : nullptr,
                                                       out.As<int16_t>(), 0, finish);
      return Status::kOk;
    }
    default:
      return ctx.Fail(Status::kUnsupported, "type %s not supported", TypeName(in.type));
  }
}

const KernelRegistration kDepthwiseConv2D{"DEPTHWISE_CONV_2D", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_DEPTHWISE_CONV_2D() { return &kDepthwiseConv2D; }

}  // namespace arenaplan::rt
