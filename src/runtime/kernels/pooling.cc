// AVERAGE_POOL_2D and MAX_POOL_2D for float32, int8 and int16, bit-exact with TFLM's reference
// kernels (reference/pooling.h, integer_ops/pooling.h). The window is clipped to the image, so
// padded taps neither count nor contribute:
//   average, float: clamp(sum / count) in float;
//   average, int:   sum in int32, rounded half away from zero: (sum +- count/2) / count, clamp;
//   max:            max over the window (starting from the type's lowest value), clamp.
// Zero points pass through unchanged (input and output share quantization in TFLM's models).
// O(out_elems * fh * fw) time, O(1) extra memory.
#include <cfloat>

#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireSameTypeIo(ctx, &in, &out));
  if (in.type != TensorType::FLOAT32 && in.type != TensorType::INT8 && in.type != TensorType::INT16) {
    return ctx.Fail(StatusCode::kUnsupported, "type %s not supported", TypeName(in.type));
  }
  if (!HasShape(in, 4) || !HasShape(out, 4) || in.dims[0] != out.dims[0] || in.dims[3] != out.dims[3]) {
    return ctx.Fail(StatusCode::kInvalidModel, "input and output must be rank-4 with equal batch and depth");
  }
  const auto* o = Options<tfl::Pool2DOptions>(ctx);
  if (o == nullptr) return ctx.Fail(StatusCode::kInvalidModel, "missing Pool2DOptions");
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(PoolData), &mem));
  auto* d = static_cast<PoolData*>(mem);
  d->stride_h = o->stride_h();
  d->stride_w = o->stride_w();
  d->filter_h = o->filter_height();
  d->filter_w = o->filter_width();
  if (d->stride_h < 1 || d->stride_w < 1 || d->filter_h < 1 || d->filter_w < 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "strides (%d, %d) and filter (%d, %d) must be >= 1", d->stride_h,
                    d->stride_w, d->filter_h, d->filter_w);
  }
  d->pad = ComputePadding2D(o->padding(), d->stride_h, d->stride_w, 1, 1, in.dims[1], in.dims[2], d->filter_h,
                            d->filter_w);
  RT_RETURN_IF_ERROR(CheckWindowReach(ctx, in, out.dims[1], out.dims[2], d->filter_h, d->filter_w,
                                      ConvWindow{d->pad, d->stride_h, d->stride_w, 1, 1}));
  const auto act = o->fused_activation_function();
  const bool ok = in.type == TensorType::FLOAT32
                      ? CalculateActivationRangeFloat(act, &d->act_min_f, &d->act_max_f)
                      : CalculateActivationRangeQuantized(act, out, &d->act_min, &d->act_max);
  if (!ok) return ctx.Fail(StatusCode::kUnsupported, "fused activation %d not supported", static_cast<int>(act));
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

inline int32_t Max32(int32_t a, int32_t b) { return a > b ? a : b; }
inline int32_t Min32(int32_t a, int32_t b) { return a < b ? a : b; }

// Visits every output element with its clipped window; f(out_index, in_base, y0, y1, x0, x1) where
// in_base indexes (b, 0, 0, c) and rows/cols are window bounds in input coordinates.
template <typename F>
void ForEachWindow(const PoolData& d, const TensorView& in, const TensorView& out, F&& f) {
  const int32_t batches = out.dims[0], in_h = in.dims[1], in_w = in.dims[2], depth = out.dims[3];
  const int32_t out_h = out.dims[1], out_w = out.dims[2];
  for (int32_t b = 0; b < batches; ++b) {
    for (int32_t oy = 0; oy < out_h; ++oy) {
      const int32_t iy0 = oy * d.stride_h - d.pad.height;
      const int32_t y0 = Max32(0, iy0), y1 = Min32(in_h, iy0 + d.filter_h);
      for (int32_t ox = 0; ox < out_w; ++ox) {
        const int32_t ix0 = ox * d.stride_w - d.pad.width;
        const int32_t x0 = Max32(0, ix0), x1 = Min32(in_w, ix0 + d.filter_w);
        const int32_t o = ((b * out_h + oy) * out_w + ox) * depth;
        for (int32_t c = 0; c < depth; ++c) f(o + c, b * in_h * in_w * depth + c, y0, y1, x0, x1);
      }
    }
  }
}

template <typename T>
StatusCode AverageInt(KernelContext& ctx, const PoolData& d, const TensorView& in, const TensorView& out) {
  const T* x = in.As<T>();
  T* y = out.As<T>();
  const int32_t in_w = in.dims[2], depth = in.dims[3];
  bool empty = false;
  ForEachWindow(d, in, out, [&](int32_t o, int32_t base, int32_t y0, int32_t y1, int32_t x0, int32_t x1) {
    int32_t acc = 0, count = 0;
    for (int32_t iy = y0; iy < y1; ++iy) {
      for (int32_t ix = x0; ix < x1; ++ix) {
        acc += x[base + (iy * in_w + ix) * depth];
        ++count;
      }
    }
    if (count == 0) {
      empty = true;
      return;
    }
    acc = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
    y[o] = static_cast<T>(Min32(Max32(acc, d.act_min), d.act_max));
  });
  if (empty) return ctx.Fail(StatusCode::kKernelError, "a pooling window lies entirely outside the input");
  return StatusCode::kOk;
}

