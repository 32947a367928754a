// DEPTHWISE_CONV_2D with the int8 fast path (depth multiplier 1); the portable kernel
// (kernels/depthwise_conv.cc) prepares every case and evaluates all others. Four adjacent channels
// are one 4-byte word in NHWC, so each tap of an output pixel is one input word (widened with the
// input offset added: Sxtab16 / Sxtab16Ror8) and one filter word (Sxtb16 / Sxtb16Ror8), and four
// 16x16 multiply-accumulates (Smlabb / Smlatt) into the four channels' accumulators.
// Work goes by four-channel block, so the block's filter words, bias and requantization are
// gathered once. Rows outside the image are skipped (ValidTaps, as the reference does); columns
// are handled without a per-pixel edge case: a window sticking out left or right is slid back
// inside the image and its filter words slid with it, the ones that fall off replaced by 0, so the
// taps the reference skips contribute exactly 0 (a "shifted tap set" per distinct slide, built
// once per block). Three-tap filter rows are unrolled. Needs dilation_w 1, a filter no wider than
// the input and at most kMaxTaps taps; otherwise (and for the depth % 4 last channels) the same
// sums run one channel at a time. No scratch. O(out_pixels * depth * taps).
#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/dsp/intrinsics.h"
#include "runtime/kernels/dsp/registrations.h"
#include "runtime/kernels/dsp/requantize.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

constexpr int32_t kMaxTaps = 25;   // filter taps of the four-channel path (5x5)
constexpr int32_t kMaxWidth = 5;   // filter width of the four-channel path
constexpr int32_t kMaxSlides = 2 * kMaxWidth - 1;

struct Shape {
  int32_t batches, in_h, in_w, depth, f_h, f_w, out_h, out_w;
};

// What one four-channel block needs, gathered once: filter words per slide (slide k = window moved
// k - (f_w - 1) columns right of where it should be), bias and requantization per channel.
struct Block {
  uint32_t taps[kMaxSlides][kMaxTaps];
  bool built[kMaxSlides];
  int32_t bias[4];
  dsp::RequantParams r[4];
};

// The filter words of `slide` (built on first use): column j of the slid window is filter column
// j + slide - (f_w - 1), or 0 outside the filter.
const uint32_t* Taps(const Shape& s, const int8_t* filter, int32_t c, int32_t slide, Block* blk) {
  uint32_t* t = blk->taps[slide];
  if (!blk->built[slide]) {
    for (int32_t fy = 0; fy < s.f_h; ++fy) {
      for (int32_t j = 0; j < s.f_w; ++j) {
        const int32_t fx = j + slide - (s.f_w - 1);
        t[fy * s.f_w + j] = fx >= 0 && fx < s.f_w ? dsp::Load32(filter + (fy * s.f_w + fx) * s.depth + c) : 0u;
      }
    }
    blk->built[slide] = true;
  }
  return t;
}

// One tap of four channels: a_i += w_i * (x_i + offset).
#define RT_DW_TAP(xv, wv)                                                            \
  do {                                                                               \
    const uint32_t xe = dsp::Sxtab16(offset, xv), xo = dsp::Sxtab16Ror8(offset, xv); \
    const uint32_t we = dsp::Sxtb16(wv), wo = dsp::Sxtb16Ror8(wv);                   \
    a0 = dsp::Smlabb(xe, we, a0);                                                    \
    a2 = dsp::Smlatt(xe, we, a2);                                                    \
    a1 = dsp::Smlabb(xo, wo, a1);                                                    \
    a3 = dsp::Smlatt(xo, wo, a3);                                                    \
  } while (0)

