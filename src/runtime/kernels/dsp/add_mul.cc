// ADD, SUB and MUL with int8 fast paths for operands of the output's shape (no broadcasting); the
// portable kernels (kernels/add.cc, sub.cc, mul.cc) prepare every case and evaluate all others.
// A flat loop replaces the 6-D broadcast walk, and every rescaling uses requantize.h (ADD / SUB
// tabulate the input rescalings of large tensors, see kTableMin):
//   ADD / SUB: s_k = RDBPOT(SRDHM((x_k + offset_k) << left_shift, m_k), -shift_k) for both inputs,
//              then the sum or difference rescaled to the output (TFLM add_common.cc). These are
//              MultiplyByQuantizedMultiplierSmallerThanOneExp, which never shifts left: a
//              non-negative exponent only skips the rounding shift, i.e. Requantize at shift 0;
//   MUL:       (x + offset_1) (y + offset_2) requantized once.
// Then + output zero point and the activation clamp. No scratch. O(elements).
#include "runtime/kernels/binary_util.h"
#include "runtime/kernels/dsp/registrations.h"
#include "runtime/kernels/dsp/requantize.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

inline int32_t Clamp(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

// The int8 operands and output when no broadcasting is involved, else false.
bool FlatInt8(KernelContext& ctx, const int8_t** x, const int8_t** y, int8_t** z, int32_t* n) {
  TensorView a, b, out;
  if (GetBinaryTensors(ctx, &a, &b, &out) != StatusCode::kOk || out.type != TensorType::INT8 || !SameShape(a, out) ||
      !SameShape(b, out)) {
    return false;
  }
  *x = a.As<int8_t>();
  *y = b.As<int8_t>();
  *z = out.As<int8_t>();
  *n = static_cast<int32_t>(ElementCount(out));
  return true;
}

// The three rescalings of ADD / SUB; kRight: all three shift right (the usual case), which takes
// requantize.h's one-pass formula without a test per value.
struct AddSubRescale {
  dsp::RequantParams r1, r2, ro;
  int32_t o1, o2, oo, shift, lo, hi;
};

template <int32_t kSign, bool kRight>
void AddSubLoop(const AddSubRescale& k, const int8_t* x, const int8_t* y, int8_t* z, int32_t n) {
  const AddSubRescale a = k;  // a local copy: int8 stores may alias anything
  auto rescale = [](int32_t v, const dsp::RequantParams& r) {
    return kRight ? dsp::RequantizeRight(v, r) : dsp::Requantize(v, r);
  };
  for (int32_t i = 0; i < n; ++i) {
    const int32_t s1 = rescale((a.o1 + x[i]) * (1 << a.shift), a.r1);
    const int32_t s2 = rescale((a.o2 + y[i]) * (1 << a.shift), a.r2);
    const int32_t s = static_cast<int32_t>(static_cast<uint32_t>(s1) + static_cast<uint32_t>(kSign * s2));
    z[i] = static_cast<int8_t>(Clamp(rescale(s, a.ro) + a.oo, a.lo, a.hi));
  }
}

// From kTableMin elements on, each input's rescaling, which depends on its int8 value only, is
// tabulated once (256 int32 per input, on the stack: 512 rescalings instead of two per element), and
// the loop is two lookups, the output rescaling and the clamp (kFullRange: one SSAT).
constexpr int32_t kTableMin = 256;

void RescaleTable(int32_t offset, int32_t shift, const dsp::RequantParams& r, int32_t* table) {
  for (int32_t v = -128; v < 128; ++v) table[v + 128] = dsp::Requantize((offset + v) * (1 << shift), r);
}

template <int32_t kSign, bool kRight, bool kFullRange>
void AddSubTableLoop(const AddSubRescale& k, const int32_t* t1, const int32_t* t2, const int8_t* x, const int8_t* y,
                     int8_t* z, int32_t n) {
  const dsp::RequantParams ro = k.ro;  // local copies: int8 stores may alias anything
  const int32_t oo = k.oo, lo = k.lo, hi = k.hi;
  for (int32_t i = 0; i < n; ++i) {
    const int32_t s = static_cast<int32_t>(static_cast<uint32_t>(t1[x[i] + 128]) +
                                           static_cast<uint32_t>(kSign * t2[y[i] + 128]));
    const int32_t v = (kRight ? dsp::RequantizeRight(s, ro) : dsp::Requantize(s, ro)) + oo;
    z[i] = static_cast<int8_t>(kFullRange ? dsp::Ssat8(v) : Clamp(v, lo, hi));
  }
}

template <int32_t kSign>
void AddSubTabulated(const AddSubRescale& k, const int8_t* x, const int8_t* y, int8_t* z, int32_t n) {
  int32_t t1[256], t2[256];
  RescaleTable(k.o1, k.shift, k.r1, t1);
  RescaleTable(k.o2, k.shift, k.r2, t2);
  const bool right = k.ro.high_shift >= 0, full = k.lo <= -128 && k.hi >= 127;
  if (right && full) {
    AddSubTableLoop<kSign, true, true>(k, t1, t2, x, y, z, n);
  } else if (right) {
    AddSubTableLoop<kSign, true, false>(k, t1, t2, x, y, z, n);
  } else {
    AddSubTableLoop<kSign, false, false>(k, t1, t2, x, y, z, n);
  }
}

// ADD (sign = 1) or SUB (sign = -1).
template <int32_t kSign>
StatusCode EvalAddSub(KernelContext& ctx, const KernelRegistration* portable) {
  const int8_t *x = nullptr, *y = nullptr;
  int8_t* z = nullptr;
  int32_t n = 0;
  if (!FlatInt8(ctx, &x, &y, &z, &n)) return portable->eval(ctx);
  const AddSubParams& p = static_cast<const ArithmeticData<AddSubParams>*>(ctx.op_data())->q;
  const AddSubRescale k{dsp::MakeRequant(p.in1_mult, p.in1_shift < 0 ? p.in1_shift : 0),
                        dsp::MakeRequant(p.in2_mult, p.in2_shift < 0 ? p.in2_shift : 0),
                        dsp::MakeRequant(p.out_mult, p.out_shift < 0 ? p.out_shift : 0),
                        p.in1_offset,
                        p.in2_offset,
                        p.out_offset,
                        p.left_shift,
                        p.act_min,
                        p.act_max};
  if (n >= kTableMin) {
    AddSubTabulated<kSign>(k, x, y, z, n);
  } else if (k.r1.high_shift >= 0 && k.r2.high_shift >= 0 && k.ro.high_shift >= 0) {
    AddSubLoop<kSign, true>(k, x, y, z, n);
  } else {
    AddSubLoop<kSign, false>(k, x, y, z, n);
  }
  return StatusCode::kOk;
}

StatusCode EvalAdd(KernelContext& ctx) { return EvalAddSub<1>(ctx, Register_ADD()); }
StatusCode EvalSub(KernelContext& ctx) { return EvalAddSub<-1>(ctx, Register_SUB()); }

StatusCode EvalMul(KernelContext& ctx) {
  const int8_t *x = nullptr, *y = nullptr;
  int8_t* z = nullptr;
  int32_t n = 0;
  if (!FlatInt8(ctx, &x, &y, &z, &n)) return Register_MUL()->eval(ctx);
  const MulParams& p = static_cast<const ArithmeticData<MulParams>*>(ctx.op_data())->q;
  const dsp::RequantParams r = dsp::MakeRequant(p.out_mult, p.out_shift);
  const int32_t o1 = p.in1_offset, o2 = p.in2_offset, oo = p.out_offset, lo = p.act_min, hi = p.act_max;
  for (int32_t i = 0; i < n; ++i) {
    z[i] = static_cast<int8_t>(Clamp(dsp::Requantize((o1 + x[i]) * (o2 + y[i]), r) + oo, lo, hi));
  }
  return StatusCode::kOk;
}

StatusCode PrepareAdd(KernelContext& ctx) { return Register_ADD()->prepare(ctx); }
StatusCode PrepareSub(KernelContext& ctx) { return Register_SUB()->prepare(ctx); }
StatusCode PrepareMul(KernelContext& ctx) { return Register_MUL()->prepare(ctx); }

}  // namespace

RT_REGISTER_DSP_KERNEL(ADD, &PrepareAdd, &EvalAdd)
RT_REGISTER_DSP_KERNEL(SUB, &PrepareSub, &EvalSub)
RT_REGISTER_DSP_KERNEL(MUL, &PrepareMul, &EvalMul)

}  // namespace arenaplan::rt
