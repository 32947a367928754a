// DEPTHWISE_CONV_2D with the int8 fast path (dilation 1, any depth multiplier M); the portable
// kernel (kernels/depthwise_conv.cc) prepares every case and evaluates all others.
// One input channel at a time: the input rows a run of output rows reads are copied, for that
// channel, into a band of int16 rows with the input offset added and the padding columns (and rows
// outside the image) 0, then each of its M output channels (ic * M + m) runs over the band with
// its own filter, bias and requantization. A tap row is then a run of
// adjacent int16 values, so two taps are one 32-bit load and one Smlad against the filter pair
// packed once per channel (an odd last tap pairs with 0). Zeros stand exactly for the taps the
// reference skips, since w * (x - zero_point) is what it adds. The run's accumulators (at most
// kMaxAcc, on the stack) are then requantized in one pass. Scratch (from the arena): the band,
// rows of (out_w - 1) * stride_w + f_w + 1 int16 values, as many as kBandBytes allows (at least
// f_h). O(out_pixels * depth * taps).
#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/dsp/intrinsics.h"
#include "runtime/kernels/dsp/registrations.h"
#include "runtime/kernels/dsp/requantize.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

constexpr int32_t kMaxRows = 16;      // filter height of the fast path
constexpr int32_t kMaxPairs = 64;     // filter rows x tap pairs per row
constexpr int32_t kMaxAcc = 256;      // accumulators per run of output rows (stack)
constexpr int32_t kBandBytes = 1024;  // band size aimed at, beyond the f_h rows always needed

struct Shape {
  int32_t batches, in_h, in_w, depth, f_h, f_w, out_h, out_w;  // depth: of the output and filter
  int32_t in_depth, multiplier;
  int32_t pairs;      // tap pairs per filter row, ceil(f_w / 2)
  int32_t width;      // int16 values per band row
  int32_t run;        // output rows per band fill
  int32_t band_rows;  // f_h + (run - 1) * stride_h
};

bool MakeShape(const DepthwiseData& d, const ConvTensors& t, Shape* s) {
  const TensorView &in = t.in, &f = t.filter, &out = t.out;
  if (in.type != TensorType::INT8 || f.type != TensorType::INT8 || d.w.dilation_h != 1 || d.w.dilation_w != 1 ||
      d.depth_multiplier < 1 || static_cast<int64_t>(in.dims[3]) * d.depth_multiplier != out.dims[3] ||
      f.dims[3] != out.dims[3]) {
    return false;
  }
  *s = Shape{out.dims[0], in.dims[1], in.dims[2],         out.dims[3], f.dims[1], f.dims[2], out.dims[1],
             out.dims[2], in.dims[3], d.depth_multiplier, 0,           0,         0,         0};
  s->pairs = (s->f_w + 1) / 2;
  if (s->f_h > kMaxRows || s->f_h * s->pairs > kMaxPairs || s->out_w < 1 || s->out_w > kMaxAcc || s->out_h < 1) {
    return false;
  }
  const int64_t width = static_cast<int64_t>(s->out_w - 1) * d.w.stride_w + s->f_w + 1;
  if (width > (1 << 20)) return false;
  s->width = static_cast<int32_t>(width);
  const int32_t spare = kBandBytes / (2 * s->width) - s->f_h;  // rows beyond f_h within the budget
  int32_t run = 1 + (spare > 0 ? spare / d.w.stride_h : 0);
  if (run > kMaxAcc / s->out_w) run = kMaxAcc / s->out_w;
  s->run = run < s->out_h ? run : s->out_h;
  s->band_rows = s->f_h + (s->run - 1) * d.w.stride_h;
  return true;
}

uint32_t ScratchBytes(const Shape& s) {
  return static_cast<uint32_t>(s.band_rows) * static_cast<uint32_t>(s.width) * 2u;
}

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(Register_DEPTHWISE_CONV_2D()->prepare(ctx));
  auto* d = static_cast<DepthwiseData*>(ctx.op_data());
  d->dsp_scratch = -1;
  if (d->in_place_scratch >= 0) return StatusCode::kOk;  // in place: the portable kernel's plane order
  ConvTensors t;
  RT_RETURN_IF_ERROR(GetConvTensors(ctx, 0, 1, &t));
  Shape s;
  if (!MakeShape(*d, t, &s)) return StatusCode::kOk;
  return ctx.RequestScratch(ScratchBytes(s), &d->dsp_scratch);
}

