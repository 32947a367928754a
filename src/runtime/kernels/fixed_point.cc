#include "runtime/kernels/fixed_point.h"

#include <climits>

namespace arenaplan::rt {

int32_t FpRoundingHalfSum(int32_t a, int32_t b) {
  const int64_t sum = static_cast<int64_t>(a) + b;
  return static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
}

namespace {

// exp(a) for a in [-1/4, 0), Q0.31 in and out: Taylor expansion around -1/8.
int32_t ExpOnQuarterInterval(int32_t a) {
  const int32_t constant_term = 1895147668;  // exp(-1/8)
  const int32_t constant_1_over_3 = 715827883;
  const int32_t x = FpAdd(a, 1 << 28);  // a + 1/8
  const int32_t x2 = FpMul(x, x);
  const int32_t x3 = FpMul(x2, x);
  const int32_t x4 = FpMul(x2, x2);
  const int32_t x4_over_4 = RoundingDivideByPOT(x4, 2);
  const int32_t poly = RoundingDivideByPOT(FpAdd(FpMul(FpAdd(x4_over_4, x3), constant_1_over_3), x2), 1);
  return FpAdd(constant_term, FpMul(constant_term, FpAdd(x, poly)));
}

// SaturatingRoundingMultiplyByPOTParam for exponent >= 0 (TFLM common.h).
int32_t SaturatingShiftLeftParam(int32_t x, int exponent) {
  if (exponent == 0) return x;
  return SaturatingRoundingMultiplyByPOT(x, exponent);
}

// SaturatingAddNonGemmlowp / SaturatingSub on int32.
int32_t SaturatingAdd(int32_t a, int32_t b) {
  const int64_t s = static_cast<int64_t>(a) + b;
  return static_cast<int32_t>(s > INT32_MAX ? INT32_MAX : (s < INT32_MIN ? INT32_MIN : s));
}
int32_t SaturatingSubtract(int32_t a, int32_t b) {
  const int64_t s = static_cast<int64_t>(a) - b;
  return static_cast<int32_t>(s > INT32_MAX ? INT32_MAX : (s < INT32_MIN ? INT32_MIN : s));
}

int CountLeadingZeros32(uint32_t x) { return x == 0 ? 32 : __builtin_clz(x); }

}  // namespace

int32_t FpExpOnNegativeValues(int32_t a, int integer_bits) {
  const int fractional = 31 - integer_bits;
  const int32_t one_quarter = 1 << (fractional - 2);
  const int32_t mod_minus_quarter = FpSub(a & (one_quarter - 1), one_quarter);
  int32_t result = ExpOnQuarterInterval(FpRescale(mod_minus_quarter, integer_bits, 0));
  const int32_t remainder = FpSub(mod_minus_quarter, a);
  // exp(-2^k) for k = -2 .. 4, applied for every set bit of the remainder the format has.
  static constexpr int32_t kMultipliers[7] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  for (int k = -2; k <= 4 && integer_bits > k; ++k) {
    if (remainder & (1 << (fractional + k))) result = FpMul(result, kMultipliers[k + 2]);
  }
  return a == 0 ? INT32_MAX : result;
}

int32_t FpOneOverOnePlusX(int32_t a, int32_t* half_reciprocal) {
  const int32_t half_denominator = FpRoundingHalfSum(a, INT32_MAX);  // Q0.31
  const int32_t k48_over_17 = 1515870810;                            // Q2.29
  const int32_t kNeg32_over_17 = -1010580540;                        // Q2.29
  int32_t x = FpAdd(k48_over_17, FpMul(half_denominator, kNeg32_over_17));
  const int32_t one_q2 = 1 << 29;
  for (int i = 0; i < 3; ++i) {
    const int32_t one_minus = FpSub(one_q2, FpMul(half_denominator, x));  // Q2.29
    x = FpAdd(x, FpRescale(FpMul(x, one_minus), 4, 2));
  }
  if (half_reciprocal != nullptr) *half_reciprocal = x;
  // ExactMulByPot<-1> relabels Q2 as Q1 without touching the raw value; then Q1 -> Q0.
  return FpRescale(x, 1, 0);
}

int32_t FpLogXGreaterThanOrEqualTo1(int32_t x, int input_bits, int output_bits) {
  const int accum_bits = output_bits + 1;  // one bit of headroom (TFLM)
  const int32_t log_2 = 1488522236, sqrt_sqrt_half = 1805811301, sqrt_half = 1518500250;
  const int32_t one_quarter = 536870912;
  const int32_t alpha_n = 117049297, alpha_d = 127690142, alpha_i = 1057819769, alpha_f = 638450708;
  const int32_t shifted_quarter = FpRescale(one_quarter, 0, accum_bits);
  // x reinterpreted as Q0.31; the power of two is found by hand.
  const int z_a_headroom_plus_1 = CountLeadingZeros32(static_cast<uint32_t>(x));
  const int32_t r_a_tmp = SaturatingShiftLeftParam(x, z_a_headroom_plus_1 - 1);
  const int32_t r_a_raw = SaturatingShiftLeftParam(FpMul(r_a_tmp, sqrt_half), 1);
  const int32_t z_a_pow_2_adj = SaturatingAdd(
      SaturatingShiftLeftParam(input_bits - z_a_headroom_plus_1, 31 - accum_bits), shifted_quarter);
  const int32_t z_b = FpMul(x, sqrt_half);
  const int z_b_headroom = CountLeadingZeros32(static_cast<uint32_t>(z_b)) - 1;
  const int32_t r_b_raw = SaturatingShiftLeftParam(x, z_b_headroom);
  const int32_t z_b_pow_2_adj = SaturatingSubtract(SaturatingShiftLeftParam(input_bits - z_b_headroom, 31 - accum_bits),
                                                   shifted_quarter);
  const int32_t r = r_a_raw < r_b_raw ? r_a_raw : r_b_raw;
  const int32_t z_pow_2_adj = z_a_pow_2_adj > z_b_pow_2_adj ? z_a_pow_2_adj : z_b_pow_2_adj;
  const int32_t p = FpRoundingHalfSum(r, sqrt_sqrt_half);
  int32_t q = FpSub(r, sqrt_sqrt_half);
  q = FpAdd(q, q);
  const int32_t common_sq = FpMul(q, q);
  const int32_t num = FpAdd(FpMul(q, r), FpMul(FpMul(q, common_sq), alpha_n));
  const int32_t denom_minus_one = FpAdd(FpMul(p, FpAdd(FpAdd(alpha_i, q), FpMul(alpha_d, common_sq))),
                                        FpMul(alpha_f, q));
  const int32_t recip_denom = FpOneOverOnePlusX(denom_minus_one);
  const int32_t num_scaled = FpRescale(num, 0, accum_bits);
  // Both products are Q(accum_bits); their sum is rescaled to the output format.
  return FpRescale(FpAdd(FpMul(z_pow_2_adj, log_2), FpMul(num_scaled, recip_denom)), accum_bits, output_bits);
}

}  // namespace arenaplan::rt
