// Comparisons (EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL -> bool), MINIMUM /
// MAXIMUM, and ARG_MAX / ARG_MIN, exact with TFLM's reference kernels:
//   * comparisons broadcast (up to 6D); int8/uint8 inputs are first brought to a common scale the
//     TFLM way: ((x - zp) << 8) * QuantizeMultiplierSmallerThanOneExp(scale), so inputs with
//     different quantization compare by real value;
//   * MINIMUM/MAXIMUM broadcast and do not requantize (el1 < el2 ? el1 : el2);
//   * ARG_MAX/ARG_MIN keep the first extreme index (strict comparison) along a constant axis.
// O(output elements) (ARG_*: O(input elements)).
#include "runtime/kernels/binary_util.h"
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

Status PrepareCompareImpl(KernelContext& ctx, bool equality) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(GetBinaryTensors(ctx, &a, &b, &out));
  if (a.type != b.type) {
    return ctx.Fail(Status::kInvalidModel, "input types %s and %s differ", TypeName(a.type), TypeName(b.type));
  }
  RT_RETURN_IF_ERROR(RequireType(ctx, out, TensorType::BOOL, "output"));
  const TensorType t = a.type;
  const bool ok = t == TensorType::FLOAT32 || t == TensorType::INT32 || t == TensorType::INT64 ||
                  t == TensorType::INT8 || t == TensorType::UINT8 || t == TensorType::INT16 ||
                  (equality && t == TensorType::BOOL);
  if (!ok) return ctx.Fail(Status::kUnsupported, "type %s not supported", TypeName(t));
  CompareData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  RT_RETURN_IF_ERROR(PrepareBroadcast(ctx, a, b, out, &d->bc));
  if (t == TensorType::INT8 || t == TensorType::UINT8) {
    // TFLM requires multipliers in (0, 1) here (a larger one would shift by a negative amount).
    if (!(a.scale > 0.0f && a.scale < 1.0f && b.scale > 0.0f && b.scale < 1.0f)) {
      return ctx.Fail(Status::kUnsupported, "quantized comparison needs input scales in (0, 1)");
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
  return Status::kOk;
}

Status PrepareEquality(KernelContext& ctx) { return PrepareCompareImpl(ctx, true); }
Status PrepareOrder(KernelContext& ctx) { return PrepareCompareImpl(ctx, false); }

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

Status EvalCompare(KernelContext& ctx, Cmp c) {
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
  return Status::kOk;
}

Status EvalEqual(KernelContext& ctx) { return EvalCompare(ctx, Cmp::kEq); }
Status EvalNotEqual(KernelContext& ctx) { return EvalCompare(ctx, Cmp::kNe); }
Status EvalLess(KernelContext& ctx) { return EvalCompare(ctx, Cmp::kLt); }
Status EvalLessEqual(KernelContext& ctx) { return EvalCompare(ctx, Cmp::kLe); }
Status EvalGreater(KernelContext& ctx) { return EvalCompare(ctx, Cmp::kGt); }
Status EvalGreaterEqual(KernelContext& ctx) { return EvalCompare(ctx, Cmp::kGe); }

// ---- MINIMUM / MAXIMUM ------------------------------------------------------------------------
Status PrepareMinMax(KernelContext& ctx) {
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(PrepareSameTypeBinary(ctx, &a, &b, &out));
  const TensorType t = out.type;
  if (t != TensorType::FLOAT32 && t != TensorType::INT8 && t != TensorType::INT16 && t != TensorType::INT32 &&
      t != TensorType::INT64) {
    return ctx.Fail(Status::kUnsupported, "type %s not supported", TypeName(t));
  }
  Broadcast* bc = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &bc));
  RT_RETURN_IF_ERROR(PrepareBroadcast(ctx, a, b, out, bc));
  ctx.set_op_data(bc);
  return Status::kOk;
}

template <typename T>
void MinMax(const Broadcast& bc, bool is_max, const T* x, const T* y, T* z) {
  if (is_max) {
    ForEachBroadcast(bc, [&](int32_t o, int32_t i, int32_t j) { z[o] = x[i] > y[j] ? x[i] : y[j]; });
  } else {
    ForEachBroadcast(bc, [&](int32_t o, int32_t i, int32_t j) { z[o] = x[i] < y[j] ? x[i] : y[j]; });
  }
}

Status EvalMinMax(KernelContext& ctx, bool is_max) {
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
  return Status::kOk;
}

Status EvalMaximum(KernelContext& ctx) { return EvalMinMax(ctx, true); }
Status EvalMinimum(KernelContext& ctx) { return EvalMinMax(ctx, false); }

