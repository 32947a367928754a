// TFLM Signal library filter-bank ops (mel filter bank of the audio front end):
//  * SignalFilterBank: (num_channels + 1) triangular channels over a uint32 energy spectrum; each
//    bin adds weight * e to its channel and unweight * e to the next (uint64 accumulators);
//    channel 0 is scratch and dropped. Inputs: spectrum, weights, unweights, channel frequency
//    starts, channel weight starts, channel widths (int16). O(bins).
//  * SignalFilterBankSquareRoot: out = isqrt64(in) >> scale_bits (rounded integer square root,
//    TFLM's Sqrt64/Sqrt32 bit-by-bit algorithm incl. its 32-bit shortcut). O(channels x 32).
//  * SignalFilterBankLog: out = min(INT16_MAX, log32(in << correction_bits, output_scale)) for
//    in << bits > 1, else 0; log via TFLM's 128-segment piecewise-linear log2 table. O(channels).
#include <cstring>

#include "runtime/kernels/registrations.h"
#include "runtime/kernels/signal_util.h"

namespace arenaplan::rt {

namespace {

// --- SignalFilterBank ------------------------------------------------------------------------------

struct FilterBankData {
  int32_t num_channels;
  uint64_t* work_area;  // (num_channels + 1) accumulators; persistent like TFLM's (no scratch request)
};

StatusCode FilterBankPrepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 6, 1));
  TensorView t[6], out;
  for (uint32_t i = 0; i < 6; ++i) {
    RT_RETURN_IF_ERROR(RequireInput(ctx, i, &t[i]));
    if (t[i].rank != 1) return ctx.Fail(StatusCode::kInvalidModel, "input %u must be rank 1", i);
    RT_RETURN_IF_ERROR(RequireType(ctx, t[i], i == 0 ? TensorType::UINT32 : TensorType::INT16, "input"));
  }
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  RT_RETURN_IF_ERROR(RequireType(ctx, out, TensorType::UINT64, "output"));
  if (out.rank != 1) return ctx.Fail(StatusCode::kInvalidModel, "output must be rank 1");
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(FilterBankData), &mem));
  auto* d = static_cast<FilterBankData*>(mem);
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "num_channels", &d->num_channels));
  const int32_t n = d->num_channels;
  if (n < 0 || n != out.dims[0] || t[3].dims[0] < n + 1 || t[4].dims[0] < n + 1 || t[5].dims[0] < n + 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "num_channels %d does not match the channel tensors", n);
  }
  // Channel tables are constants: check every read stays inside the spectrum and weights, which
  // TFLM leaves to the converter.
  const int16_t* fs = t[3].As<int16_t>();
  const int16_t* ws = t[4].As<int16_t>();
  const int16_t* wd = t[5].As<int16_t>();
  if (fs != nullptr && ws != nullptr && wd != nullptr) {
    for (int32_t i = 0; i <= n; ++i) {
      if (fs[i] < 0 || ws[i] < 0 || wd[i] < 0 || fs[i] + wd[i] > t[0].dims[0] || ws[i] + wd[i] > t[1].dims[0] ||
          ws[i] + wd[i] > t[2].dims[0]) {
        return ctx.Fail(StatusCode::kInvalidModel, "channel %d reads outside the spectrum or weights", i);
      }
    }
  }
  void* work = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(static_cast<uint32_t>(n + 1) * 8u, &work));
  d->work_area = static_cast<uint64_t*>(work);
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode FilterBankEval(KernelContext& ctx) {
  const auto* d = static_cast<const FilterBankData*>(ctx.op_data());
  TensorView t[6], out;
  for (uint32_t i = 0; i < 6; ++i) RT_RETURN_IF_ERROR(RequireInput(ctx, i, &t[i]));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  uint64_t* acc = d->work_area;
  const uint32_t* in = t[0].As<uint32_t>();
  const int16_t* weights = t[1].As<int16_t>();
  const int16_t* unweights = t[2].As<int16_t>();
  const int16_t* freq_starts = t[3].As<int16_t>();
  const int16_t* weight_starts = t[4].As<int16_t>();
  const int16_t* widths = t[5].As<int16_t>();
  uint64_t weight_acc = 0, unweight_acc = 0;
  for (int32_t i = 0; i < d->num_channels + 1; ++i) {
    const int16_t fs = freq_starts[i];
    const int16_t ws = weight_starts[i];
    for (int32_t j = 0; j < widths[i]; ++j) {
      // int16 weight converted to uint64 (sign-extended) times the energy, as in TFLM.
      weight_acc += static_cast<uint64_t>(static_cast<int64_t>(weights[ws + j])) * in[fs + j];
      unweight_acc += static_cast<uint64_t>(static_cast<int64_t>(unweights[ws + j])) * in[fs + j];
    }
    acc[i] = weight_acc;
    weight_acc = unweight_acc;
    unweight_acc = 0;
  }
  std::memcpy(out.As<uint64_t>(), acc + 1, sizeof(uint64_t) * static_cast<size_t>(d->num_channels));
  return StatusCode::kOk;
}

