// Unary float32 elementwise ops, exact with TFLM's reference kernels (same libm calls on the
// host): CEIL, COS, EXP, FLOOR, LOG, NEG, ROUND (half to even, TFLM's RoundToNearest), SIN,
// SQRT, SQUARE; and LOGICAL_NOT on bool (ABS and RSQRT, which also run quantized: abs_rsqrt.cc). One table-free switch
// per call, a tight loop per op. O(elements).
#include <cmath>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

enum class Fn : uint8_t { kCeil, kCos, kExp, kFloor, kLog, kNeg, kRound, kSin, kSqrt, kSquare };

StatusCode PrepareUnary(KernelContext& ctx, TensorType type) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  RT_RETURN_IF_ERROR(RequireType(ctx, in, type, "input"));
  RT_RETURN_IF_ERROR(RequireType(ctx, out, type, "output"));
  if (in.bytes != out.bytes)
    return ctx.Fail(StatusCode::kInvalidModel, "input has %u bytes, output %u", in.bytes, out.bytes);
  return StatusCode::kOk;
}

StatusCode PrepareFloat(KernelContext& ctx) { return PrepareUnary(ctx, TensorType::FLOAT32); }

// FLOOR and NEG: TFLM checks the type only in Eval (floor.cc has no Prepare; neg.cc's Eval switch),
// so a model of another type allocates and then fails its Invoke.
StatusCode PrepareTypeAtInvoke(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  if (in.bytes != out.bytes)
    return ctx.Fail(StatusCode::kInvalidModel, "input has %u bytes, output %u", in.bytes, out.bytes);
  return StatusCode::kOk;
}
StatusCode PrepareBool(KernelContext& ctx) { return PrepareUnary(ctx, TensorType::BOOL); }

float RoundToNearestEven(float v) {
  const float f = std::floor(v);
  const float diff = v - f;
  if (diff < 0.5f || (diff == 0.5f && std::fmod(f, 2.0f) == 0.0f)) return f;
  return f + 1.0f;
}

template <Fn F>
void Loop(const float* x, float* y, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    const float v = x[i];
    switch (F) {
      case Fn::kCeil: y[i] = std::ceil(v); break;
      case Fn::kCos: y[i] = std::cos(v); break;
      case Fn::kExp: y[i] = std::exp(v); break;
      case Fn::kFloor: y[i] = std::floor(v); break;
      case Fn::kLog: y[i] = std::log(v); break;
      case Fn::kNeg: y[i] = -v; break;
      case Fn::kRound: y[i] = RoundToNearestEven(v); break;
      case Fn::kSin: y[i] = std::sin(v); break;
      case Fn::kSqrt: y[i] = std::sqrt(v); break;
      case Fn::kSquare: y[i] = v * v; break;
    }
  }
}

template <Fn F>
StatusCode EvalFloat(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if constexpr (F == Fn::kFloor || F == Fn::kNeg) {  // PrepareTypeAtInvoke
    RT_RETURN_IF_ERROR(RequireType(ctx, in, TensorType::FLOAT32, "input"));
  }
  Loop<F>(in.As<float>(), out.As<float>(), out.bytes / 4);
  return StatusCode::kOk;
}

StatusCode EvalLogicalNot(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const bool* x = in.As<bool>();
  bool* y = out.As<bool>();
  for (uint32_t i = 0; i < out.bytes; ++i) y[i] = !x[i];
  return StatusCode::kOk;
}

const KernelRegistration kCeil{"CEIL", &PrepareFloat, &EvalFloat<Fn::kCeil>};
const KernelRegistration kCos{"COS", &PrepareFloat, &EvalFloat<Fn::kCos>};
const KernelRegistration kExp{"EXP", &PrepareFloat, &EvalFloat<Fn::kExp>};
const KernelRegistration kFloor{"FLOOR", &PrepareTypeAtInvoke, &EvalFloat<Fn::kFloor>};
const KernelRegistration kLog{"LOG", &PrepareFloat, &EvalFloat<Fn::kLog>};
const KernelRegistration kNeg{"NEG", &PrepareTypeAtInvoke, &EvalFloat<Fn::kNeg>};
const KernelRegistration kRound{"ROUND", &PrepareFloat, &EvalFloat<Fn::kRound>};
const KernelRegistration kSin{"SIN", &PrepareFloat, &EvalFloat<Fn::kSin>};
const KernelRegistration kSqrt{"SQRT", &PrepareFloat, &EvalFloat<Fn::kSqrt>};
const KernelRegistration kSquare{"SQUARE", &PrepareFloat, &EvalFloat<Fn::kSquare>};
const KernelRegistration kLogicalNot{"LOGICAL_NOT", &PrepareBool, &EvalLogicalNot};

}  // namespace

const KernelRegistration* Register_CEIL() { return &kCeil; }
const KernelRegistration* Register_COS() { return &kCos; }
const KernelRegistration* Register_EXP() { return &kExp; }
const KernelRegistration* Register_FLOOR() { return &kFloor; }
const KernelRegistration* Register_LOG() { return &kLog; }
const KernelRegistration* Register_LOGICAL_NOT() { return &kLogicalNot; }
const KernelRegistration* Register_NEG() { return &kNeg; }
const KernelRegistration* Register_ROUND() { return &kRound; }
const KernelRegistration* Register_SIN() { return &kSin; }
const KernelRegistration* Register_SQRT() { return &kSqrt; }
const KernelRegistration* Register_SQUARE() { return &kSquare; }

}  // namespace arenaplan::rt