StatusCode AverageFloat(KernelContext& ctx, const PoolData& d, const TensorView& in, const TensorView& out) {
  const float* x = in.As<float>();
  float* y = out.As<float>();
  const int32_t in_w = in.dims[2], depth = in.dims[3];
  bool empty = false;
  ForEachWindow(d, in, out, [&](int32_t o, int32_t base, int32_t y0, int32_t y1, int32_t x0, int32_t x1) {
    float total = 0.0f;
    int32_t count = 0;
    for (int32_t iy = y0; iy < y1; ++iy) {
      for (int32_t ix = x0; ix < x1; ++ix) {
        total += x[base + (iy * in_w + ix) * depth];
        ++count;
      }
    }
    if (count == 0) {
      empty = true;
      return;
    }
    const float avg = total / static_cast<float>(count);
    const float lo = avg < d.act_min_f ? d.act_min_f : avg;
    y[o] = lo > d.act_max_f ? d.act_max_f : lo;
  });
  if (empty) return ctx.Fail(StatusCode::kKernelError, "a pooling window lies entirely outside the input");
  return StatusCode::kOk;
}

template <typename T>
void MaxInt(const PoolData& d, const TensorView& in, const TensorView& out, int32_t lowest) {
  const T* x = in.As<T>();
  T* y = out.As<T>();
  const int32_t in_w = in.dims[2], depth = in.dims[3];
  ForEachWindow(d, in, out, [&](int32_t o, int32_t base, int32_t y0, int32_t y1, int32_t x0, int32_t x1) {
    int32_t m = lowest;
    for (int32_t iy = y0; iy < y1; ++iy) {
      for (int32_t ix = x0; ix < x1; ++ix) m = Max32(m, x[base + (iy * in_w + ix) * depth]);
    }
    y[o] = static_cast<T>(Min32(Max32(m, d.act_min), d.act_max));
  });
}

void MaxFloat(const PoolData& d, const TensorView& in, const TensorView& out) {
  const float* x = in.As<float>();
  float* y = out.As<float>();
  const int32_t in_w = in.dims[2], depth = in.dims[3];
  ForEachWindow(d, in, out, [&](int32_t o, int32_t base, int32_t y0, int32_t y1, int32_t x0, int32_t x1) {
    float m = -FLT_MAX;
    for (int32_t iy = y0; iy < y1; ++iy) {
      for (int32_t ix = x0; ix < x1; ++ix) {
        const float v = x[base + (iy * in_w + ix) * depth];
        m = m < v ? v : m;  // std::max(m, v)
      }
    }
    const float lo = m < d.act_min_f ? d.act_min_f : m;
    y[o] = lo > d.act_max_f ? d.act_max_f : lo;
  });
}

StatusCode EvalAverage(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  PoolData d = *static_cast<const PoolData*>(ctx.op_data());
  int32_t top = 0;
  if (ctx.StreamPadTop(&top)) d.pad.height = top;  // one output row of a stream: its own top padding
  switch (in.type) {
    case TensorType::FLOAT32: return AverageFloat(ctx, d, in, out);
    case TensorType::INT8: return AverageInt<int8_t>(ctx, d, in, out);
    case TensorType::INT16: return AverageInt<int16_t>(ctx, d, in, out);
    default: return ctx.Fail(StatusCode::kUnsupported, "type %s not supported", TypeName(in.type));
  }
}

StatusCode EvalMax(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  PoolData d = *static_cast<const PoolData*>(ctx.op_data());
  int32_t top = 0;
  if (ctx.StreamPadTop(&top)) d.pad.height = top;  // one output row of a stream: its own top padding
  switch (in.type) {
    case TensorType::FLOAT32: MaxFloat(d, in, out); return StatusCode::kOk;
    case TensorType::INT8: MaxInt<int8_t>(d, in, out, -128); return StatusCode::kOk;
    case TensorType::INT16: MaxInt<int16_t>(d, in, out, -32768); return StatusCode::kOk;
    default: return ctx.Fail(StatusCode::kUnsupported, "type %s not supported", TypeName(in.type));
  }
}

const KernelRegistration kAveragePool{"AVERAGE_POOL_2D", &Prepare, &EvalAverage, nullptr, true};
const KernelRegistration kMaxPool{"MAX_POOL_2D", &Prepare, &EvalMax, nullptr, true};

}  // namespace

const KernelRegistration* Register_AVERAGE_POOL_2D() { return &kAveragePool; }
const KernelRegistration* Register_MAX_POOL_2D() { return &kMaxPool; }

}  // namespace arenaplan::rt
