// Comparisons (EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL -> bool), MINIMUM /
// MAXIMUM, and ARG_MAX / ARG_MIN, exact with TFLM's reference kernels:
//   * comparisons broadcast (up to 6D); int8/uint8 inputs are first brought to a common scale the
//     TFLM way: ((x - zp) << 8) * QuantizeMultiplierSmallerThanOneExp(scale), so inputs with
//     different quantization compare by real value;
//   * MINIMUM/MAXIMUM broadcast and do not requantize (el1 < el2 ? el1 : el2);
//   * ARG_MAX/ARG_MIN keep the first extreme index (strict comparison) along a constant axis.
// O(output elements) (ARG_*: O(input elements)).
#include "runtime/kernels/binary_util.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

enum class Cmp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };

struct CompareData {
  Broadcast bc;
  int32_t off1, off2;
  int32_t mult1, mult2;
  int32_t shift1, shift2;
};

template <typename T>
bool Apply(Cmp c, T a, T b) {
  switch (c) {
    case Cmp::kEq: return a == b;
    case Cmp::kNe: return a != b;
    case Cmp::kLt: return a < b;
    case Cmp::kLe: return a <= b;
    case Cmp::kGt: return a > b;
    default: return a >= b;
  }
}

template <bool equality>  // EQUAL / NOT_EQUAL also take bool
StatusCode PrepareCompare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(GetBinaryTensors(ctx, &a, &b, &out));
  if (a.type != b.type) {
    return ctx.Fail(StatusCode::kInvalidModel, "input types %s and %s differ", TypeName(a.type), TypeName(b.type));
  }
  RT_RETURN_IF_ERROR(RequireType(ctx, out, TensorType::BOOL, "output"));
  const TensorType t = a.type;
  const bool ok = t == TensorType::FLOAT32 || t == TensorType::INT32 || t == TensorType::INT64 ||
                  t == TensorType::INT8 || t == TensorType::UINT8 || t == TensorType::INT16 ||
                  (equality && t == TensorType::BOOL);
  if (!ok) return ctx.Fail(StatusCode::kUnsupported, "type %s not supported", TypeName(t));
  CompareData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  RT_RETURN_IF_ERROR(PrepareBroadcast(ctx, a, b, out, &d->bc));
  if (t == TensorType::INT8 || t == TensorType::UINT8) {
    // TFLM requires multipliers in (0, 1) here (a larger one would shift by a negative amount).
    if (!(a.scale > 0.0f && a.scale < 1.0f && b.scale > 0.0f && b.scale < 1.0f)) {
      return ctx.Fail(StatusCode::kUnsupported, "quantized comparison needs input scales in (0, 1)");
    }
    d->off1 = -a.zero_point;
    d->off2 = -b.zero_point;
    int s = 0;
    QuantizeMultiplierSmallerThanOneExp(static_cast<double>(a.scale), &d->mult1, &s);
    d->shift1 = s;
    QuantizeMultiplierSmallerThanOneExp(static_cast<double>(b.scale), &d->mult2, &s);
    d->shift2 = s;
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

template <typename T>
void ComparePlain(const CompareData& d, Cmp c, const T* x, const T* y, bool* z) {
  ForEachBroadcast(d.bc, [&](int32_t o, int32_t i, int32_t j) { z[o] = Apply(c, x[i], y[j]); });
}

template <typename T>
void CompareQuant(const CompareData& d, Cmp c, const T* x, const T* y, bool* z) {
  constexpr int kLeftShift = 8;
  ForEachBroadcast(d.bc, [&](int32_t o, int32_t i, int32_t j) {
    const int32_t v1 = MultiplyByQuantizedMultiplierSmallerThanOneExp((d.off1 + x[i]) * (1 << kLeftShift), d.mult1,
                                                                      d.shift1);
    const int32_t v2 = MultiplyByQuantizedMultiplierSmallerThanOneExp((d.off2 + y[j]) * (1 << kLeftShift), d.mult2,
                                                                      d.shift2);
    z[o] = Apply(c, v1, v2);
  });
}

template <Cmp c>
StatusCode EvalCompare(KernelContext& ctx) {
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(GetBinaryTensors(ctx, &a, &b, &out));
  const auto& d = *static_cast<const CompareData*>(ctx.op_data());
  bool* z = out.As<bool>();
  switch (a.type) {
    case TensorType::FLOAT32: ComparePlain(d, c, a.As<float>(), b.As<float>(), z); break;
    case TensorType::INT32: ComparePlain(d, c, a.As<int32_t>(), b.As<int32_t>(), z); break;
    case TensorType::INT64: ComparePlain(d, c, a.As<int64_t>(), b.As<int64_t>(), z); break;
    case TensorType::INT16: ComparePlain(d, c, a.As<int16_t>(), b.As<int16_t>(), z); break;
    case TensorType::BOOL: ComparePlain(d, c, a.As<bool>(), b.As<bool>(), z); break;
    case TensorType::INT8: CompareQuant(d, c, a.As<int8_t>(), b.As<int8_t>(), z); break;
    default: CompareQuant(d, c, a.As<uint8_t>(), b.As<uint8_t>(), z); break;
  }
  return StatusCode::kOk;
}

// ---- MINIMUM / MAXIMUM ------------------------------------------------------------------------
StatusCode PrepareMinMax(KernelContext& ctx) {
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(PrepareSameTypeBinary(ctx, &a, &b, &out));
  const TensorType t = out.type;
  if (t != TensorType::FLOAT32 && t != TensorType::INT8 && t != TensorType::INT16 && t != TensorType::INT32 &&
      t != TensorType::INT64) {
    return ctx.Fail(StatusCode::kUnsupported, "type %s not supported", TypeName(t));
  }
  Broadcast* bc = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &bc));
  RT_RETURN_IF_ERROR(PrepareBroadcast(ctx, a, b, out, bc));
  ctx.set_op_data(bc);
  return StatusCode::kOk;
}

