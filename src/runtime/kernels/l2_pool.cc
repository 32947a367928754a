// L2_POOL_2D (NHWC float32), as TFLM (l2_pool_2d.cc, reference/pooling.h L2Pool): each output is
// sqrt(sum of squares / count) over the window clipped to the input (count = taps inside), then
// the fused activation. Padding and the output size follow TFLM's ComputePaddingHeightWidth; the
// model's output shape must be that size (TFLM rewrites it). Other types fail in Prepare, as on
// TFLM. O(output elements x window).
#include <cmath>

#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

struct L2PoolData {
  int32_t stride_h, stride_w, filter_h, filter_w;
  Padding2D pad;
  float act_min, act_max;
};

int32_t OutputSize(tfl::Padding padding, int32_t in, int32_t filter, int32_t stride) {
  if (stride <= 0) return 0;
  return padding == tfl::Padding::SAME ? (in + stride - 1) / stride : (in - filter + stride) / stride;
}

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireSameTypeIo(ctx, &in, &out));
  if (in.rank != 4 || out.rank != 4) return ctx.Fail(StatusCode::kInvalidModel, "input and output must be 4-D");
  RT_RETURN_IF_ERROR(RequireType(ctx, in, TensorType::FLOAT32, "input"));
  const auto* o = Options<tfl::Pool2DOptions>(ctx);
  if (o == nullptr) return ctx.Fail(StatusCode::kInvalidModel, "Pool2DOptions missing");
  L2PoolData d{o->stride_h(), o->stride_w(), o->filter_height(), o->filter_width(), {}, 0.0f, 0.0f};
  if (d.stride_h <= 0 || d.stride_w <= 0 || d.filter_h <= 0 || d.filter_w <= 0) {
    return ctx.Fail(StatusCode::kInvalidModel, "strides and filter sizes must be positive");
  }
  d.pad = ComputePadding2D(o->padding(), d.stride_h, d.stride_w, 1, 1, in.dims[1], in.dims[2], d.filter_h, d.filter_w);
  const int32_t oh = OutputSize(o->padding(), in.dims[1], d.filter_h, d.stride_h);
  const int32_t ow = OutputSize(o->padding(), in.dims[2], d.filter_w, d.stride_w);
  if (out.dims[0] != in.dims[0] || out.dims[1] != oh || out.dims[2] != ow || out.dims[3] != in.dims[3]) {
    return ctx.Fail(StatusCode::kInvalidModel, "output shape must be [%d, %d, %d, %d]", in.dims[0], oh, ow, in.dims[3]);
  }
  if (!CalculateActivationRangeFloat(o->fused_activation_function(), &d.act_min, &d.act_max)) {
    return ctx.Fail(StatusCode::kUnsupported, "fused activation %d not supported",
                    static_cast<int>(o->fused_activation_function()));
  }
  return SetOpData(ctx, d);
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  const auto& d = *static_cast<const L2PoolData*>(ctx.op_data());
  const float* x = in.As<float>();
  float* y = out.As<float>();
  const int32_t depth = in.dims[3], ih = in.dims[1], iw = in.dims[2];
  for (int32_t b = 0; b < out.dims[0]; ++b) {
    for (int32_t oy = 0; oy < out.dims[1]; ++oy) {
      for (int32_t ox = 0; ox < out.dims[2]; ++ox) {
        const int32_t y0 = oy * d.stride_h - d.pad.height, x0 = ox * d.stride_w - d.pad.width;
        const int32_t fy0 = y0 < 0 ? -y0 : 0, fy1 = d.filter_h < ih - y0 ? d.filter_h : ih - y0;
        const int32_t fx0 = x0 < 0 ? -x0 : 0, fx1 = d.filter_w < iw - x0 ? d.filter_w : iw - x0;
        for (int32_t c = 0; c < depth; ++c) {
          float sum = 0.f;
          int32_t count = 0;
          for (int32_t fy = fy0; fy < fy1; ++fy) {
            for (int32_t fx = fx0; fx < fx1; ++fx) {
              const float v = x[Offset4(in.dims, b, y0 + fy, x0 + fx, c)];
              sum += v * v;
              ++count;
            }
          }
          const float r = std::sqrt(sum / static_cast<float>(count));
          const float lo = r < d.act_min ? d.act_min : r;
          y[Offset4(out.dims, b, oy, ox, c)] = lo > d.act_max ? d.act_max : lo;
        }
      }
    }
  }
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_KERNEL(L2_POOL_2D, &Prepare, &Eval)

}  // namespace arenaplan::rt
