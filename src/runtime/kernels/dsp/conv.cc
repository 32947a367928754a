// CONV_2D with the int8 fast path: same prepare, checks and multipliers as the portable kernel
// (kernels/conv.cc), whose eval still runs every other case (float, int16, grouped filters).
// int8: output channels go in blocks of kChannelBlock (bias and requantization unpacked once per
// block), and within a block output pixels are taken four at a time; their columns (the k = filter_h * filter_w *
// depth input values each reads: for a 1x1 filter without padding the input pixel itself) are
// widened once into a column quad (column_quad.h), tap by tap straight from the input when the
// depth is a multiple of 4 (a tap outside the image becomes 0), else through an int8 im2col row
// with the input zero point as padding. Then every output channel is one DotColumnQuad,
// bias-initialised and requantized (requantize.h). A short last quad repeats its last pixel and
// stores it once more. Bit-exact with the reference: the same integer sums (exact mod 2^32) and
// rounding. Scratch (from the arena): the quad, 8 k bytes, plus k rounded up to 4 bytes of im2col
// staging when the depth is not a multiple of 4 (and the filter not a plain 1x1).
// O(out_pixels * out_depth * k).
#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/dsp/column_quad.h"
#include "runtime/kernels/dsp/registrations.h"
#include "runtime/kernels/dsp/requantize.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

enum class Columns : uint8_t { kPixel, kTaps, kStaged };  // how a column is gathered

struct Shape {
  int32_t batches, in_h, in_w, in_d, f_h, f_w, out_h, out_w, out_d, k;
  Columns columns;
};

bool MakeShape(const ConvTensors& t, const ConvWindow& w, Shape* s) {
  const TensorView &in = t.in, &f = t.filter, &out = t.out;
  if (in.type != TensorType::INT8 || f.type != TensorType::INT8 || f.dims[3] != in.dims[3]) return false;
  s->batches = out.dims[0];
  s->in_h = in.dims[1];
  s->in_w = in.dims[2];
  s->in_d = in.dims[3];
  s->f_h = f.dims[1];
  s->f_w = f.dims[2];
  s->out_h = out.dims[1];
  s->out_w = out.dims[2];
  s->out_d = out.dims[3];
  const int64_t k = static_cast<int64_t>(s->f_h) * s->f_w * s->in_d;
  if (k <= 0 || k > (1 << 26)) return false;  // the filter tensor holds out_d * k bytes
  s->k = static_cast<int32_t>(k);
  if (s->f_h == 1 && s->f_w == 1 && w.pad.height == 0 && w.pad.width == 0) {
    s->columns = Columns::kPixel;
  } else {
    s->columns = s->in_d % 4 == 0 ? Columns::kTaps : Columns::kStaged;
  }
  return true;
}

uint32_t StagingBytes(const Shape& s) {
  return s.columns == Columns::kStaged ? (static_cast<uint32_t>(s.k) + 3u) & ~3u : 0u;
}
uint32_t ScratchBytes(const Shape& s) { return dsp::ColumnQuadBytes(s.k) + StagingBytes(s); }

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(Register_CONV_2D()->prepare(ctx));
  auto* d = static_cast<ConvData*>(ctx.op_data());
  d->dsp_scratch = -1;
  ConvTensors t;
  RT_RETURN_IF_ERROR(GetConvTensors(ctx, 0, 1, &t));
  Shape s;
  if (!MakeShape(t, d->w, &s)) return StatusCode::kOk;
  return ctx.RequestScratch(ScratchBytes(s), &d->dsp_scratch);
}