template <typename T>
void MinMax(const Broadcast& bc, bool is_max, const T* x, const T* y, T* z) {
  if (is_max) {
    ForEachBroadcast(bc, [&](int32_t o, int32_t i, int32_t j) { z[o] = x[i] > y[j] ? x[i] : y[j]; });
  } else {
    ForEachBroadcast(bc, [&](int32_t o, int32_t i, int32_t j) { z[o] = x[i] < y[j] ? x[i] : y[j]; });
  }
}

template <bool is_max>
StatusCode EvalMinMax(KernelContext& ctx) {
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(GetBinaryTensors(ctx, &a, &b, &out));
  const auto& bc = *static_cast<const Broadcast*>(ctx.op_data());
  switch (out.type) {
    case TensorType::FLOAT32: MinMax(bc, is_max, a.As<float>(), b.As<float>(), out.As<float>()); break;
    case TensorType::INT8: MinMax(bc, is_max, a.As<int8_t>(), b.As<int8_t>(), out.As<int8_t>()); break;
    case TensorType::INT16: MinMax(bc, is_max, a.As<int16_t>(), b.As<int16_t>(), out.As<int16_t>()); break;
    case TensorType::INT32: MinMax(bc, is_max, a.As<int32_t>(), b.As<int32_t>(), out.As<int32_t>()); break;
    default: MinMax(bc, is_max, a.As<int64_t>(), b.As<int64_t>(), out.As<int64_t>()); break;
  }
  return StatusCode::kOk;
}

// ---- ARG_MAX / ARG_MIN -------------------------------------------------------------------------
struct ArgData {
  int64_t outer, inner;
  int32_t axis_size;
};