// --- SignalFilterBankSquareRoot --------------------------------------------------------------------

// TFLM's bit-by-bit square root of num != 0 (Sqrt32 / Sqrt64 on U = uint32_t / uint64_t), rounded
// to nearest but saturating at the largest half-width value; msb = MostSignificantBit(num).
template <typename U>
U SqrtBits(U num, uint32_t msb) {
  constexpr int32_t kTop = static_cast<int32_t>(sizeof(U) * 8) - 1;
  constexpr U kHalfMax = (U{1} << ((kTop + 1) / 2)) - 1;
  U res = 0;
  int32_t max_bit_number = kTop + 1 - static_cast<int32_t>(msb);
  max_bit_number |= 1;
  U bit = U{1} << (kTop - max_bit_number);
  int32_t iterations = (kTop - max_bit_number) / 2 + 1;
  while (iterations--) {
    if (num >= res + bit) {
      num -= res + bit;
      res = (res >> 1u) + bit;
    } else {
      res >>= 1u;
    }
    bit >>= 2u;
  }
  if (num > res && res != kHalfMax) ++res;
  return res;
}

uint16_t Sqrt32(uint32_t num) {
  if (num == 0) return 0;
  return static_cast<uint16_t>(SqrtBits(num, MostSignificantBit32(num)));
}

uint32_t Sqrt64(uint64_t num) {
  // TFLM's shortcut: 32-bit routine when the high word is clear (slightly off near 2^32).
  if ((num >> 32) == 0) return Sqrt32(static_cast<uint32_t>(num));
  return static_cast<uint32_t>(SqrtBits(num, MostSignificantBit64(num)));
}

StatusCode SqrtPrepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView in, bits, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &bits));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  RT_RETURN_IF_ERROR(RequireType(ctx, in, TensorType::UINT64, "input"));
  RT_RETURN_IF_ERROR(RequireType(ctx, bits, TensorType::INT32, "scale bits"));
  RT_RETURN_IF_ERROR(RequireType(ctx, out, TensorType::UINT32, "output"));
  if (in.rank != 1 || bits.rank != 0 || out.rank != 1 || out.dims[0] < in.dims[0]) {
    return ctx.Fail(StatusCode::kInvalidModel, "input/output must be rank 1, scale bits a scalar");
  }
  return StatusCode::kOk;
}

StatusCode SqrtEval(KernelContext& ctx) {
  TensorView in, bits, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &bits));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const uint64_t* x = in.As<uint64_t>();
  uint32_t* y = out.As<uint32_t>();
  const int32_t shift = *bits.As<int32_t>();
  if (shift < 0 || shift > 31) return ctx.Fail(StatusCode::kKernelError, "scale bits %d out of range", shift);
  for (int32_t i = 0; i < in.dims[0]; ++i) y[i] = Sqrt64(x[i]) >> shift;
  return StatusCode::kOk;
}

// --- SignalFilterBankLog ---------------------------------------------------------------------------

// TFLM's log2 fraction correction table (129 used entries + padding), kLogCoeff = ln(2) in Q16.
constexpr uint16_t kLogLut[] = {
    0,    224,  442,  654,  861,  1063, 1259, 1450, 1636, 1817, 1992, 2163, 2329, 2490, 2646, 2797, 2944, 3087, 3224,
    3358, 3487, 3611, 3732, 3848, 3960, 4068, 4172, 4272, 4368, 4460, 4549, 4633, 4714, 4791, 4864, 4934, 5001, 5063,
    5123, 5178, 5231, 5280, 5326, 5368, 5408, 5444, 5477, 5507, 5533, 5557, 5578, 5595, 5610, 5622, 5631, 5637, 5640,
    5641, 5638, 5633, 5626, 5615, 5602, 5586, 5568, 5547, 5524, 5498, 5470, 5439, 5406, 5370, 5332, 5291, 5249, 5203,
    5156, 5106, 5054, 5000, 4944, 4885, 4825, 4762, 4697, 4630, 4561, 4490, 4416, 4341, 4264, 4184, 4103, 4020, 3935,
    3848, 3759, 3668, 3575, 3481, 3384, 3286, 3186, 3084, 2981, 2875, 2768, 2659, 2549, 2437, 2323, 2207, 2090, 1971,
    1851, 1729, 1605, 1480, 1353, 1224, 1094, 963,  830,  695,  559,  421,  282,  142,  0,    0};