// acc[0..3] += sum over `rows` filter rows (f_w taps each, x_row input bytes apart, depth bytes
// between taps) of w_i * (x_i + offset), channels i = 0..3. Not inlined, like the two below: on
// their own these loops keep their values in registers.
__attribute__((noinline)) void FourChannels(const int8_t* x, int32_t rows, int32_t f_w, int32_t x_row,
                                            int32_t depth, const uint32_t* taps, uint32_t offset, int32_t* acc) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  for (int32_t r = rows; r > 0; --r, x += x_row, taps += f_w) {
    for (int32_t j = 0; j < f_w; ++j) {
      const uint32_t xv = dsp::Load32(x + j * depth), wv = taps[j];
      RT_DW_TAP(xv, wv);
    }
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

// The same for a full 3x3 window, unrolled.
__attribute__((noinline)) void FourChannels3x3(const int8_t* x, int32_t x_row, int32_t depth, const uint32_t* taps,
                                               uint32_t offset, int32_t* acc) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  for (int32_t r = 0; r < 3; ++r, x += x_row, taps += 3) {
    const uint32_t x0 = dsp::Load32(x), w0 = taps[0];
    RT_DW_TAP(x0, w0);
    const uint32_t x1 = dsp::Load32(x + depth), w1 = taps[1];
    RT_DW_TAP(x1, w1);
    const uint32_t x2 = dsp::Load32(x + 2 * depth), w2 = taps[2];
    RT_DW_TAP(x2, w2);
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

// out[i] = acc[i] requantized with r[i] and clamped, i = 0..3.
__attribute__((noinline)) void Requantize4(const int32_t* acc, const dsp::RequantParams* r, int32_t offset,
                                           int32_t lo, int32_t hi, int8_t* out) {
  for (int32_t i = 0; i < 4; ++i) out[i] = static_cast<int8_t>(dsp::RequantizeClamp(acc[i], r[i], offset, lo, hi));
}

#undef RT_DW_TAP

// One output row of channels [c, c + 4): every pixel's (slid) window, then requantization.
void RowOfFour(const DepthwiseData& d, const Shape& s, const int8_t* image, const int8_t* filter, int32_t c,
               int32_t oy, Block* blk, int8_t* out) {
  const ConvWindow& cw = d.w;
  const int32_t iy0 = oy * cw.stride_h - cw.pad.height;
  int32_t fy0 = 0, fy1 = 0;
  ValidTaps(iy0, cw.dilation_h, s.f_h, s.in_h, &fy0, &fy1);
  const int32_t rows = fy1 - fy0;
  const int32_t x_row = cw.dilation_h * s.in_w * s.depth;
  const uint32_t offset = dsp::Splat16(d.q.input_offset);
  const int32_t out_offset = d.q.output_offset, lo = d.q.act_min, hi = d.q.act_max;
  const int8_t* row = image + (rows > 0 ? (iy0 + cw.dilation_h * fy0) * s.in_w * s.depth : 0) + c;
  for (int32_t ox = 0; ox < s.out_w; ++ox, out += s.depth) {
    const int32_t ix0 = ox * cw.stride_w - cw.pad.width;
    const int32_t start = ix0 < 0 ? 0 : (ix0 > s.in_w - s.f_w ? s.in_w - s.f_w : ix0);  // slid inside
    const int32_t slide = start - ix0 + s.f_w - 1;
    const bool overlap = slide >= 0 && slide < 2 * s.f_w - 1;  // else no tap is inside: bias only
    int32_t acc[4] = {blk->bias[0], blk->bias[1], blk->bias[2], blk->bias[3]};
    if (overlap) {
      const uint32_t* taps = Taps(s, filter, c, slide, blk) + fy0 * s.f_w;
      if (rows == 3 && s.f_w == 3) {
        FourChannels3x3(row + start * s.depth, x_row, s.depth, taps, offset, acc);
      } else {
        FourChannels(row + start * s.depth, rows, s.f_w, x_row, s.depth, taps, offset, acc);
      }
    }
    Requantize4(acc, blk->r, out_offset, lo, hi, out);
  }
}

// Channel c of every pixel, with the reference's clipped windows (any dilation and size).
void OneChannel(const DepthwiseData& d, const Shape& s, const TensorView& in, const int8_t* filter,
                const int32_t* bias, int32_t c, int8_t* out) {
  const ConvWindow& cw = d.w;
  const ConvOutputParams& q = d.q;
  const dsp::RequantParams r = dsp::MakeRequant(q.multipliers[c], q.shifts[c]);
  for (int32_t b = 0; b < s.batches; ++b) {
    const int8_t* image = in.As<int8_t>() + b * s.in_h * s.in_w * s.depth;
    for (int32_t oy = 0; oy < s.out_h; ++oy) {
      const int32_t iy0 = oy * cw.stride_h - cw.pad.height;
      int32_t fy0 = 0, fy1 = 0;
      ValidTaps(iy0, cw.dilation_h, s.f_h, s.in_h, &fy0, &fy1);
      for (int32_t ox = 0; ox < s.out_w; ++ox) {
        const int32_t ix0 = ox * cw.stride_w - cw.pad.width;
        int32_t fx0 = 0, fx1 = 0;
        ValidTaps(ix0, cw.dilation_w, s.f_w, s.in_w, &fx0, &fx1);
        uint32_t acc = bias != nullptr ? static_cast<uint32_t>(LoadUnaligned<int32_t>(bias, c)) : 0u;
        for (int32_t fy = fy0; fy < fy1; ++fy) {
          const int32_t iy = iy0 + cw.dilation_h * fy;
          for (int32_t fx = fx0; fx < fx1; ++fx) {
            const int32_t x = image[(iy * s.in_w + ix0 + cw.dilation_w * fx) * s.depth + c];
            acc += static_cast<uint32_t>(filter[(fy * s.f_w + fx) * s.depth + c] * (x + q.input_offset));
          }
        }
        out[((b * s.out_h + oy) * s.out_w + ox) * s.depth + c] = static_cast<int8_t>(
            dsp::RequantizeClamp(static_cast<int32_t>(acc), r, q.output_offset, q.act_min, q.act_max));
      }
    }
  }
}

void EvalInt8(const DepthwiseData& d, const ConvTensors& t) {
  const TensorView &in = t.in, &f = t.filter, &out = t.out;
  const Shape s{out.dims[0], in.dims[1], in.dims[2], in.dims[3], f.dims[1], f.dims[2], out.dims[1], out.dims[2]};
  const int32_t* bias = t.has_bias ? t.bias.As<int32_t>() : nullptr;
  const int8_t* filter = f.As<int8_t>();
  const bool four_wide = d.w.dilation_w == 1 && s.f_w <= kMaxWidth && s.f_h * s.f_w <= kMaxTaps && s.f_w <= s.in_w;
  const int32_t blocks = four_wide ? s.depth / 4 : 0;
  Block blk;
  for (int32_t c = 0; c < 4 * blocks; c += 4) {
    for (int32_t i = 0; i < kMaxSlides; ++i) blk.built[i] = false;
    for (int32_t i = 0; i < 4; ++i) {
      blk.bias[i] = bias != nullptr ? LoadUnaligned<int32_t>(bias, c + i) : 0;
      blk.r[i] = dsp::MakeRequant(d.q.multipliers[c + i], d.q.shifts[c + i]);
    }
    for (int32_t b = 0; b < s.batches; ++b) {
      const int8_t* image = in.As<int8_t>() + b * s.in_h * s.in_w * s.depth;
      for (int32_t oy = 0; oy < s.out_h; ++oy) {
        RowOfFour(d, s, image, filter, c, oy, &blk, out.As<int8_t>() + ((b * s.out_h + oy) * s.out_w) * s.depth + c);
      }
    }
  }
  for (int32_t c = 4 * blocks; c < s.depth; ++c) OneChannel(d, s, in, filter, bias, c, out.As<int8_t>());
}

Status Eval(KernelContext& ctx) {
  ConvTensors t;
  RT_RETURN_IF_ERROR(GetConvTensors(ctx, 0, 1, &t));
  const auto* d = static_cast<const DepthwiseData*>(ctx.op_data());
  if (t.in.type != TensorType::INT8 || d->depth_multiplier != 1) return Register_DEPTHWISE_CONV_2D()->eval(ctx);
  EvalInt8(*d, t);
  return Status::kOk;
}

Status Prepare(KernelContext& ctx) { return Register_DEPTHWISE_CONV_2D()->prepare(ctx); }

}  // namespace

RT_REGISTER_DSP_KERNEL(DEPTHWISE_CONV_2D, &Prepare, &Eval)

}  // namespace arenaplan::rt