StatusCode PrepareArg(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView in, axis_t, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &axis_t));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const TensorType t = in.type;
  if (t != TensorType::FLOAT32 && t != TensorType::INT8 && t != TensorType::UINT8 && t != TensorType::INT16 &&
      t != TensorType::INT32) {
    return ctx.Fail(StatusCode::kUnsupported, "input type %s not supported", TypeName(t));
  }
  if (out.type != TensorType::INT32 && out.type != TensorType::INT64) {
    return ctx.Fail(StatusCode::kUnsupported, "output type %s not supported", TypeName(out.type));
  }
  int64_t axis = 0;
  RT_RETURN_IF_ERROR(ReadConstantAxis(ctx, axis_t, in.rank, &axis));
  if (in.dims[axis] < 1) return ctx.Fail(StatusCode::kInvalidModel, "reduced axis is empty");
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(ArgData), &mem));
  auto* d = static_cast<ArgData*>(mem);
  d->outer = 1;
  d->inner = 1;
  for (int32_t a = 0; a < axis; ++a) d->outer *= in.dims[a];
  for (int32_t a = static_cast<int32_t>(axis) + 1; a < in.rank; ++a) d->inner *= in.dims[a];
  d->axis_size = in.dims[axis];
  if (ElementCount(out) != d->outer * d->inner) {
    return ctx.Fail(StatusCode::kInvalidModel, "output has %d elements, expected %d",
                    static_cast<int>(ElementCount(out)), static_cast<int>(d->outer * d->inner));
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

template <typename T>
void ArgOf(const ArgData& d, bool is_max, const T* x, const TensorView& out) {
  for (int64_t o = 0; o < d.outer; ++o) {
    for (int64_t i = 0; i < d.inner; ++i) {
      const T* base = x + o * d.axis_size * d.inner + i;
      T best = base[0];
      int32_t best_index = 0;
      for (int32_t k = 1; k < d.axis_size; ++k) {
        const T v = base[k * d.inner];
        if (is_max ? v > best : v < best) {
          best = v;
          best_index = k;
        }
      }
      if (out.type == TensorType::INT32) {
        out.As<int32_t>()[o * d.inner + i] = best_index;
      } else {
        out.As<int64_t>()[o * d.inner + i] = best_index;
      }
    }
  }
}

template <bool is_max>
StatusCode EvalArg(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const auto& d = *static_cast<const ArgData*>(ctx.op_data());
  switch (in.type) {
    case TensorType::FLOAT32: ArgOf(d, is_max, in.As<float>(), out); break;
    case TensorType::INT8: ArgOf(d, is_max, in.As<int8_t>(), out); break;
    case TensorType::UINT8: ArgOf(d, is_max, in.As<uint8_t>(), out); break;
    case TensorType::INT16: ArgOf(d, is_max, in.As<int16_t>(), out); break;
    default: ArgOf(d, is_max, in.As<int32_t>(), out); break;
  }
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_KERNEL(ARG_MAX, &PrepareArg, &EvalArg<true>)
RT_REGISTER_KERNEL(ARG_MIN, &PrepareArg, &EvalArg<false>)
RT_REGISTER_KERNEL(EQUAL, &PrepareCompare<true>, &EvalCompare<Cmp::kEq>)
RT_REGISTER_KERNEL(GREATER, &PrepareCompare<false>, &EvalCompare<Cmp::kGt>)
RT_REGISTER_KERNEL(GREATER_EQUAL, &PrepareCompare<false>, &EvalCompare<Cmp::kGe>)
RT_REGISTER_KERNEL(LESS, &PrepareCompare<false>, &EvalCompare<Cmp::kLt>)
RT_REGISTER_KERNEL(LESS_EQUAL, &PrepareCompare<false>, &EvalCompare<Cmp::kLe>)
RT_REGISTER_KERNEL(MAXIMUM, &PrepareMinMax, &EvalMinMax<true>)
RT_REGISTER_KERNEL(MINIMUM, &PrepareMinMax, &EvalMinMax<false>)
RT_REGISTER_KERNEL(NOT_EQUAL, &PrepareCompare<true>, &EvalCompare<Cmp::kNe>)

}  // namespace arenaplan::rt