constexpr int32_t kLogSegmentsLog2 = 7;
constexpr uint32_t kLogScale = 65536;
constexpr int32_t kLogScaleLog2 = 16;
constexpr uint32_t kLogCoeff = 45426;

uint32_t Log2FractionPart32(uint32_t x, uint32_t log2x) {
  int32_t frac = static_cast<int32_t>(static_cast<int64_t>(x) - (1LL << log2x));
  if (log2x < static_cast<uint32_t>(kLogScaleLog2)) {
    frac = static_cast<int32_t>(static_cast<uint32_t>(frac) << (kLogScaleLog2 - log2x));
  } else {
    frac >>= log2x - kLogScaleLog2;
  }
  const uint32_t base_seg = static_cast<uint32_t>(frac >> (kLogScaleLog2 - kLogSegmentsLog2));
  const uint32_t seg_unit = (1u << kLogScaleLog2) >> kLogSegmentsLog2;
  const int32_t c0 = kLogLut[base_seg];
  const int32_t c1 = kLogLut[base_seg + 1];
  const int32_t seg_base = static_cast<int32_t>(seg_unit * base_seg);
  const int32_t rel_pos = ((c1 - c0) * (frac - seg_base)) >> kLogScaleLog2;
  return static_cast<uint32_t>(frac + c0 + rel_pos);
}

uint32_t Log32(uint32_t x, uint32_t out_scale) {
  const uint32_t integer = MostSignificantBit32(x) - 1;
  const uint32_t fraction = Log2FractionPart32(x, integer);
  const uint32_t log2 = (integer << kLogScaleLog2) + fraction;
  const uint32_t round = kLogScale / 2;
  const uint32_t loge = static_cast<uint32_t>((static_cast<uint64_t>(kLogCoeff) * log2 + round) >> kLogScaleLog2);
  return (out_scale * loge + round) >> kLogScaleLog2;
}

struct LogData {
  int32_t correction_bits, output_scale;
};

StatusCode LogPrepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  RT_RETURN_IF_ERROR(RequireType(ctx, in, TensorType::UINT32, "input"));
  RT_RETURN_IF_ERROR(RequireType(ctx, out, TensorType::INT16, "output"));
  if (in.rank != 1 || out.rank != 1 || out.dims[0] < in.dims[0]) {
    return ctx.Fail(StatusCode::kInvalidModel, "input and output must be rank 1 of equal length");
  }
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(LogData), &mem));
  auto* d = static_cast<LogData*>(mem);
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "input_correction_bits", &d->correction_bits));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "output_scale", &d->output_scale));
  if (d->correction_bits < 0 || d->correction_bits > 31) {
    return ctx.Fail(StatusCode::kInvalidModel, "input_correction_bits %d out of range", d->correction_bits);
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode LogEval(KernelContext& ctx) {
  const auto* d = static_cast<const LogData*>(ctx.op_data());
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const uint32_t* x = in.As<uint32_t>();
  int16_t* y = out.As<int16_t>();
  for (int32_t i = 0; i < in.dims[0]; ++i) {
    const uint32_t scaled = x[i] << d->correction_bits;
    if (scaled > 1) {
      const uint32_t v = Log32(scaled, static_cast<uint32_t>(d->output_scale));
      y[i] = static_cast<int16_t>(v < 32767u ? v : 32767u);
    } else {
      y[i] = 0;
    }
  }
  return StatusCode::kOk;
}

const KernelRegistration kFilterBank{"SignalFilterBank", &FilterBankPrepare, &FilterBankEval};
const KernelRegistration kSqrt{"SignalFilterBankSquareRoot", &SqrtPrepare, &SqrtEval};
const KernelRegistration kLog{"SignalFilterBankLog", &LogPrepare, &LogEval};

}  // namespace

const KernelRegistration* Register_SIGNAL_FILTER_BANK() { return &kFilterBank; }
const KernelRegistration* Register_SIGNAL_FILTER_BANK_LOG() { return &kLog; }
const KernelRegistration* Register_SIGNAL_FILTER_BANK_SQUARE_ROOT() { return &kSqrt; }

}  // namespace arenaplan::rt
