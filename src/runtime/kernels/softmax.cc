// SOFTMAX over the last dimension, bit-exact with TFLM's reference kernels (reference/softmax.h,
// micro/kernels/softmax_common.cc):
//   float32:       e_c = expf((x_c - max) * beta); out_c = e_c / sum e (sum in channel order);
//   int8 -> int8 / int16: gemmlowp fixed point. diff = x_c - max is scaled to Q5.26 by
//                  beta * s_in * 2^26 (MultiplyByQuantizedMultiplierGreaterThanOne), exp() of it in
//                  Q0.31 (exp_on_negative_values), summed in Q12.19, reciprocal by Newton-Raphson
//                  (one_over_one_plus_x_for_x_in_0_1); diffs below diff_min give the type's minimum;
//   int16 -> int16: two 513-entry interpolated LUTs (exp on [-10, 0], 1 / (1 + x) on [0, 1]) built
//                  in prepare exactly as TFLM's LUTPopulate<int16_t> does.
// O(outer * depth) time per Invoke; the int16 LUTs take 2 x 1026 bytes of persistent memory.
#include <cmath>
#include <limits>

#include "runtime/kernels/registrations.h"
#include "runtime/kernels/softmax.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

constexpr int kLutSize = 513;

// ---- gemmlowp fixed-point arithmetic on raw int32 values -------------------------------------------
inline int32_t Add(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int32_t Sub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}
inline int32_t Mul(int32_t a, int32_t b) { return SaturatingRoundingDoublingHighMul(a, b); }
// SaturatingRoundingMultiplyByPOT<exponent> for exponent > 0: saturating left shift.
inline int32_t SaturatingShiftLeft(int32_t x, int exponent) {
  const int32_t threshold = static_cast<int32_t>((1LL << (31 - exponent)) - 1);
  if (x > threshold) return std::numeric_limits<int32_t>::max();
  if (x < -threshold) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(static_cast<uint32_t>(x) << exponent);
}
inline int32_t RoundingHalfSum(int32_t a, int32_t b) {
  const int64_t sum = static_cast<int64_t>(a) + b;
  return static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
}

// exp(a) for a in [-1/4, 0), Q0.31 in and out: Taylor expansion around -1/8.
int32_t ExpOnIntervalNegQuarterTo0(int32_t a) {
  const int32_t constant_term = 1895147668;     // exp(-1/8)
  const int32_t constant_1_over_3 = 715827883;  // 1/3
  const int32_t x = Add(a, 1 << 28);            // a + 1/8
  const int32_t x2 = Mul(x, x);
  const int32_t x3 = Mul(x2, x);
  const int32_t x4 = Mul(x2, x2);
  const int32_t x4_over_4 = RoundingDivideByPOT(x4, 2);
  const int32_t poly = RoundingDivideByPOT(Add(Mul(Add(x4_over_4, x3), constant_1_over_3), x2), 1);
  return Add(constant_term, Mul(constant_term, Add(x, poly)));
}

// exp(a) for a <= 0 given in Q5.26; result in Q0.31 (gemmlowp exp_on_negative_values).
int32_t ExpOnNegativeValues(int32_t a) {
  constexpr int kFractionalBits = 31 - kScaledDiffIntegerBits;
  const int32_t one_quarter = 1 << (kFractionalBits - 2);
  const int32_t mask = one_quarter - 1;
  const int32_t a_mod_quarter_minus_one_quarter = Sub(a & mask, one_quarter);
  int32_t result = ExpOnIntervalNegQuarterTo0(
      SaturatingShiftLeft(a_mod_quarter_minus_one_quarter, kScaledDiffIntegerBits));
  const int32_t remainder = Sub(a_mod_quarter_minus_one_quarter, a);
  // exp(-2^e) for e = -2 .. 4, applied for each set bit of the remainder.
  static constexpr int32_t kMultipliers[7] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  for (int e = -2; e <= 4; ++e) {
    if (remainder & (1 << (kFractionalBits + e))) result = Mul(result, kMultipliers[e + 2]);
  }
  return a == 0 ? std::numeric_limits<int32_t>::max() : result;
}

// 1 / (1 + a) for a in [0, 1), Q0.31 in and out (three Newton-Raphson steps in Q2.29).
int32_t OneOverOnePlusX(int32_t a) {
  const int32_t half_denominator = RoundingHalfSum(a, std::numeric_limits<int32_t>::max());
  const int32_t constant_48_over_17 = 1515870810;
  const int32_t constant_neg_32_over_17 = -1010580540;
  const int32_t one_q2 = 1 << 29;
  int32_t x = Add(constant_48_over_17, Mul(half_denominator, constant_neg_32_over_17));
  for (int i = 0; i < 3; ++i) {
    const int32_t half_denominator_times_x = Mul(half_denominator, x);
    const int32_t one_minus = Sub(one_q2, half_denominator_times_x);
    x = Add(x, SaturatingShiftLeft(Mul(x, one_minus), 2));  // Q4 -> Q2
  }
  return SaturatingShiftLeft(x, 1);  // x / 2 in Q1, rescaled to Q0
}

