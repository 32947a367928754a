// TRANSPOSE_CONV, bit-exact with TFLM's reference kernels (reference/transpose_conv.h,
// integer_ops/transpose_conv.h, micro/kernels/transpose_conv.cc). Inputs: 0 = output shape (TFLM
// ignores it; the output tensor's shape is used), 1 = filter [out_c, fh, fw, in_c], 2 = input,
// 3 = optional bias. Every input element is scattered into the outputs it touches, in input order:
//   float32:      the output is zeroed, accumulated in place, then bias and the activation clamp;
//   int8 x int8:  int32 accumulators in a scratch buffer of out_elems x 4 bytes, then bias,
//                 per-channel MultiplyByQuantizedMultiplier, + zp_out, clamp;
//   int16 x int8: int64 accumulators (scratch out_elems x 8 bytes), int64 bias (an int16 bias is
//                 widened into a second scratch buffer, as TFLM does), no zero points.
// Padding is computed as for a convolution from output to input (TFLM ComputePaddingHeightWidth on
// the output size, dilation 1). O(in_elems * fh * fw * out_c) time.
#include <cstring>

#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

struct TransposeConvData {
  Padding2D pad;
  int32_t stride_h, stride_w;
  ConvOutputParams q;
  int32_t acc_scratch;   // -1 for float
  int32_t bias_scratch;  // int16 bias widened to int64, or -1
};

