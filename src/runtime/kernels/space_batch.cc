// SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND (3D [b, h, d] or 4D NHWC; any fixed-size type, bytewise
// and therefore exact), as TFLM's reference: block shape and paddings / crops are int32 tensors
// read in eval; padded positions get the output zero point (0 for float). Each output pixel is
// one memcpy / memset of `depth` elements. O(output elements).
#include <cstring>

#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

// The 4D view [b, h, w, d] of a 3D or 4D tensor (3D gets w = 1).
struct Dims4 {
  int32_t b, h, w, d;
};

bool As4D(const TensorView& t, Dims4* o) {
  if (t.rank == 4) {
    *o = {t.dims[0], t.dims[1], t.dims[2], t.dims[3]};
    return true;
  }
  if (t.rank == 3) {
    *o = {t.dims[0], t.dims[1], 1, t.dims[2]};
    return true;
  }
  return false;
}

// Reads block (bh, bw) and the 2x2 pads/crops (top, bottom, left, right); 3D inputs have one
// spatial dim. False when the tensors do not fit.
bool ReadBlockAndPads(const TensorView& in, const TensorView& block, const TensorView& pads, int32_t* bh, int32_t* bw,
                      int32_t* p) {
  const int32_t spatial = in.rank - 2;
  if (block.data == nullptr || pads.data == nullptr || block.type != TensorType::INT32 ||
      pads.type != TensorType::INT32 || ElementCount(block) != spatial || ElementCount(pads) != 2 * spatial) {
    return false;
  }
  const int32_t* b = block.As<int32_t>();
  const int32_t* q = pads.As<int32_t>();
  *bh = b[0];
  *bw = spatial == 2 ? b[1] : 1;
  p[0] = q[0];
  p[1] = q[1];
  p[2] = spatial == 2 ? q[2] : 0;
  p[3] = spatial == 2 ? q[3] : 0;
  if (*bh < 1 || *bw < 1) return false;
  for (int k = 0; k < 4; ++k) {
    if (p[k] < 0) return false;
  }
  return true;
}

StatusCode PrepareCommon(KernelContext& ctx, bool to_batch) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 3, 1));
  TensorView in, block, pads, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &block));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 2, &pads));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (in.type != out.type || TypeSize(in.type) == 0) {
    return ctx.Fail(StatusCode::kInvalidModel, "input type %s / output type %s not usable", TypeName(in.type),
                    TypeName(out.type));
  }
  Dims4 i4{}, o4{};
  if (!As4D(in, &i4) || !As4D(out, &o4) || in.rank != out.rank) {
    return ctx.Fail(StatusCode::kUnsupported, "only 3D or 4D tensors of equal rank are supported");
  }
  int32_t bh = 0, bw = 0, p[4];
  if (!ReadBlockAndPads(in, block, pads, &bh, &bw, p)) {
    return ctx.Fail(StatusCode::kUnsupported, "block shape / %s must be constant int32, positive / non-negative",
                    to_batch ? "paddings" : "crops");
  }
  const int64_t blocks = static_cast<int64_t>(bh) * bw;
  bool ok;
  if (to_batch) {
    const int64_t ph = static_cast<int64_t>(i4.h) + p[0] + p[1], pw = static_cast<int64_t>(i4.w) + p[2] + p[3];
    ok = ph % bh == 0 && pw % bw == 0 && o4.b == i4.b * blocks && o4.h == ph / bh && o4.w == pw / bw && o4.d == i4.d;
  } else {
    ok = i4.b % blocks == 0 && o4.b == i4.b / blocks && o4.h == static_cast<int64_t>(i4.h) * bh - p[0] - p[1] &&
         o4.w == static_cast<int64_t>(i4.w) * bw - p[2] - p[3] && o4.d == i4.d;
  }
  if (!ok) return ctx.Fail(StatusCode::kInvalidModel, "output shape does not match block shape and paddings/crops");
  return StatusCode::kOk;
}

StatusCode PrepareS2B(KernelContext& ctx) { return PrepareCommon(ctx, true); }
StatusCode PrepareB2S(KernelContext& ctx) { return PrepareCommon(ctx, false); }