// Column p of the quad for output pixel `pixel` (batch-major over out_h x out_w).
void GatherColumn(const ConvData& d, const Shape& s, const int8_t* in, int32_t pixel, int32_t p, uint32_t* quad,
                  int8_t* staging) {
  const ConvWindow& w = d.w;
  const int32_t offset = d.q.input_offset;
  const int32_t ox = pixel % s.out_w, oy = (pixel / s.out_w) % s.out_h, b = pixel / (s.out_w * s.out_h);
  const int32_t iy0 = oy * w.stride_h - w.pad.height, ix0 = ox * w.stride_w - w.pad.width;
  const int8_t* image = in + b * s.in_h * s.in_w * s.in_d;
  if (s.columns == Columns::kPixel) {
    dsp::ExpandColumn(image + (iy0 * s.in_w + ix0) * s.in_d, s.k, offset, quad, p);
    return;
  }
  const int32_t groups = s.in_d / 4;
  const uint32_t offset2 = dsp::Splat16(offset);
  // A filter row whose taps are all inside the image (dilation_w 1) is one contiguous run.
  const bool whole_rows = w.dilation_w == 1 && ix0 >= 0 && ix0 + s.f_w <= s.in_w;
  int8_t* o = staging;
  for (int32_t fy = 0, t = 0; fy < s.f_h; ++fy) {
    const int32_t iy = iy0 + fy * w.dilation_h;
    const bool row_inside = iy >= 0 && iy < s.in_h;
    if (row_inside && whole_rows) {
      const int8_t* x = image + (iy * s.in_w + ix0) * s.in_d;
      const int32_t n = s.f_w * s.in_d;
      if (s.columns == Columns::kTaps) {
        dsp::ExpandGroups(x, n / 4, offset2, quad, t * groups, p);
      } else {
        std::memcpy(o, x, static_cast<size_t>(n));
      }
      t += s.f_w;
      o += n;
      continue;
    }
    for (int32_t fx = 0; fx < s.f_w; ++fx, ++t, o += s.in_d) {
      const int32_t ix = ix0 + fx * w.dilation_w;
      const bool inside = row_inside && ix >= 0 && ix < s.in_w;
      const int8_t* x = inside ? image + (iy * s.in_w + ix) * s.in_d : image;
      if (s.columns == Columns::kTaps) {
        if (inside) {
          dsp::ExpandGroups(x, groups, offset2, quad, t * groups, p);
        } else {
          dsp::ZeroGroups(groups, quad, t * groups, p);
        }
      } else if (inside) {
        std::memcpy(o, x, static_cast<size_t>(s.in_d));
      } else {
        std::memset(o, -offset, static_cast<size_t>(s.in_d));  // the zero point: 0 once offset
      }
    }
  }
  if (s.columns == Columns::kStaged) dsp::ExpandColumn(staging, s.k, offset, quad, p);
}

// Output channels handled per pass over the pixels: their bias and unpacked requantization are
// gathered once per pass on the stack (kChannelBlock * 20 bytes).
constexpr int32_t kChannelBlock = 64;

struct ChannelBlock {
  int32_t first, count;
  bool plain;  // every channel shifts right and the clamp is the whole int8 range (one SSAT)
  int32_t bias[kChannelBlock];
  dsp::RequantParams r[kChannelBlock];
};

// Channels [blk.first, blk.first + blk.count) of the quad's four pixels (outs[p] = their output rows).
// kPlain: blk.plain holds, so the output stage is the one-pass formula and a saturation.
template <bool kPlain>
void ChannelsOf(const Shape& s, const ConvOutputParams& q, const int8_t* w, const ChannelBlock& blk,
                const uint32_t* quad, int8_t* const* outs) {
  // Copies: int8 stores may alias anything, so values read through q would be reloaded after each.
  const int32_t offset = q.output_offset, lo = q.act_min, hi = q.act_max, k = s.k;
  int8_t *o0 = outs[0] + blk.first, *o1 = outs[1] + blk.first, *o2 = outs[2] + blk.first, *o3 = outs[3] + blk.first;
  w += blk.first * k;
  const auto stage = [&](int32_t acc, const dsp::RequantParams& r) {
    return kPlain ? dsp::Ssat8(dsp::RequantizeRight(acc, r) + offset) : dsp::RequantizeClamp(acc, r, offset, lo, hi);
  };
  for (int32_t i = 0; i < blk.count; ++i, w += k) {
    const int32_t b = blk.bias[i];
    int32_t acc[4] = {b, b, b, b};
    dsp::DotColumnQuad(w, quad, k, acc);
    const dsp::RequantParams r = blk.r[i];  // a copy, and all four values before any store (aliasing)
    const int32_t v0 = stage(acc[0], r), v1 = stage(acc[1], r), v2 = stage(acc[2], r), v3 = stage(acc[3], r);
    o0[i] = static_cast<int8_t>(v0);
    o1[i] = static_cast<int8_t>(v1);
    o2[i] = static_cast<int8_t>(v2);
    o3[i] = static_cast<int8_t>(v3);
  }
}

