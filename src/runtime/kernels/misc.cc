// Small ops, exact with TFLM's reference kernels:
//   CAST: static_cast from bool/int8/int16/int32/uint32/int64/float32 to int8/int16/int32/uint32/
//     float32, the types TFLM's cast.cc Eval handles; any other input (e.g. uint8) or output (bool,
//     uint8, int64) fails the Invoke with TFLM's message, as TFLM does since its PR #3248; float ->
//     integer saturates out-of-range and NaN to INT32_MIN like x86-64's cvttss2si, instead of C++
//     undefined behaviour.
//   DIV float32 / int32 (truncating; division by zero fails the Invoke), with broadcasting and
//     the fused activation.
//   FLOOR_DIV, FLOOR_MOD float32 (TFLM supports no other type), SQUARED_DIFFERENCE float32/int32.
//   PRELU float32 (x >= 0 ? x : x * alpha) and int8/int16 (two QuantizeMultiplier multipliers in
//     double: s_in / s_out and s_in * s_alpha / s_out), alpha broadcast to the input.
//   REVERSE_V2 (any type, any number of constant axes), FILL (constant dims, scalar value),
//   ZEROS_LIKE.
// O(output elements) each.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "runtime/kernels/binary_util.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

// ---- CAST -----------------------------------------------------------------------------------
// The input types TFLM's CastEval switches on (bool since TFLM PR #2401).
bool CastInputType(TensorType t) {
  switch (t) {
    case TensorType::BOOL:
    case TensorType::INT8:
    case TensorType::INT16:
    case TensorType::INT32:
    case TensorType::UINT32:
    case TensorType::INT64:
    case TensorType::FLOAT32: return true;
    default: return false;
  }
}

// The output types TFLM's copyToTensor writes.
bool CastOutputType(TensorType t) {
  switch (t) {
    case TensorType::INT8:
    case TensorType::INT16:
    case TensorType::INT32:
    case TensorType::UINT32:
    case TensorType::FLOAT32: return true;
    default: return false;
  }
}

StatusCode PrepareCast(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  // The types are checked in Eval, as TFLM's cast.cc does (a uint8 input allocates, then fails its
  // Invoke).
  if (ElementCount(in) != ElementCount(out)) return ctx.Fail(StatusCode::kInvalidModel, "element counts differ");
  return StatusCode::kOk;
}

// Integer value of element i as int64 (exact for every integer type here); float handled apart.
int64_t LoadInt(const TensorView& t, int64_t i) {
  switch (t.type) {
    case TensorType::BOOL: return t.As<bool>()[i] ? 1 : 0;
    case TensorType::INT8: return t.As<int8_t>()[i];
    case TensorType::INT16: return t.As<int16_t>()[i];
    case TensorType::INT32: return t.As<int32_t>()[i];
    case TensorType::UINT32: return t.As<uint32_t>()[i];
    default: return t.As<int64_t>()[i];
  }
}

// Stores an integer with C++'s modular narrowing (done on unsigned values to stay defined).
void StoreInt(const TensorView& t, int64_t i, int64_t v) {
  const uint64_t u = static_cast<uint64_t>(v);
  switch (t.type) {
    case TensorType::BOOL: t.As<bool>()[i] = v != 0; break;
    case TensorType::INT8: t.As<int8_t>()[i] = static_cast<int8_t>(static_cast<uint8_t>(u)); break;
    case TensorType::UINT8: t.As<uint8_t>()[i] = static_cast<uint8_t>(u); break;
    case TensorType::INT16: t.As<int16_t>()[i] = static_cast<int16_t>(static_cast<uint16_t>(u)); break;
    case TensorType::INT32: t.As<int32_t>()[i] = static_cast<int32_t>(static_cast<uint32_t>(u)); break;
    case TensorType::UINT32: t.As<uint32_t>()[i] = static_cast<uint32_t>(u); break;
    case TensorType::INT64: t.As<int64_t>()[i] = v; break;
    default: t.As<float>()[i] = static_cast<float>(v); break;
  }
}

