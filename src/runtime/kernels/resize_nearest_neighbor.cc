// RESIZE_NEAREST_NEIGHBOR (NHWC; float32, int8, int16, int32), exact with TFLM's reference: the
// source row/column of each output row/column comes from GetNearestNeighbor's float formula
// (scale in float, floor or round, align_corners / half_pixel_centers). The output size is the
// model's static output shape; a constant `size` input must agree with it. Source indices are
// computed per output row/column on the fly (no scratch). O(output elements).
#include <cmath>
#include <cstring>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

struct ResizeData {
  bool align_corners;
  bool half_pixel_centers;
};

int32_t Nearest(int32_t out_index, int32_t in_size, int32_t out_size, bool align, bool half) {
  const float scale = (align && out_size > 1) ? static_cast<float>(in_size - 1) / static_cast<float>(out_size - 1)
                                              : static_cast<float>(in_size) / static_cast<float>(out_size);
  const float offset = half ? 0.5f : 0.0f;
  const float pos = (static_cast<float>(out_index) + offset) * scale;
  int32_t v = align ? static_cast<int32_t>(std::round(pos)) : static_cast<int32_t>(std::floor(pos));
  if (v > in_size - 1) v = in_size - 1;
  if (half && v < 0) v = 0;
  return v;
}

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView in, size, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &size));
  RT_RETURN_IF_ERROR(RequireSameTypeIo(ctx, &in, &out));
  RT_RETURN_IF_ERROR(RequireNumericType(ctx, in.type));
  if (in.rank != 4 || out.rank != 4) return ctx.Fail(StatusCode::kInvalidModel, "input and output must be 4D");
  if (in.dims[0] != out.dims[0] || in.dims[3] != out.dims[3]) {
    return ctx.Fail(StatusCode::kInvalidModel, "batch or depth differs between input and output");
  }
  if (in.dims[1] <= 0 || in.dims[2] <= 0) return ctx.Fail(StatusCode::kInvalidModel, "empty input image");
  RT_RETURN_IF_ERROR(RequireType(ctx, size, TensorType::INT32, "size"));
  if (ElementCount(size) != 2) return ctx.Fail(StatusCode::kInvalidModel, "size must hold 2 values");
  if (size.data != nullptr && (size.As<int32_t>()[0] != out.dims[1] || size.As<int32_t>()[1] != out.dims[2])) {
    return ctx.Fail(StatusCode::kInvalidModel, "size [%d, %d] differs from the output shape [%d, %d]",
                    size.As<int32_t>()[0], size.As<int32_t>()[1], out.dims[1], out.dims[2]);
  }
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(ResizeData), &mem));
  auto* d = static_cast<ResizeData*>(mem);
  const auto* opts = Options<tfl::ResizeNearestNeighborOptions>(ctx);
  d->align_corners = opts != nullptr && opts->align_corners();
  d->half_pixel_centers = opts != nullptr && opts->half_pixel_centers();
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const auto* d = static_cast<const ResizeData*>(ctx.op_data());
  const int32_t batches = in.dims[0], in_h = in.dims[1], in_w = in.dims[2], depth = in.dims[3];
  const int32_t out_h = out.dims[1], out_w = out.dims[2];
  const size_t pixel = static_cast<size_t>(depth) * TypeSize(in.type);
  const uint8_t* src = static_cast<const uint8_t*>(in.data);
  uint8_t* dst = static_cast<uint8_t*>(out.data);
  for (int32_t b = 0; b < batches; ++b) {
    for (int32_t y = 0; y < out_h; ++y) {
      const int32_t iy = Nearest(y, in_h, out_h, d->align_corners, d->half_pixel_centers);
      const uint8_t* row = src + (static_cast<size_t>(b) * in_h + iy) * in_w * pixel;
      for (int32_t x = 0; x < out_w; ++x) {
        const int32_t ix = Nearest(x, in_w, out_w, d->align_corners, d->half_pixel_centers);
        std::memcpy(dst, row + static_cast<size_t>(ix) * pixel, pixel);
        dst += pixel;
      }
    }
  }
  return StatusCode::kOk;
}

const KernelRegistration kResize{"RESIZE_NEAREST_NEIGHBOR", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_RESIZE_NEAREST_NEIGHBOR() { return &kResize; }

}  // namespace arenaplan::rt