// Band rows [0, rows) = input rows iy0 + j of input channel c: column j holds x[iy][j - pad][c] + offset.
// The padding columns were zeroed once (ZeroPadding); rows outside the image get 0 here.
void FillBand(const Shape& s, const int8_t* image, int32_t c, int32_t iy0, int32_t rows, int32_t pad, int32_t offset,
              int16_t* band) {
  const int32_t first = pad < s.width ? pad : s.width;
  const int32_t last = pad + s.in_w < s.width ? pad + s.in_w : s.width;
  for (int32_t j = 0; j < rows; ++j, band += s.width) {
    const int32_t iy = iy0 + j;
    int16_t* o = band + first;
    int16_t* end = band + last;
    if (iy < 0 || iy >= s.in_h) {
      while (o != end) *o++ = 0;
      continue;
    }
    const int8_t* x = image + iy * s.in_w * s.in_depth + c;
    for (; end - o >= 2; o += 2, x += 2 * s.in_depth) {
      dsp::Store32(o, dsp::Pack16(x[0] + offset, x[s.in_depth] + offset));
    }
    if (o != end) *o = static_cast<int16_t>(*x + offset);
  }
}

// The padding columns of every band row: 0, never written again.
void ZeroPadding(const Shape& s, int32_t pad, int16_t* band) {
  const int32_t first = pad < s.width ? pad : s.width;
  const int32_t last = pad + s.in_w < s.width ? pad + s.in_w : s.width;
  for (int32_t j = 0; j < s.band_rows; ++j, band += s.width) {
    for (int32_t i = 0; i < first; ++i) band[i] = 0;
    for (int32_t i = last; i < s.width; ++i) band[i] = 0;
  }
}

// One channel's filter as int16 pairs [w(fy, 2k), w(fy, 2k + 1)] (0 past the last tap).
void PackFilter(const Shape& s, const int8_t* filter, int32_t c, uint32_t* pairs) {
  for (int32_t fy = 0; fy < s.f_h; ++fy) {
    for (int32_t k = 0; k < s.pairs; ++k) {
      const int32_t fx = 2 * k;
      const int32_t w0 = filter[(fy * s.f_w + fx) * s.depth + c];
      const int32_t w1 = fx + 1 < s.f_w ? filter[(fy * s.f_w + fx + 1) * s.depth + c] : 0;
      pairs[fy * s.pairs + k] = dsp::Pack16(w0, w1);
    }
  }
}

// Where a run's output rows read the band: output row r, column ox, filter row fy starts at
// band + (r * stride_h + fy) * width + ox * stride_w.
struct Run {
  const int16_t* band;
  int32_t rows, cols, width, stride_h, stride_w;
};

// acc[r * cols + ox] = bias + every tap, for any filter size.
void Accumulate(const Run& run, int32_t f_h, int32_t pairs_per_row, const uint32_t* pairs, int32_t bias, int32_t* acc) {
  for (int32_t r = 0; r < run.rows; ++r) {
    for (int32_t ox = 0; ox < run.cols; ++ox) {
      const int16_t* x = run.band + r * run.stride_h * run.width + ox * run.stride_w;
      int32_t a = bias;
      for (int32_t fy = 0; fy < f_h; ++fy, x += run.width) {
        const uint32_t* w = pairs + fy * pairs_per_row;
        for (int32_t k = 0; k < pairs_per_row; ++k) a = dsp::Smlad(dsp::Load32(x + 2 * k), w[k], a);
      }
      *acc++ = a;
    }
  }
}

// The same for a 3x3 filter, unrolled: six Smlad per output, kStride: stride_w when it is a
// constant (1 or 2: the column steps become post-increments), else 0. Like dsp::RequantizeRun, not
// inlined and with every value in a local, so that its loop keeps them in registers.
template <int32_t kStride>
__attribute__((noinline)) void Accumulate3x3(const Run& run, const uint32_t* pairs, int32_t bias, int32_t* acc) {
  const uint32_t w00 = pairs[0], w01 = pairs[1], w10 = pairs[2], w11 = pairs[3], w20 = pairs[4], w21 = pairs[5];
  const int32_t width = run.width, stride = kStride != 0 ? kStride : run.stride_w, cols = run.cols;
  const int32_t row_step = run.stride_h * run.width;
  const int16_t* row = run.band;
  for (int32_t r = run.rows; r > 0; --r, row += row_step) {
    const int16_t *x0 = row, *x1 = row + width, *x2 = row + 2 * width;
    for (int32_t* end = acc + cols; acc != end; x0 += stride, x1 += stride, x2 += stride) {
      int32_t a = dsp::Smlad(dsp::Load32(x0), w00, bias);
      a = dsp::Smlad(dsp::Load32(x0 + 2), w01, a);
      a = dsp::Smlad(dsp::Load32(x1), w10, a);
      a = dsp::Smlad(dsp::Load32(x1 + 2), w11, a);
      a = dsp::Smlad(dsp::Load32(x2), w20, a);
      *acc++ = dsp::Smlad(dsp::Load32(x2 + 2), w21, a);
    }
  }
}