StatusCode EvalCast(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (!CastInputType(in.type)) {
    return ctx.Fail(StatusCode::kUnsupported, "Input type %s (%d) not supported.", TypeName(in.type),
                    static_cast<int>(TfLiteTypeCode(in.type)));
  }
  if (!CastOutputType(out.type)) {
    return ctx.Fail(StatusCode::kUnsupported, "Output type %s (%d) not supported.", TypeName(out.type),
                    static_cast<int>(TfLiteTypeCode(out.type)));
  }
  const int64_t n = ElementCount(out);
  if (in.type == TensorType::FLOAT32) {
    const float* x = in.As<float>();
    for (int64_t i = 0; i < n; ++i) {
      const float v = x[i];
      if (out.type == TensorType::FLOAT32) {
        out.As<float>()[i] = v;
      } else if (out.type == TensorType::UINT32) {
        // 64-bit truncation (cvttss2si r64); out of range -> INT64_MIN.
        const bool in_range = v > -9223372036854775808.0f && v < 9223372036854775808.0f;
        StoreInt(out, i, in_range ? static_cast<int64_t>(v) : INT64_MIN);
      } else {
        const bool in_range = v > -2147483649.0f && v < 2147483648.0f;
        StoreInt(out, i, in_range ? static_cast<int32_t>(v) : INT32_MIN);
      }
    }
    return StatusCode::kOk;
  }
  for (int64_t i = 0; i < n; ++i) StoreInt(out, i, LoadInt(in, i));
  return StatusCode::kOk;
}

// ---- binary float/int32 ops ------------------------------------------------------------------
enum class Binary : uint8_t { kDiv, kFloorDiv, kFloorMod, kSquaredDifference };

struct BinaryData {
  Broadcast bc;
  float act_min_f, act_max_f;
  int32_t act_min, act_max;
};

