// CONV_2D with the int8 fast path: same prepare, checks and multipliers as the portable kernel
// (kernels/conv.cc), whose eval still runs every other case (float, int16, grouped filters).
// int8: output pixels are taken in pairs; each pair's columns (for a 1x1 filter without padding
// the input pixels themselves, else im2col rows with padding set to the input zero point) are
// widened once into a column pair (column_pair.h), then every pair of output channels is one
// DotColumnPair, bias-initialised and requantized (requantize.h). An odd last pixel or channel
// is paired with itself and stored once. Bit-exact with the reference: same integer sums (exact
// mod 2^32) and the same rounding.
// Scratch (from the arena): the column pair, 4 k bytes, plus 2 k rounded up to 4 bytes of int8
// im2col staging unless the filter is 1x1 without padding (k = filter_h * filter_w * depth).
// O(out_pixels * out_depth * k) time.
#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/dsp/column_pair.h"
#include "runtime/kernels/dsp/registrations.h"
#include "runtime/kernels/dsp/requantize.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

struct Shape {
  int32_t batches, in_h, in_w, in_d, f_h, f_w, out_h, out_w, out_d, k;
  bool direct;  // 1x1 filter without padding: columns are input pixels
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
  s->direct = s->f_h == 1 && s->f_w == 1 && w.pad.height == 0 && w.pad.width == 0;
  return true;
}

uint32_t StagingBytes(const Shape& s) { return s.direct ? 0u : 2u * ((static_cast<uint32_t>(s.k) + 3u) & ~3u); }
uint32_t ScratchBytes(const Shape& s) { return 4u * static_cast<uint32_t>(s.k) + StagingBytes(s); }

Status Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(Register_CONV_2D()->prepare(ctx));
  auto* d = static_cast<ConvData*>(ctx.op_data());
  d->dsp_scratch = -1;
  ConvTensors t;
  RT_RETURN_IF_ERROR(GetConvTensors(ctx, 0, 1, &t));
  Shape s;
  if (!MakeShape(t, d->w, &s)) return Status::kOk;
  return ctx.RequestScratch(ScratchBytes(s), &d->dsp_scratch);
}

// The k input values output pixel (b, oy, ox) reads: a pointer into the input (direct), or the
// im2col row written to `staging` (padding = zero_point, which the offset turns into 0).
const int8_t* Column(const Shape& s, const ConvWindow& w, const int8_t* in, int32_t pixel, int8_t zero_point,
                     int8_t* staging) {
  const int32_t ox = pixel % s.out_w, oy = (pixel / s.out_w) % s.out_h, b = pixel / (s.out_w * s.out_h);
  const int32_t iy0 = oy * w.stride_h - w.pad.height, ix0 = ox * w.stride_w - w.pad.width;
  if (s.direct) return in + ((b * s.in_h + iy0) * s.in_w + ix0) * s.in_d;
  int8_t* o = staging;
  for (int32_t fy = 0; fy < s.f_h; ++fy) {
    const int32_t iy = iy0 + fy * w.dilation_h;
    for (int32_t fx = 0; fx < s.f_w; ++fx, o += s.in_d) {
      const int32_t ix = ix0 + fx * w.dilation_w;
      if (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w) {
        std::memset(o, zero_point, static_cast<size_t>(s.in_d));
      } else {
        std::memcpy(o, in + ((b * s.in_h + iy) * s.in_w + ix) * s.in_d, static_cast<size_t>(s.in_d));
      }
    }
  }
  return staging;
}

// All output channels of pixels p0 and p1 (p1 == p0 for a lone last pixel) from their column pair.
void ChannelPairs(const Shape& s, const ConvOutputParams& q, const int8_t* w, const int32_t* bias,
                  const uint32_t* pair, int8_t* out0, int8_t* out1) {
  // Copies: int8 stores may alias anything, so fields read through q would be reloaded after each.
  const int32_t offset = q.output_offset, lo = q.act_min, hi = q.act_max;
  const int32_t* multipliers = q.multipliers;
  const int32_t* shifts = q.shifts;
  for (int32_t c0 = 0; c0 < s.out_d; c0 += 2) {
    const int32_t c1 = c0 + 1 < s.out_d ? c0 + 1 : c0;
    const int32_t b0 = bias != nullptr ? LoadUnaligned<int32_t>(bias, c0) : 0;
    const int32_t b1 = bias != nullptr ? LoadUnaligned<int32_t>(bias, c1) : 0;
    int32_t acc[4] = {b0, b0, b1, b1};
    dsp::DotColumnPair(w + c0 * s.k, w + c1 * s.k, pair, s.k, acc);
    const dsp::RequantParams r0 = dsp::MakeRequant(multipliers[c0], shifts[c0]);
    const dsp::RequantParams r1 = dsp::MakeRequant(multipliers[c1], shifts[c1]);
    out0[c0] = static_cast<int8_t>(dsp::RequantizeClamp(acc[0], r0, offset, lo, hi));
    out1[c0] = static_cast<int8_t>(dsp::RequantizeClamp(acc[1], r0, offset, lo, hi));
    out0[c1] = static_cast<int8_t>(dsp::RequantizeClamp(acc[2], r1, offset, lo, hi));
    out1[c1] = static_cast<int8_t>(dsp::RequantizeClamp(acc[3], r1, offset, lo, hi));
  }
}

void EvalInt8(const ConvData& d, const Shape& s, const ConvTensors& t, uint8_t* scratch) {
  const int8_t* in = t.in.As<int8_t>();
  const int8_t* w = t.filter.As<int8_t>();
  const int32_t* bias = t.has_bias ? t.bias.As<int32_t>() : nullptr;
  int8_t* out = t.out.As<int8_t>();
  auto* pair = reinterpret_cast<uint32_t*>(scratch);
  int8_t* staging0 = reinterpret_cast<int8_t*>(scratch + 4u * static_cast<uint32_t>(s.k));
  int8_t* staging1 = staging0 + StagingBytes(s) / 2;
  const auto zp = static_cast<int8_t>(-d.q.input_offset);
  const int32_t pixels = s.batches * s.out_h * s.out_w;
  for (int32_t p0 = 0; p0 < pixels; p0 += 2) {
    const int32_t p1 = p0 + 1 < pixels ? p0 + 1 : p0;
    const int8_t* x0 = Column(s, d.w, in, p0, zp, staging0);
    const int8_t* x1 = Column(s, d.w, in, p1, zp, staging1);
    dsp::ExpandColumnPair(x0, x1, s.k, d.q.input_offset, pair);
    ChannelPairs(s, d.q, w, bias, pair, out + p0 * s.out_d, out + p1 * s.out_d);
  }
}

Status Eval(KernelContext& ctx) {
  const auto* d = static_cast<const ConvData*>(ctx.op_data());
  if (d->dsp_scratch < 0) return Register_CONV_2D()->eval(ctx);
  ConvTensors t;
  RT_RETURN_IF_ERROR(GetConvTensors(ctx, 0, 1, &t));
  Shape s;
  void* scratch = ctx.GetScratch(d->dsp_scratch);
  if (!MakeShape(t, d->w, &s) || scratch == nullptr) {
    return ctx.Fail(Status::kKernelError, "int8 fast path lost its scratch or shape");
  }
  EvalInt8(*d, s, t, static_cast<uint8_t*>(scratch));
  return Status::kOk;
}

}  // namespace

RT_REGISTER_DSP_KERNEL(CONV_2D, &Prepare, &Eval)

}  // namespace arenaplan::rt
