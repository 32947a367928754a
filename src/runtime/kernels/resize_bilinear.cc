// RESIZE_BILINEAR (NHWC), as TFLM (resize_bilinear.cc, reference/resize_bilinear.h):
//   float32: source coordinate (y + 0.5) * scale - 0.5 with half_pixel_centers, else y * scale;
//            scale = in / out (or (in - 1) / (out - 1) with align_corners); the four neighbours
//            weighted in the reference's exact expression order (the trailing + 0.0f included);
//   int8:    the same in 10-bit fixed point (ResizeBilinearInteger), rounded half away from 0.
// The size input must be constant and equal the output's height and width. Other types pass
// Prepare and fail at eval, as on TFLM. O(output elements).
#include <cmath>
#include <cstdint>

#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

struct ResizeBilinearData {
  bool align_corners, half_pixel_centers;
};

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView in, size, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &size));
  RT_RETURN_IF_ERROR(RequireSameTypeIo(ctx, &in, &out));
  if (in.rank != 4 || out.rank != 4 || size.rank != 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "input and output must be 4-D, size 1-D");
  }
  RT_RETURN_IF_ERROR(RequireType(ctx, size, TensorType::INT32, "size"));
  if (size.data == nullptr) return ctx.Fail(StatusCode::kUnsupported, "Non constant size tensor not supported");
  if (size.dims[0] != 2 || LoadUnaligned<int32_t>(size.data, 0) != out.dims[1] ||
      LoadUnaligned<int32_t>(size.data, 1) != out.dims[2]) {
    return ctx.Fail(StatusCode::kInvalidModel, "size must hold the output's height and width [%d, %d]", out.dims[1],
                    out.dims[2]);
  }
  if (in.dims[0] != out.dims[0] || in.dims[3] != out.dims[3]) {
    return ctx.Fail(StatusCode::kInvalidModel, "batch or depth differs between input and output");
  }
  const auto* o = Options<tfl::ResizeBilinearOptions>(ctx);
  const ResizeBilinearData d{o != nullptr && o->align_corners(), o != nullptr && o->half_pixel_centers()};
  if (d.align_corners && d.half_pixel_centers) {
    return ctx.Fail(StatusCode::kUnsupported, "If half_pixel_centers is True, align_corners must be False.");
  }
  return SetOpData(ctx, d);
}

void FloatCoordinate(int32_t value, float scale, bool half, int32_t size, float* scaled, int32_t* lo, int32_t* hi) {
  *scaled = half ? (static_cast<float>(value) + 0.5f) * scale - 0.5f : static_cast<float>(value) * scale;
  const int32_t f = static_cast<int32_t>(std::floor(*scaled));
  const int32_t c = static_cast<int32_t>(std::ceil(*scaled));
  *lo = f > 0 ? f : 0;
  *hi = c < size - 1 ? c : size - 1;
}

void ResizeFloat(const ResizeBilinearData& d, const TensorView& in, const TensorView& out) {
  const int32_t ih = in.dims[1], iw = in.dims[2], depth = in.dims[3], oh = out.dims[1], ow = out.dims[2];
  float hs = static_cast<float>(ih) / oh, ws = static_cast<float>(iw) / ow;
  if (d.align_corners && oh > 1) hs = static_cast<float>(ih - 1) / (oh - 1);
  if (d.align_corners && ow > 1) ws = static_cast<float>(iw - 1) / (ow - 1);
  const float* x = in.As<float>();
  float* y = out.As<float>();
  for (int32_t b = 0; b < in.dims[0]; ++b) {
    for (int32_t oy = 0; oy < oh; ++oy) {
      float fy;
      int32_t y0, y1;
      FloatCoordinate(oy, hs, d.half_pixel_centers, ih, &fy, &y0, &y1);
      for (int32_t ox = 0; ox < ow; ++ox) {
        float fx;
        int32_t x0, x1;
        FloatCoordinate(ox, ws, d.half_pixel_centers, iw, &fx, &x0, &x1);
        for (int32_t c = 0; c < depth; ++c) {
          const float v = x[Offset4(in.dims, b, y0, x0, c)] * (1 - (fy - y0)) * (1 - (fx - x0)) +
                          x[Offset4(in.dims, b, y1, x0, c)] * (fy - y0) * (1 - (fx - x0)) +
                          x[Offset4(in.dims, b, y0, x1, c)] * (1 - (fy - y0)) * (fx - x0) +
                          x[Offset4(in.dims, b, y1, x1, c)] * (fy - y0) * (fx - x0) + 0.0f;
          y[Offset4(out.dims, b, oy, ox, c)] = v;
        }
      }
    }
  }
}