template <Binary op>
StatusCode PrepareBinary(KernelContext& ctx) {
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(PrepareSameTypeBinary(ctx, &a, &b, &out));
  const bool int_ok = op == Binary::kDiv || op == Binary::kSquaredDifference;
  // FLOOR_DIV / FLOOR_MOD: TFLM refuses other types in Eval only (EvalBinary).
  const bool type_at_invoke = op == Binary::kFloorDiv || op == Binary::kFloorMod;
  if (out.type != TensorType::FLOAT32 && !(int_ok && out.type == TensorType::INT32) && !type_at_invoke) {
    return ctx.Fail(StatusCode::kUnsupported, "type %s not supported", TypeName(out.type));
  }
  if (out.type == TensorType::INT32 && (a.num_channels != 0 || b.num_channels != 0)) {
    return ctx.Fail(StatusCode::kUnsupported, "quantized int32 inputs not supported");
  }
  BinaryData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  RT_RETURN_IF_ERROR(PrepareBroadcast(ctx, a, b, out, &d->bc));
  auto act = tfl::ActivationFunctionType::NONE;
  if (op == Binary::kDiv) {
    const auto* o = Options<tfl::DivOptions>(ctx);
    if (o != nullptr) act = o->fused_activation_function();
  }
  if (!CalculateActivationRangeInt32(act, &d->act_min_f, &d->act_max_f, &d->act_min, &d->act_max)) {
    return ctx.Fail(StatusCode::kUnsupported, "fused activation %d not supported", static_cast<int>(act));
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

float FloatOp(Binary op, float x, float y) {
  switch (op) {
    case Binary::kDiv: return x / y;
    case Binary::kFloorDiv: return std::floor(x / y);
    case Binary::kFloorMod: {
      const float m = std::fmod(x, y);
      return (m != 0.0f && ((y < 0.0f) != (m < 0.0f))) ? m + y : m;
    }
    default: {
      const float diff = x - y;
      return diff * diff;
    }
  }
}

template <Binary op>
StatusCode EvalBinary(KernelContext& ctx) {
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(GetBinaryTensors(ctx, &a, &b, &out));
  const auto& d = *static_cast<const BinaryData*>(ctx.op_data());
  if ((op == Binary::kFloorDiv || op == Binary::kFloorMod) && out.type != TensorType::FLOAT32) {
    return ctx.Fail(StatusCode::kUnsupported, "Type '%s' is not supported by %s.", TypeName(out.type),
                    op == Binary::kFloorDiv ? "FLOOR_DIV" : "FLOOR_MOD");
  }
  if (out.type == TensorType::FLOAT32) {
    const float* x = a.As<float>();
    const float* y = b.As<float>();
    float* z = out.As<float>();
    ForEachBroadcast(d.bc, [&](int32_t o, int32_t i, int32_t j) {
      const float v = FloatOp(op, x[i], y[j]);
      z[o] = op == Binary::kDiv ? ClampFloat(v, d.act_min_f, d.act_max_f) : v;
    });
    return StatusCode::kOk;
  }
  const int32_t* x = a.As<int32_t>();
  const int32_t* y = b.As<int32_t>();
  int32_t* z = out.As<int32_t>();
  bool bad = false;
  ForEachBroadcast(d.bc, [&](int32_t o, int32_t i, int32_t j) {
    int32_t v = 0;
    if (op == Binary::kDiv) {
      if (y[j] == 0 || (x[i] == INT32_MIN && y[j] == -1)) {
        bad = true;  // TFLM would trap here; we report it
      } else {
        v = x[i] / y[j];
      }
      v = ClampInt32(v, d.act_min, d.act_max);
    } else {
      const uint32_t diff = static_cast<uint32_t>(x[i]) - static_cast<uint32_t>(y[j]);
      v = static_cast<int32_t>(diff * diff);
    }
    z[o] = v;
  });
  if (bad) return ctx.Fail(StatusCode::kKernelError, "integer division by zero or overflow");
  return StatusCode::kOk;
}

// ---- PRELU ----------------------------------------------------------------------------------
struct PreluData {
  Broadcast bc;
  int32_t in_offset, alpha_offset, out_offset;
  int32_t mult1, shift1, mult2, shift2;
  int32_t lo, hi;
};

StatusCode PreparePrelu(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView in, alpha, out;
  RT_RETURN_IF_ERROR(GetBinaryTensors(ctx, &in, &alpha, &out));
  if (in.type != out.type || alpha.type != out.type) {
    return ctx.Fail(StatusCode::kInvalidModel, "input %s / alpha %s / output %s types differ", TypeName(in.type),
                    TypeName(alpha.type), TypeName(out.type));
  }
  // Other types pass TFLM's Prepare and fail its Eval (EvalPrelu).
  const bool type_ok = out.type == TensorType::FLOAT32 || out.type == TensorType::INT8 || out.type == TensorType::INT16;
  PreluData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  if (!MakeBroadcast(in, alpha, out, &d->bc)) {
    return ctx.Fail(StatusCode::kInvalidModel, "alpha (rank %d) does not broadcast to the input (rank %d)", alpha.rank,
                    in.rank);
  }
  if (out.type != TensorType::FLOAT32 && type_ok) {
    if (in.scale <= 0.0f || alpha.scale <= 0.0f || out.scale <= 0.0f) {
      return ctx.Fail(StatusCode::kInvalidModel, "quantized tensors need positive scales");
    }
    int s = 0;
    QuantizeMultiplier(static_cast<double>(in.scale) / static_cast<double>(out.scale), &d->mult1, &s);
    d->shift1 = s;
    QuantizeMultiplier(
        static_cast<double>(in.scale) * static_cast<double>(alpha.scale) / static_cast<double>(out.scale), &d->mult2,
        &s);
    d->shift2 = s;
    d->in_offset = -in.zero_point;
    d->alpha_offset = -alpha.zero_point;
    d->out_offset = out.zero_point;
    QuantizedTypeRange(out.type, &d->lo, &d->hi);
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

template <typename T>
void PreluQuant(const PreluData& d, const T* x, const T* a, T* y) {
  ForEachBroadcast(d.bc, [&](int32_t o, int32_t i, int32_t j) {
    const int32_t v = d.in_offset + x[i];
    int32_t r = v >= 0 ? MultiplyByQuantizedMultiplier(v, d.mult1, d.shift1)
                       : MultiplyByQuantizedMultiplier(v * (d.alpha_offset + a[j]), d.mult2, d.shift2);
    r += d.out_offset;
    y[o] = static_cast<T>(ClampInt32(r, d.lo, d.hi));
  });
}

StatusCode EvalPrelu(KernelContext& ctx) {
  TensorView in, alpha, out;
  RT_RETURN_IF_ERROR(GetBinaryTensors(ctx, &in, &alpha, &out));
  const auto& d = *static_cast<const PreluData*>(ctx.op_data());
  if (out.type != TensorType::FLOAT32 && out.type != TensorType::INT8 && out.type != TensorType::INT16) {
    return ctx.Fail(StatusCode::kUnsupported, "Input type '%s' is not supported.", TypeName(out.type));
  }
  switch (out.type) {
    case TensorType::FLOAT32: {
      const float* x = in.As<float>();
      const float* a = alpha.As<float>();
      float* y = out.As<float>();
      ForEachBroadcast(d.bc, [&](int32_t o, int32_t i, int32_t j) { y[o] = x[i] >= 0.0f ? x[i] : x[i] * a[j]; });
      break;
    }
    case TensorType::INT8: PreluQuant(d, in.As<int8_t>(), alpha.As<int8_t>(), out.As<int8_t>()); break;
    default: PreluQuant(d, in.As<int16_t>(), alpha.As<int16_t>(), out.As<int16_t>()); break;
  }
  return StatusCode::kOk;
}

// ---- REVERSE_V2 -----------------------------------------------------------------------------
constexpr int32_t kMaxReverseDims = 8;

StatusCode PrepareReverse(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView in, axes, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &axes));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (in.type != out.type || TypeSize(in.type) == 0 || !SameShape(in, out)) {
    return ctx.Fail(StatusCode::kInvalidModel, "input and output must have the same type and shape");
  }
  if (in.rank > kMaxReverseDims) return ctx.Fail(StatusCode::kUnsupported, "rank %d above 8", in.rank);
  if (axes.type != TensorType::INT32 || axes.data == nullptr) {
    return ctx.Fail(StatusCode::kUnsupported, "axis tensor must be constant int32");
  }
  for (int64_t k = 0; k < ElementCount(axes); ++k) {
    int32_t a = axes.As<int32_t>()[k];
    if (a < 0) a += in.rank;
    if (a < 0 || a >= in.rank)
      return ctx.Fail(StatusCode::kInvalidModel, "axis %d out of range", axes.As<int32_t>()[k]);
  }
  return StatusCode::kOk;
}

StatusCode EvalReverse(KernelContext& ctx) {
  TensorView in, axes, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &axes));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  bool flip[kMaxReverseDims] = {};
  for (int64_t k = 0; k < ElementCount(axes); ++k) {
    int32_t a = axes.As<int32_t>()[k];
    flip[a < 0 ? a + in.rank : a] = true;
  }
  // Input stride per axis, negated on flipped axes; start at the flipped corner.
  int64_t stride[kMaxReverseDims];
  int64_t s = 1, at = 0;
  for (int32_t a = in.rank - 1; a >= 0; --a) {
    stride[a] = flip[a] ? -s : s;
    if (flip[a] && in.dims[a] > 0) at += s * (in.dims[a] - 1);
    s *= in.dims[a];
  }
  const size_t es = TypeSize(in.type);
  const int64_t total = ElementCount(in);
  const uint8_t* src = static_cast<const uint8_t*>(in.data);
  uint8_t* dst = static_cast<uint8_t*>(out.data);
  int32_t idx[kMaxReverseDims] = {};
  for (int64_t o = 0; o < total; ++o) {
    std::memcpy(dst + o * es, src + at * es, es);
    for (int32_t a = in.rank - 1; a >= 0; --a) {
      at += stride[a];
      if (++idx[a] < in.dims[a]) break;
      at -= stride[a] * in.dims[a];
      idx[a] = 0;
    }
  }
  return StatusCode::kOk;
}

