// SOFTMAX's op data and the two int8 fixed-point steps of kernels/softmax.cc that the fast kernel
// (kernels/dsp/softmax.cc) reuses, so that both compute exactly the same values. O(1) each.
#pragma once

#include <cstdint>

namespace arenaplan::rt {

inline constexpr int kScaledDiffIntegerBits = 5;     // scaled input differences are Q5.26
inline constexpr int kAccumulationIntegerBits = 12;  // the sum of exponentials is Q12.19

struct SoftmaxData {
  float beta;
  int32_t input_multiplier;
  int32_t input_left_shift;
  int32_t diff_min;                  // int8: differences below it give the output minimum
  int16_t* exp_lut;                  // int16 only
  int16_t* one_over_one_plus_x_lut;  // int16 only
};

namespace softmax_fixed_point {
// exp(a) for a <= 0 in Q5.26, result in Q0.31 (gemmlowp exp_on_negative_values).
int32_t ExpOnNegativeValues(int32_t a);
// 1 / x for x with x_integer_digits integer bits, as TFLM's GetReciprocal: a Q0.31 value and the
// number of bits over one it is scaled by.
int32_t GetReciprocal(int32_t x, int x_integer_digits, int* num_bits_over_unit);
}  // namespace softmax_fixed_point

}  // namespace arenaplan::rt
