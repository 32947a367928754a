#include "runtime/quantization.h"

#include <cfloat>
#include <climits>
#include <cmath>
#include <limits>

namespace arenaplan::rt {

void QuantizeMultiplier(double real_multiplier, int32_t* quantized_multiplier, int* shift) {
  // Zero, and what only hostile scales give (infinity, NaN: TFLM's cast of them is undefined),
  // become the zero multiplier.
  if (real_multiplier == 0.0 || !std::isfinite(real_multiplier)) {
    *quantized_multiplier = 0;
    *shift = 0;
    return;
  }
  const double q = std::frexp(real_multiplier, shift);
  int64_t q_fixed = static_cast<int64_t>(std::round(q * static_cast<double>(1LL << 31)));
  if (q_fixed == (1LL << 31)) {  // rounding carried into the next power of two
    q_fixed /= 2;
    ++*shift;
  }
  if (*shift < -31) {  // everything would shift out: flush to zero like TFLM
    *shift = 0;
    q_fixed = 0;
  }
  *quantized_multiplier = static_cast<int32_t>(q_fixed);
}

void QuantizeMultiplierSmallerThanOneExp(double real_multiplier, int32_t* quantized_multiplier, int* left_shift) {
  int shift = 0;
  QuantizeMultiplier(real_multiplier, quantized_multiplier, &shift);
  *left_shift = shift;
}

int32_t SaturatingRoundingDoublingHighMul(int32_t a, int32_t b) {
  const bool overflow = a == b && a == std::numeric_limits<int32_t>::min();
  const int64_t ab = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  const int32_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
  const int32_t high = static_cast<int32_t>((ab + nudge) / (1LL << 31));
  return overflow ? std::numeric_limits<int32_t>::max() : high;
}

int32_t RoundingDivideByPOT(int32_t x, int exponent) {
  // TFLM only debug-asserts 0 <= exponent <= 31; keep hostile scales from shifting out of range.
  if (exponent <= 0) return x;
  if (exponent > 31) exponent = 31;
  const int32_t mask = static_cast<int32_t>((1LL << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

int32_t MultiplyByQuantizedMultiplier(int32_t x, int32_t quantized_multiplier, int shift) {
  // Valid multipliers have |shift| <= 31; clamp hostile ones so every shift below is defined.
  const int left_shift = shift > 0 ? (shift > 31 ? 31 : shift) : 0;
  const int right_shift = shift > 0 ? 0 : -shift;
  // TFLM multiplies in int32 (wrapping is UB there too); do it unsigned to stay defined.
  const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(x) * (static_cast<uint32_t>(1) << left_shift));
  return RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(shifted, quantized_multiplier), right_shift);
}

int32_t MultiplyByQuantizedMultiplier(int64_t x, int32_t quantized_multiplier, int shift) {
  const int32_t reduced = quantized_multiplier < 0x7FFF0000 ? ((quantized_multiplier + (1 << 15)) >> 16) : 0x7FFF;
  // TFLM's int16 paths keep 1 <= total_shift <= 62; a hostile shift outside that (UB in TFLM) is
  // clamped, and the product wraps (unsigned) instead of overflowing.
  int total_shift = 15 - shift;
  if (total_shift < 1) total_shift = 1;
  if (total_shift > 62) total_shift = 62;
  const uint64_t round = uint64_t{1} << (total_shift - 1);
  const int64_t sum = static_cast<int64_t>(static_cast<uint64_t>(x) * static_cast<uint64_t>(int64_t{reduced}) + round);
  const int64_t result = sum >> total_shift;
  return static_cast<int32_t>(result);
}

int32_t MultiplyByQuantizedMultiplierSmallerThanOneExp(int32_t x, int32_t quantized_multiplier, int left_shift) {
  return RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(x, quantized_multiplier), -left_shift);
}

int32_t MultiplyByQuantizedMultiplierGreaterThanOne(int32_t x, int32_t quantized_multiplier, int left_shift) {
  const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(x) * (static_cast<uint32_t>(1) << left_shift));
  return SaturatingRoundingDoublingHighMul(shifted, quantized_multiplier);
}

int32_t SaturatingRoundingMultiplyByPOT(int32_t x, int exponent) {
  if (exponent <= 0) return RoundingDivideByPOT(x, -exponent);
  if (exponent > 30) return x > 0 ? INT32_MAX : (x < 0 ? INT32_MIN : 0);
  const int32_t threshold = (1 << (31 - exponent)) - 1;
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return static_cast<int32_t>(static_cast<uint32_t>(x) << exponent);
}