// ---- FILL / ZEROS_LIKE ----------------------------------------------------------------------
StatusCode PrepareFill(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView dims, value, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &dims));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &value));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (dims.data == nullptr) return ctx.Fail(StatusCode::kUnsupported, "non-constant dims tensor is not supported");
  if ((dims.type != TensorType::INT32 && dims.type != TensorType::INT64) || ElementCount(dims) != out.rank) {
    return ctx.Fail(StatusCode::kInvalidModel, "dims must be int32/int64 with one entry per output dim");
  }
  for (int32_t a = 0; a < out.rank; ++a) {
    const int64_t v = dims.type == TensorType::INT32 ? dims.As<int32_t>()[a] : dims.As<int64_t>()[a];
    if (v != out.dims[a]) return ctx.Fail(StatusCode::kInvalidModel, "dims[%d] differs from the output shape", a);
  }
  if (value.type != out.type || ElementCount(value) != 1 || TypeSize(out.type) == 0) {
    return ctx.Fail(StatusCode::kInvalidModel, "value must be a scalar of the output type");
  }
  return StatusCode::kOk;
}

StatusCode EvalFill(KernelContext& ctx) {
  TensorView value, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &value));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const uint32_t es = TypeSize(out.type);
  uint8_t* dst = static_cast<uint8_t*>(out.data);
  for (uint32_t off = 0; off + es <= out.bytes; off += es) std::memcpy(dst + off, value.data, es);
  return StatusCode::kOk;
}

