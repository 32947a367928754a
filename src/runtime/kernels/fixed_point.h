// gemmlowp's fixed-point arithmetic on raw int32 values, as TFLM's reference kernels use it
// (fixedpoint/fixedpoint.h and kernels/internal/common.h). A value with I integer bits (QI.(31-I))
// is just its raw int32; the integer bits are tracked by the caller: a product of QA and QB values
// is Q(A+B), Rescale moves a value between formats. All O(1) and pure.
#pragma once

#include <cstdint>

#include "runtime/quantization.h"

namespace arenaplan::rt {

inline int32_t FpAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int32_t FpSub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}
// FixedPoint operator*: the Q(A+B) product of a QA and a QB value.
inline int32_t FpMul(int32_t a, int32_t b) { return SaturatingRoundingDoublingHighMul(a, b); }
// Rescale<dst>(x) for x with src integer bits.
inline int32_t FpRescale(int32_t x, int src_bits, int dst_bits) {
  return SaturatingRoundingMultiplyByPOT(x, src_bits - dst_bits);
}
// gemmlowp RoundingHalfSum: (a + b) / 2 rounded away from zero.
int32_t FpRoundingHalfSum(int32_t a, int32_t b);
// exp(a) for a <= 0 with `integer_bits` (<= 5) integer bits; result Q0.31 (exp_on_negative_values).
int32_t FpExpOnNegativeValues(int32_t a, int integer_bits);
// 1 / (1 + a) for a in [0, 1] Q0.31 -> Q0.31 (one_over_one_plus_x_for_x_in_0_1); also returns the
// Q2.29 Newton-Raphson result 1 / ((1 + a) / 2) through *half_reciprocal when non-null.
int32_t FpOneOverOnePlusX(int32_t a, int32_t* half_reciprocal = nullptr);
// log(x) for x >= 1 given with `input_bits` integer bits, as a value with `output_bits` integer
// bits (TFLM log_x_for_x_greater_than_or_equal_to_1).
int32_t FpLogXGreaterThanOrEqualTo1(int32_t x, int input_bits, int output_bits);

}  // namespace arenaplan::rt