void IntCoordinate(int32_t value, int32_t scale_10, bool half, int32_t size, int32_t* scaled, int32_t* lo,
                   int32_t* hi) {
  *scaled = half ? value * scale_10 + scale_10 / 2 - (1 << 9) : value * scale_10;
  const int32_t l = *scaled / (1 << 10), h = (*scaled + (1 << 10) - 1) / (1 << 10);
  *lo = l > 0 ? l : 0;
  *hi = h < size - 1 ? h : size - 1;
}

void ResizeInt8(const ResizeBilinearData& d, const TensorView& in, const TensorView& out) {
  const int32_t ih = in.dims[1], iw = in.dims[2], depth = in.dims[3], oh = out.dims[1], ow = out.dims[2];
  int32_t hs = ((1 << 10) * ih + oh / 2) / oh, ws = ((1 << 10) * iw + ow / 2) / ow;
  if (d.align_corners && oh > 1) hs = ((1 << 10) * (ih - 1) + (oh - 1) / 2) / (oh - 1);
  if (d.align_corners && ow > 1) ws = ((1 << 10) * (iw - 1) + (ow - 1) / 2) / (ow - 1);
  const int8_t* x = in.As<int8_t>();
  int8_t* y = out.As<int8_t>();
  for (int32_t b = 0; b < in.dims[0]; ++b) {
    for (int32_t oy = 0; oy < oh; ++oy) {
      int32_t sy, y0, y1;
      IntCoordinate(oy, hs, d.half_pixel_centers, ih, &sy, &y0, &y1);
      const int64_t wy1 = sy - (1 << 10) * y0, wy0 = (1 << 10) - wy1;
      for (int32_t ox = 0; ox < ow; ++ox) {
        int32_t sx, x0, x1;
        IntCoordinate(ox, ws, d.half_pixel_centers, iw, &sx, &x0, &x1);
        const int64_t wx1 = sx - (1 << 10) * x0, wx0 = (1 << 10) - wx1;
        for (int32_t c = 0; c < depth; ++c) {
          const int64_t v = x[Offset4(in.dims, b, y0, x0, c)] * wy0 * wx0 +
                            x[Offset4(in.dims, b, y1, x0, c)] * wy1 * wx0 +
                            x[Offset4(in.dims, b, y0, x1, c)] * wy0 * wx1 +
                            x[Offset4(in.dims, b, y1, x1, c)] * wy1 * wx1;
          const int64_t round = v > 0 ? (1 << 19) : -(1 << 19);
          y[Offset4(out.dims, b, oy, ox, c)] = static_cast<int8_t>((v + round) / (1 << 20));
        }
      }
    }
  }
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  const auto& d = *static_cast<const ResizeBilinearData*>(ctx.op_data());
  if (out.dims[1] <= 0 || out.dims[2] <= 0) return StatusCode::kOk;
  if (out.type == TensorType::FLOAT32) {
    ResizeFloat(d, in, out);
  } else if (out.type == TensorType::INT8) {
    ResizeInt8(d, in, out);
  } else {
    return ctx.Fail(StatusCode::kUnsupported, "Output type is %d, requires float or int8.", static_cast<int>(out.type));
  }
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_KERNEL(RESIZE_BILINEAR, &Prepare, &Eval)

}  // namespace arenaplan::rt