StatusCode PrepareZerosLike(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (in.type != out.type || in.bytes != out.bytes) {
    return ctx.Fail(StatusCode::kInvalidModel, "input and output must have the same type and size");
  }
  return StatusCode::kOk;
}

StatusCode EvalZerosLike(KernelContext& ctx) {
  TensorView out;
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  // TFLM's Eval (not its Prepare) refuses every type but these.
  if (out.type != TensorType::INT64 && out.type != TensorType::INT32 && out.type != TensorType::INT8 &&
      out.type != TensorType::FLOAT32) {
    return ctx.Fail(StatusCode::kUnsupported, "ZerosLike only currently supports int64, int32, and float32, got %s",
                    TypeName(out.type));
  }
  if (out.bytes > 0) std::memset(out.data, 0, out.bytes);  // all-zero bytes are 0 / 0.0f / false
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_KERNEL(CAST, &PrepareCast, &EvalCast)
RT_REGISTER_KERNEL(DIV, &PrepareBinary<Binary::kDiv>, &EvalBinary<Binary::kDiv>)
RT_REGISTER_KERNEL(FILL, &PrepareFill, &EvalFill)
RT_REGISTER_KERNEL(FLOOR_DIV, &PrepareBinary<Binary::kFloorDiv>, &EvalBinary<Binary::kFloorDiv>)
RT_REGISTER_KERNEL(FLOOR_MOD, &PrepareBinary<Binary::kFloorMod>, &EvalBinary<Binary::kFloorMod>)
RT_REGISTER_KERNEL(PRELU, &PreparePrelu, &EvalPrelu)
RT_REGISTER_KERNEL(REVERSE_V2, &PrepareReverse, &EvalReverse)
RT_REGISTER_KERNEL(SQUARED_DIFFERENCE, &PrepareBinary<Binary::kSquaredDifference>,
                   &EvalBinary<Binary::kSquaredDifference>)
RT_REGISTER_KERNEL(ZEROS_LIKE, &PrepareZerosLike, &EvalZerosLike)

}  // namespace arenaplan::rt