int32_t GetReciprocal(int32_t x, int x_integer_digits, int* num_bits_over_unit) {
  const uint32_t ux = static_cast<uint32_t>(x);
  const int headroom_plus_one = ux == 0 ? 32 : __builtin_clz(ux);
  *num_bits_over_unit = x_integer_digits - headroom_plus_one;
  const int32_t shifted_sum_minus_one = static_cast<int32_t>(
      (headroom_plus_one >= 32 ? 0u : (ux << headroom_plus_one)) - (1u << 31));
  return OneOverOnePlusX(shifted_sum_minus_one);
}

// ---- int16 lookup tables ------------------------------------------------------------------------------
float ExpF(float v) { return std::exp(v); }
float OneOverOnePlusXF(float v) { return 1.0f / (1.0f + v); }

void PopulateLut(float input_scale, int32_t input_zp, float output_scale, int32_t output_zp, float (*f)(float),
                 int16_t* lut) {
  const float input_min = input_scale * static_cast<float>(-32768 - input_zp);
  const float input_max = input_scale * static_cast<float>(32767 - input_zp);
  const float output_min = output_scale * static_cast<float>(-32768 - output_zp);
  const float output_max = output_scale * static_cast<float>(32767 - output_zp);
  const int nb_steps = 512;
  const float step = (input_max - input_min) / nb_steps;
  const float half_step = step / 2;
  const float inv = 65536.0f / (output_max - output_min);
  auto clamp = [](float v) { return static_cast<int16_t>(std::fmin(std::fmax(v, -32768.0f), 32767.0f)); };
  for (int i = 0; i < nb_steps; ++i) {
    const float val = f(input_min + static_cast<float>(i) * step);
    const float val_midpoint = f(input_min + static_cast<float>(i) * step + half_step);
    const float val_next = f(input_min + static_cast<float>(i + 1) * step);
    const float sample_val = std::round(val * inv);
    const float midpoint_interp_val = std::round((val_next * inv + std::round(val * inv)) / 2);
    const float midpoint_val = std::round(val_midpoint * inv);
    const float midpoint_err = midpoint_interp_val - midpoint_val;
    const float bias = std::round(midpoint_err / 2);
    lut[i] = clamp(sample_val - bias);
  }
  lut[nb_steps] = clamp(std::round(f(input_max) * inv));
}

// Interpolated lookup: the high 9 bits pick the entry, the low 7 bits interpolate.
inline int16_t LutLookup(int16_t value, const int16_t* lut) {
  const uint16_t index = static_cast<uint16_t>(256 + (value >> 7));
  const int16_t offset = static_cast<int16_t>(value & 0x7f);
  const int16_t base = lut[index];
  const int16_t slope = static_cast<int16_t>(lut[index + 1] - lut[index]);
  const int delta = (slope * offset + 64) >> 7;
  return static_cast<int16_t>(base + delta);
}

inline int16_t SaturateInt16(int32_t v) { return static_cast<int16_t>(v < -32768 ? -32768 : (v > 32767 ? 32767 : v)); }