// ---- ARG_MAX / ARG_MIN -------------------------------------------------------------------------
struct ArgData {
  int64_t outer, inner;
  int32_t axis_size;
};

Status PrepareArg(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView in, axis_t, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &axis_t));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const TensorType t = in.type;
  if (t != TensorType::FLOAT32 && t != TensorType::INT8 && t != TensorType::UINT8 && t != TensorType::INT16 &&
      t != TensorType::INT32) {
    return ctx.Fail(Status::kUnsupported, "input type %s not supported", TypeName(t));
  }
  if (out.type != TensorType::INT32 && out.type != TensorType::INT64) {
    return ctx.Fail(Status::kUnsupported, "output type %s not supported", TypeName(out.type));
  }
  if (axis_t.data == nullptr) return ctx.Fail(Status::kUnsupported, "non-constant axis tensor is not supported");
  if (ElementCount(axis_t) != 1 || (axis_t.type != TensorType::INT32 && axis_t.type != TensorType::INT64)) {
    return ctx.Fail(Status::kInvalidModel, "axis must be one int32/int64 value");
  }
  int64_t axis = axis_t.type == TensorType::INT32 ? axis_t.As<int32_t>()[0] : axis_t.As<int64_t>()[0];
  if (axis < 0) axis += in.rank;
  if (axis < 0 || axis >= in.rank) return ctx.Fail(Status::kInvalidModel, "axis out of range for rank %d", in.rank);
  if (in.dims[axis] < 1) return ctx.Fail(Status::kInvalidModel, "reduced axis is empty");
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(ArgData), &mem));
  auto* d = static_cast<ArgData*>(mem);
  d->outer = 1;
  d->inner = 1;
  for (int32_t a = 0; a < axis; ++a) d->outer *= in.dims[a];
  for (int32_t a = static_cast<int32_t>(axis) + 1; a < in.rank; ++a) d->inner *= in.dims[a];
  d->axis_size = in.dims[axis];
  if (ElementCount(out) != d->outer * d->inner) {
    return ctx.Fail(Status::kInvalidModel, "output has %d elements, expected %d", static_cast<int>(ElementCount(out)),
                    static_cast<int>(d->outer * d->inner));
  }
  ctx.set_op_data(d);
  return Status::kOk;
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

Status EvalArg(KernelContext& ctx, bool is_max) {
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
  return Status::kOk;
}

Status EvalArgMax(KernelContext& ctx) { return EvalArg(ctx, true); }
Status EvalArgMin(KernelContext& ctx) { return EvalArg(ctx, false); }

const KernelRegistration kEqual{"EQUAL", &PrepareEquality, &EvalEqual};
const KernelRegistration kNotEqual{"NOT_EQUAL", &PrepareEquality, &EvalNotEqual};
const KernelRegistration kLess{"LESS", &PrepareOrder, &EvalLess};
const KernelRegistration kLessEqual{"LESS_EQUAL", &PrepareOrder, &EvalLessEqual};
const KernelRegistration kGreater{"GREATER", &PrepareOrder, &EvalGreater};
const KernelRegistration kGreaterEqual{"GREATER_EQUAL", &PrepareOrder, &EvalGreaterEqual};
const KernelRegistration kMaximum{"MAXIMUM", &PrepareMinMax, &EvalMaximum};
const KernelRegistration kMinimum{"MINIMUM", &PrepareMinMax, &EvalMinimum};
const KernelRegistration kArgMax{"ARG_MAX", &PrepareArg, &EvalArgMax};
const KernelRegistration kArgMin{"ARG_MIN", &PrepareArg, &EvalArgMin};

}  // namespace

const KernelRegistration* Register_ARG_MAX() { return &kArgMax; }
const KernelRegistration* Register_ARG_MIN() { return &kArgMin; }
const KernelRegistration* Register_EQUAL() { return &kEqual; }
const KernelRegistration* Register_GREATER() { return &kGreater; }
const KernelRegistration* Register_GREATER_EQUAL() { return &kGreaterEqual; }
const KernelRegistration* Register_LESS() { return &kLess; }
const KernelRegistration* Register_LESS_EQUAL() { return &kLessEqual; }
const KernelRegistration* Register_MAXIMUM() { return &kMaximum; }
const KernelRegistration* Register_MINIMUM() { return &kMinimum; }
const KernelRegistration* Register_NOT_EQUAL() { return &kNotEqual; }

}  // namespace arenaplan::rt