void GetInvSqrtQuantizedMultiplierExp(int32_t input, int reverse_shift, int32_t* output_inv_sqrt, int* output_shift) {
  if (input <= 1) {  // 0 is treated as 1, and 1 would overflow below (TFLM b/143972021)
    *output_inv_sqrt = INT32_MAX;
    *output_shift = 0;
    return;
  }
  *output_shift = 11;
  while (input >= (1 << 29)) {
    input /= 4;
    ++*output_shift;
  }
  const unsigned max_left_shift_bits = static_cast<unsigned>(__builtin_clz(static_cast<uint32_t>(input))) - 1;
  const unsigned left_shift_bit_pairs = max_left_shift_bits / 2 - 1;
  *output_shift -= static_cast<int>(left_shift_bit_pairs);
  input = static_cast<int32_t>(static_cast<uint32_t>(input) << (2 * left_shift_bit_pairs));
  // Q3.28 values; a product of Qm and Qn is Q(m+n), Rescale<3> shifts it back.
  const int32_t fixedpoint_input = input >> 1;
  const int32_t fixedpoint_half_input = SaturatingRoundingMultiplyByPOT(fixedpoint_input, -1);
  const int32_t fixedpoint_half_three = (1 << 28) + (1 << 27);
  int32_t x = 1 << 28;  // 1.0
  for (int i = 0; i < 5; ++i) {
    const int32_t x3 = SaturatingRoundingMultiplyByPOT(
        SaturatingRoundingDoublingHighMul(SaturatingRoundingDoublingHighMul(x, x), x), 6);
    const int32_t a = SaturatingRoundingDoublingHighMul(fixedpoint_half_three, x);
    const int32_t b = SaturatingRoundingDoublingHighMul(fixedpoint_half_input, x3);
    x = SaturatingRoundingMultiplyByPOT(static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b)), 3);
  }
  constexpr int32_t kHalfSqrt2 = 1518500250;  // sqrt(2) / 2 in Q0.31
  *output_inv_sqrt = SaturatingRoundingDoublingHighMul(x, kHalfSqrt2);
  if (*output_shift < 0) {
    *output_inv_sqrt = static_cast<int32_t>(static_cast<uint32_t>(*output_inv_sqrt) << -*output_shift);
    *output_shift = 0;
  }
  *output_shift *= reverse_shift;
}

bool QuantizedTypeRange(TensorType type, int32_t* min_value, int32_t* max_value) {
  switch (type) {
    case TensorType::INT8:
      *min_value = -128;
      *max_value = 127;
      return true;
    case TensorType::UINT8:
      *min_value = 0;
      *max_value = 255;
      return true;
    case TensorType::INT16:
      *min_value = -32768;
      *max_value = 32767;
      return true;
    case TensorType::INT32:
      *min_value = std::numeric_limits<int32_t>::min();
      *max_value = std::numeric_limits<int32_t>::max();
      return true;
    default: return false;
  }
}

namespace {
// TFLM: zero_point + round(f / scale), computed in float (saturated where TFLM's int cast is
// undefined; the caller clamps to the type's range anyway).
int32_t QuantizeValue(float f, const TensorView& t) {
  const int64_t v = static_cast<int64_t>(t.zero_point) + SaturatingRoundToInt32(f / t.scale);
  return v < INT32_MIN ? INT32_MIN : (v > INT32_MAX ? INT32_MAX : static_cast<int32_t>(v));
}
int32_t Max(int32_t a, int32_t b) { return a > b ? a : b; }
int32_t Min(int32_t a, int32_t b) { return a < b ? a : b; }
}  // namespace

bool CalculateActivationRangeQuantized(tfl::ActivationFunctionType activation, const TensorView& output,
                                       int32_t* act_min, int32_t* act_max) {
  int32_t qmin = 0, qmax = 0;
  if (!QuantizedTypeRange(output.type, &qmin, &qmax)) return false;
  using A = tfl::ActivationFunctionType;
  switch (activation) {
    case A::NONE:
      *act_min = qmin;
      *act_max = qmax;
      return true;
    case A::RELU:
      *act_min = Max(qmin, QuantizeValue(0.0f, output));
      *act_max = qmax;
      return true;
    case A::RELU6:
      *act_min = Max(qmin, QuantizeValue(0.0f, output));
      *act_max = Min(qmax, QuantizeValue(6.0f, output));
      return true;
    case A::RELU_N1_TO_1:
      *act_min = Max(qmin, QuantizeValue(-1.0f, output));
      *act_max = Min(qmax, QuantizeValue(1.0f, output));
      return true;
    default: return false;
  }
}

bool CalculateActivationRangeFloat(tfl::ActivationFunctionType activation, float* act_min, float* act_max) {
  using A = tfl::ActivationFunctionType;
  switch (activation) {
    case A::NONE:
      *act_min = -FLT_MAX;
      *act_max = FLT_MAX;
      return true;
    case A::RELU:
      *act_min = 0.0f;
      *act_max = FLT_MAX;
      return true;
    case A::RELU6:
      *act_min = 0.0f;
      *act_max = 6.0f;
      return true;
    case A::RELU_N1_TO_1:
      *act_min = -1.0f;
      *act_max = 1.0f;
      return true;
    default: return false;
  }
}

}  // namespace arenaplan::rt