// ---- kernel -----------------------------------------------------------------------------------------
StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (in.rank < 1 || ElementCount(in) != ElementCount(out) || Dim(in, -1) != Dim(out, -1) ||
      in.bytes < ElementCount(in) * TypeSize(in.type) || out.bytes < ElementCount(out) * TypeSize(out.type)) {
    return ctx.Fail(StatusCode::kInvalidModel, "input (rank %d) and output must have the same shape", in.rank);
  }
  const bool ok_types = (in.type == TensorType::FLOAT32 && out.type == TensorType::FLOAT32) ||
                        (in.type == TensorType::INT8 &&
                         (out.type == TensorType::INT8 || out.type == TensorType::INT16)) ||
                        (in.type == TensorType::INT16 && out.type == TensorType::INT16);
  if (!ok_types) {
    return ctx.Fail(StatusCode::kUnsupported, "input %s with output %s not supported", TypeName(in.type),
                    TypeName(out.type));
  }
  const auto* o = Options<tfl::SoftmaxOptions>(ctx);
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(SoftmaxData), &mem));
  auto* d = static_cast<SoftmaxData*>(mem);
  d->beta = o != nullptr ? o->beta() : 1.0f;
  d->exp_lut = nullptr;
  d->one_over_one_plus_x_lut = nullptr;
  if (in.type == TensorType::FLOAT32) {
    ctx.set_op_data(d);
    return StatusCode::kOk;
  }
  if (!(in.scale > 0.0f)) return ctx.Fail(StatusCode::kInvalidModel, "input scale is not positive");
  if (in.type == TensorType::INT16) {
    if (out.zero_point != 0 || std::fabs(out.scale - 1.0f / 32768) > 0.001f / 32768) {
      return ctx.Fail(StatusCode::kInvalidModel, "int16 output needs zero point 0 and scale 1/32768");
    }
    void* luts = nullptr;
    RT_RETURN_IF_ERROR(ctx.AllocatePersistent(2 * kLutSize * sizeof(int16_t), &luts));
    d->exp_lut = static_cast<int16_t*>(luts);
    d->one_over_one_plus_x_lut = d->exp_lut + kLutSize;
    const int32_t range = 32767 - (-32768);
    PopulateLut(10.0f / range, 32767, 2.0f / range, 0, &ExpF, d->exp_lut);
    PopulateLut(1.0f / range, -32768, 2.0f / range, 0, &OneOverOnePlusXF, d->one_over_one_plus_x_lut);
    // Scales diffs so that [-65535, 0] covers [-10, 0].
    const double rescale = static_cast<double>(in.scale) * static_cast<double>(d->beta) / (10.0 / 65535.0);
    int shift = 0;
    QuantizeMultiplier(rescale, &d->input_multiplier, &shift);
    d->input_left_shift = shift;
  } else {
    if (out.type == TensorType::INT16) {
      if (out.zero_point != -32768 || std::fabs(out.scale - 1.0f / 65536) > 0.001f / 65536) {
        return ctx.Fail(StatusCode::kInvalidModel, "int8 -> int16 output needs zero point -32768 and scale 1/65536");
      }
    } else if (out.zero_point != -128 || out.scale != 1.0f / 256) {
      return ctx.Fail(StatusCode::kInvalidModel, "int8 output needs zero point -128 and scale 1/256");
    }
    // TFLM PreprocessSoftmaxScaling + CalculateInputRadius.
    const double max_real = static_cast<double>((1LL << 31) - 1);
    double real = static_cast<double>(d->beta) * static_cast<double>(in.scale) *
                  static_cast<double>(1 << (31 - kScaledDiffIntegerBits));
    if (real > max_real) real = max_real;
    int shift = 0;
    QuantizeMultiplier(real, &d->input_multiplier, &shift);
    if (shift < 0 || shift > 30) return ctx.Fail(StatusCode::kUnsupported, "input scale x beta is too small");
    d->input_left_shift = shift;
    const double radius = 1.0 * ((1 << kScaledDiffIntegerBits) - 1) *
                          static_cast<double>(1LL << (31 - kScaledDiffIntegerBits)) / static_cast<double>(1LL << shift);
    d->diff_min = -static_cast<int32_t>(std::floor(radius));
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

void SoftmaxFloat(const SoftmaxData& d, const float* x, float* y, int32_t outer, int32_t depth) {
  for (int32_t i = 0; i < outer; ++i) {
    const float* xi = x + i * depth;
    float* yi = y + i * depth;
    float max = std::numeric_limits<float>::lowest();
    for (int32_t c = 0; c < depth; ++c) max = max < xi[c] ? xi[c] : max;
    float sum = 0.0f;
    for (int32_t c = 0; c < depth; ++c) {
      const float e = std::exp((xi[c] - max) * d.beta);
      yi[c] = e;
      sum += e;
    }
    for (int32_t c = 0; c < depth; ++c) yi[c] = yi[c] / sum;
  }
}

template <typename Out>
void SoftmaxInt8(const SoftmaxData& d, const int8_t* x, Out* y, int32_t outer, int32_t depth) {
  constexpr int32_t kOutMin = std::numeric_limits<Out>::min();
  constexpr int32_t kOutMax = std::numeric_limits<Out>::max();
  for (int32_t i = 0; i < outer; ++i) {
    const int8_t* xi = x + i * depth;
    Out* yi = y + i * depth;
    int32_t max = -128;
    for (int32_t c = 0; c < depth; ++c) max = max < xi[c] ? xi[c] : max;
    int32_t sum_of_exps = 0;  // Q12.19
    for (int32_t c = 0; c < depth; ++c) {
      const int32_t diff = xi[c] - max;
      if (diff >= d.diff_min) {
        const int32_t scaled = MultiplyByQuantizedMultiplierGreaterThanOne(diff, d.input_multiplier,
                                                                           d.input_left_shift);
        sum_of_exps = Add(sum_of_exps, RoundingDivideByPOT(ExpOnNegativeValues(scaled), kAccumulationIntegerBits));
      }
    }
    int num_bits_over_unit = 0;
    const int32_t shifted_scale = GetReciprocal(sum_of_exps, kAccumulationIntegerBits, &num_bits_over_unit);
    int exponent = num_bits_over_unit + 31 - static_cast<int>(sizeof(Out) * 8);
    exponent = exponent < 0 ? 0 : (exponent > 31 ? 31 : exponent);  // TFLM checks 0..31
    for (int32_t c = 0; c < depth; ++c) {
      const int32_t diff = xi[c] - max;
      if (diff >= d.diff_min) {
        const int32_t scaled = MultiplyByQuantizedMultiplierGreaterThanOne(diff, d.input_multiplier,
                                                                           d.input_left_shift);
        const int32_t unsat = RoundingDivideByPOT(Mul(shifted_scale, ExpOnNegativeValues(scaled)), exponent);
        int32_t v = unsat + kOutMin;
        v = v > kOutMax ? kOutMax : (v < kOutMin ? kOutMin : v);
        yi[c] = static_cast<Out>(v);
      } else {
        yi[c] = static_cast<Out>(kOutMin);
      }
    }
  }
}

void SoftmaxInt16(const SoftmaxData& d, const int16_t* x, int16_t* y, int32_t outer, int32_t depth) {
  for (int32_t i = 0; i < outer; ++i) {
    const int16_t* xi = x + i * depth;
    int16_t* exps = y + i * depth;  // the output row caches exp() values, as in TFLM
    int16_t max = -32768;
    for (int32_t c = 0; c < depth; ++c) max = max < xi[c] ? xi[c] : max;
    int32_t sum_of_exps = 0;  // Q16.15
    for (int32_t c = 0; c < depth; ++c) {
      const int32_t diff = xi[c] - max;
      const int32_t scaled = MultiplyByQuantizedMultiplier(diff, d.input_multiplier, d.input_left_shift);
      exps[c] = LutLookup(SaturateInt16(scaled + 32767), d.exp_lut);
      sum_of_exps += exps[c];
    }
    const uint32_t usum = static_cast<uint32_t>(sum_of_exps);
    const int headroom_plus_one = usum == 0 ? 32 : __builtin_clz(usum);
    const int32_t shifted_sum = static_cast<int32_t>(
        ((static_cast<int64_t>(sum_of_exps) << (headroom_plus_one - 1)) + (1 << 13)) >> 14);
    const int32_t sym_shifted_sum = shifted_sum + (-((1 << 15) + (1 << 16)));
    const int16_t reciprocal = LutLookup(SaturateInt16(sym_shifted_sum), d.one_over_one_plus_x_lut);
    const int right_shift = 31 - headroom_plus_one;
    const int64_t round = right_shift > 0 ? static_cast<int64_t>(1) << (right_shift - 1) : 0;
    for (int32_t c = 0; c < depth; ++c) {
      const int32_t r = static_cast<int32_t>((static_cast<int64_t>(exps[c]) * reciprocal + round) >> right_shift);
      y[i * depth + c] = static_cast<int16_t>(r < 0 ? 0 : (r > 32767 ? 32767 : r));
    }
  }
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const auto& d = *static_cast<const SoftmaxData*>(ctx.op_data());
  const int32_t depth = Dim(in, -1);
  const int32_t outer = depth > 0 ? static_cast<int32_t>(ElementCount(in) / depth) : 0;
  if (in.type == TensorType::FLOAT32) {
    SoftmaxFloat(d, in.As<float>(), out.As<float>(), outer, depth);
  } else if (in.type == TensorType::INT16) {
    SoftmaxInt16(d, in.As<int16_t>(), out.As<int16_t>(), outer, depth);
  } else if (out.type == TensorType::INT16) {
    SoftmaxInt8(d, in.As<int8_t>(), out.As<int16_t>(), outer, depth);
  } else {
    SoftmaxInt8(d, in.As<int8_t>(), out.As<int8_t>(), outer, depth);
  }
  return StatusCode::kOk;
}

const KernelRegistration kSoftmax{"SOFTMAX", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_SOFTMAX() { return &kSoftmax; }

namespace softmax_fixed_point {
int32_t ExpOnNegativeValues(int32_t a) { return rt::ExpOnNegativeValues(a); }
int32_t GetReciprocal(int32_t x, int x_integer_digits, int* num_bits_over_unit) {
  return rt::GetReciprocal(x, x_integer_digits, num_bits_over_unit);
}
}  // namespace softmax_fixed_point

}  // namespace arenaplan::rt