// The outputs of rows [oy, oy + rows) of output channel c from the band filled for them.
void OutputChannel(const DepthwiseData& d, const Shape& s, const ConvTensors& t, int32_t c, const int16_t* band,
                   int32_t oy, int32_t rows, int8_t* out) {
  uint32_t pairs[kMaxPairs];
  PackFilter(s, t.filter.As<int8_t>(), c, pairs);
  const int32_t bias = t.has_bias ? LoadUnaligned<int32_t>(t.bias.data, c) : 0;
  int32_t acc[kMaxAcc];
  const Run run{band, rows, s.out_w, s.width, d.w.stride_h, d.w.stride_w};
  if (s.f_h == 3 && s.f_w == 3 && d.w.stride_w == 1) {
    Accumulate3x3<1>(run, pairs, bias, acc);
  } else if (s.f_h == 3 && s.f_w == 3 && d.w.stride_w == 2) {
    Accumulate3x3<2>(run, pairs, bias, acc);
  } else if (s.f_h == 3 && s.f_w == 3) {
    Accumulate3x3<0>(run, pairs, bias, acc);
  } else {
    Accumulate(run, s.f_h, s.pairs, pairs, bias, acc);
  }
  dsp::RequantizeRun(acc, rows * s.out_w, dsp::MakeRequant(d.q.multipliers[c], d.q.shifts[c]), d.q.output_offset,
                     d.q.act_min, d.q.act_max, s.depth, out + oy * s.out_w * s.depth + c);
}

// Every output of input channel ic (output channels ic * M .. ic * M + M - 1) in batch image b,
// `run` output rows per band fill.
void Channel(const DepthwiseData& d, const Shape& s, const ConvTensors& t, int32_t b, int32_t ic, int16_t* band) {
  const ConvWindow& cw = d.w;
  const int8_t* image = t.in.As<int8_t>() + b * s.in_h * s.in_w * s.in_depth;
  int8_t* out = t.out.As<int8_t>() + b * s.out_h * s.out_w * s.depth;
  for (int32_t oy = 0; oy < s.out_h; oy += s.run) {
    const int32_t rows = s.out_h - oy < s.run ? s.out_h - oy : s.run;
    const int32_t iy0 = oy * cw.stride_h - cw.pad.height;
    FillBand(s, image, ic, iy0, s.f_h + (rows - 1) * cw.stride_h, cw.pad.width, d.q.input_offset, band);
    for (int32_t m = 0; m < s.multiplier; ++m) OutputChannel(d, s, t, ic * s.multiplier + m, band, oy, rows, out);
  }
}

StatusCode Eval(KernelContext& ctx) {
  DepthwiseData d = *static_cast<const DepthwiseData*>(ctx.op_data());
  if (d.dsp_scratch < 0) return Register_DEPTHWISE_CONV_2D()->eval(ctx);
  // One output row of a stream: its own top padding. The views are that row and the input rows
  // it reads, so the run is one row and the band f_h rows: within the scratch prepared.
  int32_t top = 0;
  if (ctx.StreamPadTop(&top)) d.w.pad.height = top;
  ConvTensors t;
  RT_RETURN_IF_ERROR(GetConvTensors(ctx, 0, 1, &t));
  Shape s;
  auto* band = static_cast<int16_t*>(ctx.GetScratch(d.dsp_scratch));
  if (!MakeShape(d, t, &s) || band == nullptr) {
    return ctx.Fail(StatusCode::kKernelError, "int8 fast path lost its scratch or shape");
  }
  ZeroPadding(s, d.w.pad.width, band);
  for (int32_t b = 0; b < s.batches; ++b) {
    for (int32_t ic = 0; ic < s.in_depth; ++ic) Channel(d, s, t, b, ic, band);
  }
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_DSP_KERNEL(DEPTHWISE_CONV_2D, &Prepare, &Eval, nullptr, true)

}  // namespace arenaplan::rt
