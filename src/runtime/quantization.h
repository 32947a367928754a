// Fixed-point helpers that must match TFLM's reference kernels bit for bit (default build, i.e.
// without TFLITE_SINGLE_ROUNDING): the double-rounding gemmlowp scheme. All are O(1) and pure.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "runtime/tensor_view.h"

namespace arenaplan::rt {

// Splits a real multiplier into a Q0.31 significand and a power-of-two exponent such that
// real ~= quantized_multiplier * 2^(shift - 31). 0 gives (0, 0), and so do infinity and NaN (only
// hostile scales give them); exponents below -31 flush to 0.
void QuantizeMultiplier(double real_multiplier, int32_t* quantized_multiplier, int* shift);
// Same, for multipliers in (0, 1): shift <= 0.
void QuantizeMultiplierSmallerThanOneExp(double real_multiplier, int32_t* quantized_multiplier, int* left_shift);

// round(x) as int32, as TFLM's quantizers compute it (std::round, then a cast); where that cast is
// undefined (only hostile scales or NaN inputs get there) it saturates, and a NaN gives 0.
inline int32_t SaturatingRoundToInt32(float x) {
  const float r = std::round(x);
  if (r != r) return 0;
  if (!(r < 2147483648.0f)) return INT32_MAX;
  if (!(r > -2147483648.0f)) return INT32_MIN;
  return static_cast<int32_t>(r);
}

// gemmlowp: (a * b * 2) >> 32 rounded to nearest; INT32_MIN * INT32_MIN saturates.
int32_t SaturatingRoundingDoublingHighMul(int32_t a, int32_t b);
// gemmlowp: x / 2^exponent rounded half away from zero. 0 <= exponent <= 31.
int32_t RoundingDivideByPOT(int32_t x, int exponent);

// x * quantized_multiplier * 2^(shift - 31), rounded as TFLM does (left shift first, then
// high-mul, then rounding right shift).
int32_t MultiplyByQuantizedMultiplier(int32_t x, int32_t quantized_multiplier, int shift);
// The 64-bit input variant used by 16-bit kernels (x within +-2^47, shift in [-31, 7]).
int32_t MultiplyByQuantizedMultiplier(int64_t x, int32_t quantized_multiplier, int shift);
// On targets where int32_t is `long` (arm-none-eabi), a plain `int` argument (e.g. the product of
// two int16 values) would be ambiguous between the two overloads above; this routes it to int32.
template <typename T, typename = std::enable_if_t<std::is_same<T, int>::value && !std::is_same<int, int32_t>::value>>
inline int32_t MultiplyByQuantizedMultiplier(T x, int32_t quantized_multiplier, int shift) {
  return MultiplyByQuantizedMultiplier(static_cast<int32_t>(x), quantized_multiplier, shift);
}
int32_t MultiplyByQuantizedMultiplierSmallerThanOneExp(int32_t x, int32_t quantized_multiplier, int left_shift);
int32_t MultiplyByQuantizedMultiplierGreaterThanOne(int32_t x, int32_t quantized_multiplier, int left_shift);

// gemmlowp SaturatingRoundingMultiplyByPOT: x * 2^exponent, saturating for exponent > 0,
// RoundingDivideByPOT for exponent < 0.
int32_t SaturatingRoundingMultiplyByPOT(int32_t x, int exponent);

// TFLM GetInvSqrtQuantizedMultiplierExp: 1 / sqrt(input) as a Q0.31 multiplier and a shift, by
// five Newton-Raphson steps in gemmlowp Q3.28 fixed point (L2_NORMALIZATION's int8 path).
// reverse_shift = -1 returns a left shift (TFLM's kReverseShift). input <= 1 gives (INT32_MAX, 0).
void GetInvSqrtQuantizedMultiplierExp(int32_t input, int reverse_shift, int32_t* output_inv_sqrt, int* output_shift);

// Activation clamp range for a quantized output, as TFLM's CalculateActivationRangeQuantized:
// intersect the type's range with the quantized activation bounds (RELU: [0, inf), RELU6:
// [0, 6], RELU_N1_TO_1: [-1, 1]). Returns false for an unsupported activation or type.
bool CalculateActivationRangeQuantized(tfl::ActivationFunctionType activation, const TensorView& output,
                                       int32_t* act_min, int32_t* act_max);
// Float activation range (NONE gives +-FLT_MAX). False for an unsupported activation.
bool CalculateActivationRangeFloat(tfl::ActivationFunctionType activation, float* act_min, float* act_max);

// Value range of a quantized type (int8 [-128, 127], uint8, int16, int32); false otherwise.
bool QuantizedTypeRange(TensorType type, int32_t* min_value, int32_t* max_value);

}  // namespace arenaplan::rt