StatusCode EvalS2B(KernelContext& ctx) {
  TensorView in, block, pads, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &block));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 2, &pads));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  Dims4 i4{}, o4{};
  if (!As4D(in, &i4) || !As4D(out, &o4)) return ctx.Fail(StatusCode::kKernelError, "tensors must be 3D or 4D");
  int32_t bh = 0, bw = 0, p[4];
  if (!ReadBlockAndPads(in, block, pads, &bh, &bw, p)) return ctx.Fail(StatusCode::kKernelError, "bad block/paddings");
  const size_t es = TypeSize(in.type);
  const size_t pixel = static_cast<size_t>(i4.d) * es;
  const uint8_t pad_byte = static_cast<uint8_t>(out.type == TensorType::FLOAT32 ? 0 : out.zero_point);
  const uint8_t* src = static_cast<const uint8_t*>(in.data);
  uint8_t* dst = static_cast<uint8_t*>(out.data);
  for (int32_t ob = 0; ob < o4.b; ++ob) {
    const int32_t ib = ob % i4.b;
    const int32_t shift_w = (ob / i4.b) % bw;
    const int32_t shift_h = (ob / i4.b) / bw;
    for (int32_t oh = 0; oh < o4.h; ++oh) {
      for (int32_t ow = 0; ow < o4.w; ++ow, dst += pixel) {
        const int64_t h = static_cast<int64_t>(oh) * bh + shift_h - p[0];
        const int64_t w = static_cast<int64_t>(ow) * bw + shift_w - p[2];
        if (h < 0 || h >= i4.h || w < 0 || w >= i4.w) {
          std::memset(dst, pad_byte, pixel);  // TFLM memsets the zero point's low byte
        } else {
          std::memcpy(dst, src + ((static_cast<int64_t>(ib) * i4.h + h) * i4.w + w) * pixel, pixel);
        }
      }
    }
  }
  return StatusCode::kOk;
}

StatusCode EvalB2S(KernelContext& ctx) {
  TensorView in, block, crops, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &block));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 2, &crops));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  Dims4 i4{}, o4{};
  if (!As4D(in, &i4) || !As4D(out, &o4)) return ctx.Fail(StatusCode::kKernelError, "tensors must be 3D or 4D");
  int32_t bh = 0, bw = 0, p[4];
  if (!ReadBlockAndPads(in, block, crops, &bh, &bw, p)) return ctx.Fail(StatusCode::kKernelError, "bad block/crops");
  const size_t pixel = static_cast<size_t>(i4.d) * TypeSize(in.type);
  const uint8_t* src = static_cast<const uint8_t*>(in.data);
  uint8_t* dst = static_cast<uint8_t*>(out.data);
  for (int32_t ib = 0; ib < i4.b; ++ib) {
    const int32_t ob = ib % o4.b;
    const int32_t spatial = ib / o4.b;
    const int32_t off_h = spatial / bw, off_w = spatial % bw;
    for (int32_t ih = 0; ih < i4.h; ++ih) {
      const int64_t oh = static_cast<int64_t>(ih) * bh + off_h - p[0];
      if (oh < 0 || oh >= o4.h) continue;
      for (int32_t iw = 0; iw < i4.w; ++iw) {
        const int64_t ow = static_cast<int64_t>(iw) * bw + off_w - p[2];
        if (ow < 0 || ow >= o4.w) continue;
        std::memcpy(dst + ((static_cast<int64_t>(ob) * o4.h + oh) * o4.w + ow) * pixel,
                    src + ((static_cast<int64_t>(ib) * i4.h + ih) * i4.w + iw) * pixel, pixel);
      }
    }
  }
  return StatusCode::kOk;
}

const KernelRegistration kS2B{"SPACE_TO_BATCH_ND", &PrepareS2B, &EvalS2B};
const KernelRegistration kB2S{"BATCH_TO_SPACE_ND", &PrepareB2S, &EvalB2S};

}  // namespace

const KernelRegistration* Register_BATCH_TO_SPACE_ND() { return &kB2S; }
const KernelRegistration* Register_SPACE_TO_BATCH_ND() { return &kS2B; }

}  // namespace arenaplan::rt