StatusCode Prepare(KernelContext& ctx) {
  ConvTensors t;
  RT_RETURN_IF_ERROR(PrepareConvTensors(ctx, 2, 1, &t));
  RT_RETURN_IF_ERROR(CheckConv2DTensors(ctx, t));
  const TensorView &in = t.in, &f = t.filter, &bias = t.bias, &out = t.out;
  if (in.dims[0] != out.dims[0] || in.dims[3] != f.dims[3] || f.dims[0] != out.dims[3]) {
    return ctx.Fail(StatusCode::kInvalidModel,
                    "shapes do not match: input depth %d, filter [%d,%d,%d,%d], output depth %d", in.dims[3], f.dims[0],
                    f.dims[1], f.dims[2], f.dims[3], out.dims[3]);
  }
  const int32_t channels = out.dims[3];
  if (t.has_bias) {
    bool bias_ok = false;
    if (in.type == TensorType::FLOAT32) bias_ok = bias.type == TensorType::FLOAT32;
    if (in.type == TensorType::INT8) bias_ok = bias.type == TensorType::INT32;
    if (in.type == TensorType::INT16) bias_ok = bias.type == TensorType::INT64 || bias.type == TensorType::INT16;
    if (!bias_ok) return ctx.Fail(StatusCode::kUnsupported, "bias type %s not supported", TypeName(bias.type));
    if (!HasShape(bias, -1) || ElementCount(bias) != channels) {  // computed at run time is fine, as on TFLM
      return ctx.Fail(StatusCode::kInvalidModel, "bias must have %d elements", channels);
    }
  }
  const auto* o = Options<tfl::TransposeConvOptions>(ctx);
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(TransposeConvData), &mem));
  auto* d = static_cast<TransposeConvData*>(mem);
  d->stride_h = o != nullptr ? o->stride_h() : 1;
  d->stride_w = o != nullptr ? o->stride_w() : 1;
  if (d->stride_h < 1 || d->stride_w < 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "strides (%d, %d) must be >= 1", d->stride_h, d->stride_w);
  }
  const tfl::Padding padding = o != nullptr ? o->padding() : tfl::Padding::SAME;
  d->pad = ComputePadding2D(padding, d->stride_h, d->stride_w, 1, 1, out.dims[1], out.dims[2], f.dims[1], f.dims[2]);
  RT_RETURN_IF_ERROR(CheckWindowReach(ctx, out, in.dims[1], in.dims[2], f.dims[1], f.dims[2],
                                      ConvWindow{d->pad, d->stride_h, d->stride_w, 1, 1}));
  const auto act = o != nullptr ? o->fused_activation_function() : tfl::ActivationFunctionType::NONE;
  d->acc_scratch = -1;
  d->bias_scratch = -1;
  if (in.type != TensorType::FLOAT32) {
    const uint32_t out_elems = static_cast<uint32_t>(ElementCount(out));
    const uint32_t acc_size = in.type == TensorType::INT8 ? 4u : 8u;
    if (out_elems > 0xFFFFFFFFu / acc_size) return ctx.Fail(StatusCode::kInvalidModel, "output too large");
    RT_RETURN_IF_ERROR(ctx.RequestScratch(out_elems * acc_size, &d->acc_scratch));
  }
  // The int16 path reads no zero-point offsets (TFLM uses none there).
  RT_RETURN_IF_ERROR(PrepareConvOutput(ctx, act, in, f, out, channels, &d->q));
  if (t.has_bias && bias.type == TensorType::INT16) {
    RT_RETURN_IF_ERROR(ctx.RequestScratch(static_cast<uint32_t>(channels) * 8u, &d->bias_scratch));
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

// Scatter pass shared by all types: acc[out] += in * w via mac(acc, x, k).
template <typename In, typename W, typename Acc, typename Mac>
void Scatter(const TransposeConvData& d, const TensorView& vin, const TensorView& vf, const TensorView& vout,
             const In* in, const W* w, Acc* acc, Mac mac) {
  const int32_t batches = vin.dims[0], in_h = vin.dims[1], in_w = vin.dims[2], in_d = vin.dims[3];
  const int32_t f_h = vf.dims[1], f_w = vf.dims[2];
  const int32_t out_h = vout.dims[1], out_w = vout.dims[2], out_d = vout.dims[3];
  for (int32_t b = 0; b < batches; ++b) {
    for (int32_t iy = 0; iy < in_h; ++iy) {
      for (int32_t ix = 0; ix < in_w; ++ix) {
        const int32_t ox0 = ix * d.stride_w - d.pad.width;
        const int32_t oy0 = iy * d.stride_h - d.pad.height;
        for (int32_t ic = 0; ic < in_d; ++ic) {
          const In x = in[((b * in_h + iy) * in_w + ix) * in_d + ic];
          for (int32_t fy = 0; fy < f_h; ++fy) {
            const int32_t oy = oy0 + fy;
            if (oy < 0 || oy >= out_h) continue;
            for (int32_t fx = 0; fx < f_w; ++fx) {
              const int32_t ox = ox0 + fx;
              if (ox < 0 || ox >= out_w) continue;
              Acc* a = acc + ((b * out_h + oy) * out_w + ox) * out_d;
              for (int32_t oc = 0; oc < out_d; ++oc) {
                a[oc] = mac(a[oc], x, w[((oc * f_h + fy) * f_w + fx) * in_d + ic]);
              }
            }
          }
        }
      }
    }
  }
}

StatusCode Eval(KernelContext& ctx) {
  ConvTensors t;
  RT_RETURN_IF_ERROR(GetConvTensors(ctx, 2, 1, &t));
  const TensorView &in = t.in, &f = t.filter, &bias = t.bias, &out = t.out;
  const bool has_bias = t.has_bias;
  const auto& d = *static_cast<const TransposeConvData*>(ctx.op_data());
  const int64_t n = ElementCount(out);
  const int32_t channels = out.dims[3];
  if (in.type == TensorType::FLOAT32) {
    float* y = out.As<float>();
    for (int64_t i = 0; i < n; ++i) y[i] = 0.0f;
    Scatter(d, in, f, out, in.As<float>(), f.As<float>(), y, [](float a, float x, float k) { return a + x * k; });
    const float* b = has_bias ? bias.As<float>() : nullptr;
    for (int64_t i = 0; i < n; ++i) {
      float v = y[i];
      if (b != nullptr) v += LoadUnaligned<float>(b, static_cast<int32_t>(i % channels));
      y[i] = ClampConvOutput(d.q, v);
    }
    return StatusCode::kOk;
  }
  void* scratch = ctx.GetScratch(d.acc_scratch);
  if (scratch == nullptr) return ctx.Fail(StatusCode::kKernelError, "accumulator scratch buffer missing");
  if (in.type == TensorType::INT8) {
    auto* acc = static_cast<int32_t*>(scratch);
    std::memset(acc, 0, static_cast<size_t>(n) * sizeof(int32_t));
    const int32_t off = d.q.input_offset;
    Scatter(d, in, f, out, in.As<int8_t>(), f.As<int8_t>(), acc,
            [off](int32_t a, int8_t x, int8_t k) { return WrappingAdd(a, (x + off) * k); });
    const int32_t* b = has_bias ? bias.As<int32_t>() : nullptr;
    int8_t* y = out.As<int8_t>();
    for (int64_t i = 0; i < n; ++i) {
      const int32_t c = static_cast<int32_t>(i % channels);
      int32_t a = acc[i];
      if (b != nullptr) a = WrappingAdd(a, LoadUnaligned<int32_t>(b, c));
      y[i] = static_cast<int8_t>(RequantizeConvOutput(d.q, a, c, d.q.output_offset));
    }
    return StatusCode::kOk;
  }
  auto* acc = static_cast<int64_t*>(scratch);
  std::memset(acc, 0, static_cast<size_t>(n) * sizeof(int64_t));
  Scatter(d, in, f, out, in.As<int16_t>(), f.As<int8_t>(), acc,
          [](int64_t a, int16_t x, int8_t k) { return a + static_cast<int64_t>(static_cast<int32_t>(x) * k); });
  const int64_t* b = nullptr;
  if (has_bias && bias.type == TensorType::INT16) {
    auto* widened = static_cast<int64_t*>(ctx.GetScratch(d.bias_scratch));
    if (widened == nullptr) return ctx.Fail(StatusCode::kKernelError, "bias scratch buffer missing");
    for (int32_t c = 0; c < channels; ++c) widened[c] = LoadUnaligned<int16_t>(bias.data, c);
    b = widened;
  } else if (has_bias) {
    b = bias.As<int64_t>();
  }
  int16_t* y = out.As<int16_t>();
  for (int64_t i = 0; i < n; ++i) {
    const int32_t c = static_cast<int32_t>(i % channels);
    const int64_t a = acc[i] + (b != nullptr ? LoadUnaligned<int64_t>(b, c) : 0);
    y[i] = static_cast<int16_t>(RequantizeConvOutput(d.q, a, c, 0));
  }
  return StatusCode::kOk;
}

const KernelRegistration kTransposeConv{"TRANSPOSE_CONV", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_TRANSPOSE_CONV() { return &kTransposeConv; }

}  // namespace arenaplan::rt