void Channels(const Shape& s, const ConvOutputParams& q, const int8_t* w, const ChannelBlock& blk, const uint32_t* quad,
              int8_t* const* outs) {
  if (blk.plain) {
    ChannelsOf<true>(s, q, w, blk, quad, outs);
  } else {
    ChannelsOf<false>(s, q, w, blk, quad, outs);
  }
}

void EvalInt8(const ConvData& d, const Shape& s, const ConvTensors& t, uint8_t* scratch) {
  const int8_t* in = t.in.As<int8_t>();
  const int8_t* w = t.filter.As<int8_t>();
  int8_t* out = t.out.As<int8_t>();
  auto* quad = reinterpret_cast<uint32_t*>(scratch);
  int8_t* staging = reinterpret_cast<int8_t*>(scratch + dsp::ColumnQuadBytes(s.k));
  const int32_t pixels = s.batches * s.out_h * s.out_w;
  ChannelBlock blk;
  for (blk.first = 0; blk.first < s.out_d; blk.first += kChannelBlock) {
    blk.count = s.out_d - blk.first < kChannelBlock ? s.out_d - blk.first : kChannelBlock;
    blk.plain = d.q.act_min <= -128 && d.q.act_max >= 127;
    for (int32_t i = 0; i < blk.count; ++i) {
      const int32_t c = blk.first + i;
      blk.bias[i] = t.has_bias ? LoadUnaligned<int32_t>(t.bias.data, c) : 0;
      blk.r[i] = dsp::MakeRequant(d.q.multipliers[c], d.q.shifts[c]);
      blk.plain = blk.plain && blk.r[i].high_shift >= 0;
    }
    for (int32_t p0 = 0; p0 < pixels; p0 += 4) {
      int8_t* outs[4];
      for (int32_t p = 0; p < 4; ++p) {
        const int32_t pixel = p0 + p < pixels ? p0 + p : pixels - 1;  // a short last quad repeats its last
        GatherColumn(d, s, in, pixel, p, quad, staging);
        outs[p] = out + pixel * s.out_d;
      }
      Channels(s, d.q, w, blk, quad, outs);
    }
  }
}

StatusCode Eval(KernelContext& ctx) {
  ConvData d = *static_cast<const ConvData*>(ctx.op_data());
  if (d.dsp_scratch < 0) return Register_CONV_2D()->eval(ctx);
  // One output row of a stream: its own top padding (taps below the input view are past the
  // image). The column kind, and so the scratch, is the prepared one: a 1x1 filter has no padding.
  int32_t top = 0;
  if (ctx.StreamPadTop(&top)) d.w.pad.height = top;
  ConvTensors t;
  RT_RETURN_IF_ERROR(GetConvTensors(ctx, 0, 1, &t));
  Shape s;
  void* scratch = ctx.GetScratch(d.dsp_scratch);
  if (!MakeShape(t, d.w, &s) || scratch == nullptr) {
    return ctx.Fail(StatusCode::kKernelError, "int8 fast path lost its scratch or shape");
  }
  EvalInt8(d, s, t, static_cast<uint8_t*>(scratch));
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_DSP_KERNEL(CONV_2D, &Prepare, &Eval, nullptr, true)

}  // namespace arenaplan::rt
