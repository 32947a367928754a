// AVERAGE_POOL_2D and MAX_POOL_2D with int8 fast paths; the portable kernels (kernels/pooling.cc)
// prepare every case and evaluate all others. The window is clipped to the image as the
// reference does, four channels (one NHWC word) at a time:
//   max:     a bytewise signed max per tap (SSUB8 + SEL), then the activation clamp bytewise;
//   average: the taps summed in 16-bit lanes (Sxtab16 / Sxtab16Ror8; exact while the window has
//            at most 256 taps, |sum| <= 128 * 256), then per channel the reference's rounding
//            division (sum +- count / 2) / count and clamp. Larger windows, and a window with
//            no tap inside the image (the portable kernel reports it), take the portable path.
// The depth % 4 last channels run the same steps one by one. No scratch. O(out_elems * taps).
#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/dsp/intrinsics.h"
#include "runtime/kernels/dsp/registrations.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

constexpr int32_t kMaxLaneTaps = 256;

// The clipped window of output pixel (oy, ox): input rows [y0, y1), columns [x0, x1).
struct Window {
  int32_t y0, y1, x0, x1;
  int32_t count() const { return (y1 - y0) * (x1 - x0); }
};

Window WindowAt(const PoolData& d, int32_t in_h, int32_t in_w, int32_t oy, int32_t ox) {
  const int32_t iy = oy * d.stride_h - d.pad.height, ix = ox * d.stride_w - d.pad.width;
  Window w{iy < 0 ? 0 : iy, iy + d.filter_h, ix < 0 ? 0 : ix, ix + d.filter_w};
  if (w.y1 > in_h) w.y1 = in_h;
  if (w.x1 > in_w) w.x1 = in_w;
  if (w.y1 < w.y0) w.y1 = w.y0;
  if (w.x1 < w.x0) w.x1 = w.x0;
  return w;
}

// Visits every output pixel: f(window, input of its batch image at (0, 0, channel 0), output).
template <typename F>
bool ForEachPixel(const PoolData& d, const TensorView& in, const TensorView& out, F&& f) {
  const int32_t in_h = in.dims[1], in_w = in.dims[2], depth = in.dims[3];
  const int8_t* x = in.As<int8_t>();
  int8_t* y = out.As<int8_t>();
  for (int32_t b = 0; b < out.dims[0]; ++b, x += in_h * in_w * depth) {
    for (int32_t oy = 0; oy < out.dims[1]; ++oy) {
      for (int32_t ox = 0; ox < out.dims[2]; ++ox, y += depth) {
        if (!f(WindowAt(d, in_h, in_w, oy, ox), x, y)) return false;
      }
    }
  }
  return true;
}

inline int32_t Clamp(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

// The reference's rounding division of a window sum.
inline int32_t Average(int32_t sum, int32_t count) {
  return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

bool MaxInt8(const PoolData& d, const TensorView& in, const TensorView& out) {
  const int32_t in_w = in.dims[2], depth = in.dims[3];
  const uint32_t lo4 = dsp::Splat8(d.act_min), hi4 = dsp::Splat8(d.act_max);
  const int32_t lo = d.act_min, hi = d.act_max;
  return ForEachPixel(d, in, out, [&](const Window& w, const int8_t* x, int8_t* y) {
    int32_t c = 0;
    for (; c + 4 <= depth; c += 4) {
      uint32_t m = 0x80808080u;
      for (int32_t iy = w.y0; iy < w.y1; ++iy) {
        const int8_t* row = x + (iy * in_w + w.x0) * depth + c;
        for (int32_t ix = w.x0; ix < w.x1; ++ix, row += depth) m = dsp::MaxInt8x4(m, dsp::Load32(row));
      }
      dsp::Store32(y + c, dsp::MinInt8x4(dsp::MaxInt8x4(m, lo4), hi4));
    }
    for (; c < depth; ++c) {
      int32_t m = -128;
      for (int32_t iy = w.y0; iy < w.y1; ++iy) {
        for (int32_t ix = w.x0; ix < w.x1; ++ix) {
          const int32_t v = x[(iy * in_w + ix) * depth + c];
          m = v > m ? v : m;
        }
      }
      y[c] = static_cast<int8_t>(Clamp(m, lo, hi));
    }
    return true;
  });
}

bool AverageInt8(const PoolData& d, const TensorView& in, const TensorView& out) {
  const int32_t in_w = in.dims[2], depth = in.dims[3];
  const int32_t lo = d.act_min, hi = d.act_max;
  return ForEachPixel(d, in, out, [&](const Window& w, const int8_t* x, int8_t* y) {
    const int32_t count = w.count();
    if (count == 0 || count > kMaxLaneTaps) return false;
    int32_t c = 0;
    for (; c + 4 <= depth; c += 4) {
      uint32_t even = 0, odd = 0;  // 16-bit lane sums of channels (c, c + 2) and (c + 1, c + 3)
      for (int32_t iy = w.y0; iy < w.y1; ++iy) {
        const int8_t* row = x + (iy * in_w + w.x0) * depth + c;
        for (int32_t ix = w.x0; ix < w.x1; ++ix, row += depth) {
          const uint32_t v = dsp::Load32(row);
          even = dsp::Sxtab16(even, v);
          odd = dsp::Sxtab16Ror8(odd, v);
        }
      }
      const int32_t sums[4] = {static_cast<int16_t>(even & 0xFFFFu), static_cast<int16_t>(odd & 0xFFFFu),
                               static_cast<int16_t>(even >> 16), static_cast<int16_t>(odd >> 16)};
      for (int32_t i = 0; i < 4; ++i) y[c + i] = static_cast<int8_t>(Clamp(Average(sums[i], count), lo, hi));
    }
    for (; c < depth; ++c) {
      int32_t sum = 0;
      for (int32_t iy = w.y0; iy < w.y1; ++iy) {
        for (int32_t ix = w.x0; ix < w.x1; ++ix) sum += x[(iy * in_w + ix) * depth + c];
      }
      y[c] = static_cast<int8_t>(Clamp(Average(sum, count), lo, hi));
    }
    return true;
  });
}

// Eval of both: the int8 fast path `fast`, else (or when it declines) the portable eval.
template <bool (*kFast)(const PoolData&, const TensorView&, const TensorView&),
          const KernelRegistration* (*kPortable)()>
StatusCode EvalPool(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  PoolData d = *static_cast<const PoolData*>(ctx.op_data());
  int32_t top = 0;
  if (ctx.StreamPadTop(&top)) d.pad.height = top;  // one output row of a stream: its own top padding
  if (in.type == TensorType::INT8 && kFast(d, in, out)) return StatusCode::kOk;
  return kPortable()->eval(ctx);  // also redoes a partly written int8 output whole
}

StatusCode EvalAverage(KernelContext& ctx) { return EvalPool<&AverageInt8, &Register_AVERAGE_POOL_2D>(ctx); }
StatusCode EvalMax(KernelContext& ctx) { return EvalPool<&MaxInt8, &Register_MAX_POOL_2D>(ctx); }

StatusCode PrepareAverage(KernelContext& ctx) { return Register_AVERAGE_POOL_2D()->prepare(ctx); }
StatusCode PrepareMax(KernelContext& ctx) { return Register_MAX_POOL_2D()->prepare(ctx); }

}  // namespace

RT_REGISTER_DSP_KERNEL(AVERAGE_POOL_2D, &PrepareAverage, &EvalAverage, nullptr, true)
RT_REGISTER_DSP_KERNEL(MAX_POOL_2D, &PrepareMax, &EvalMax, nullptr, true)

}  // namespace arenaplan::rt
