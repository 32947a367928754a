// SELECT_V2: out = condition ? x : y elementwise, with NumPy broadcasting of all three (up to 5
// dims), as TFLM (select.cc, reference/select.h). The condition is bool; x, y and the output share
// a type: float32, int8 and int16 run, others pass Prepare and fail at eval (as on TFLM). Element
// bytes are copied, so the values are exact. O(output elements).
#include <cstring>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

constexpr int32_t kMaxDims = 5;

struct SelectData {
  int32_t dims[kMaxDims];
  int32_t stride[3][kMaxDims];  // condition, x, y: element stride per output dim (0 = broadcast)
};

// Strides of t against the output dims (right-aligned); false when t does not broadcast.
bool Strides(const TensorView& t, const int32_t* out_dims, int32_t* stride) {
  if (t.rank > kMaxDims) return false;
  int32_t s = 1;
  for (int32_t a = kMaxDims - 1; a >= 0; --a) {
    const int32_t i = a - (kMaxDims - t.rank);
    const int32_t d = i >= 0 ? t.dims[i] : 1;
    if (d != 1 && d != out_dims[a]) return false;
    stride[a] = d == 1 ? 0 : s;
    s *= d;
  }
  return true;
}

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 3, 1));
  TensorView cond, x, y, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &cond));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &x));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 2, &y));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  RT_RETURN_IF_ERROR(RequireType(ctx, cond, TensorType::BOOL, "condition"));
  if (x.type != y.type || out.type != x.type) {
    return ctx.Fail(StatusCode::kInvalidModel, "x (%s), y (%s) and output (%s) must share a type", TypeName(x.type),
                    TypeName(y.type), TypeName(out.type));
  }
  if (out.rank > kMaxDims) return ctx.Fail(StatusCode::kUnsupported, "output rank %d > %d", out.rank, kMaxDims);
  SelectData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  // One-element operands (TFLM's "mixed scalar" case) and equal shapes select elementwise.
  const bool scalars = ElementCount(cond) == 1 && ElementCount(x) == 1 && ElementCount(y) == 1 &&
                       ElementCount(out) == 1;
  for (int32_t a = 0; a < kMaxDims; ++a) {
    const int32_t i = a - (kMaxDims - out.rank);
    d->dims[a] = scalars ? 1 : (i >= 0 ? out.dims[i] : 1);
  }
  const TensorView* ops[3] = {&cond, &x, &y};
  for (int k = 0; k < 3; ++k) {
    if (scalars) {
      for (int32_t a = 0; a < kMaxDims; ++a) d->stride[k][a] = 0;
    } else if (!Strides(*ops[k], d->dims, d->stride[k])) {
      return ctx.Fail(StatusCode::kInvalidModel, "Given shapes are not broadcastable.");
    }
  }
  if (!scalars && (ops[0]->rank > out.rank || x.rank > out.rank || y.rank > out.rank)) {
    return ctx.Fail(StatusCode::kInvalidModel, "the output rank must be the largest input rank");
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode Eval(KernelContext& ctx) {
  TensorView cond, x, y, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &cond));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &x));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 2, &y));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (x.type != TensorType::FLOAT32 && x.type != TensorType::INT8 && x.type != TensorType::INT16) {
    return ctx.Fail(StatusCode::kUnsupported, "Does not support type other than int8|int16|float32, but got %s",
                    TypeName(x.type));
  }
  const auto& d = *static_cast<const SelectData*>(ctx.op_data());
  const uint32_t size = TypeSize(x.type);
  const uint8_t* c = cond.As<const uint8_t>();
  const auto* xs = static_cast<const uint8_t*>(x.data);
  const auto* ys = static_cast<const uint8_t*>(y.data);
  auto* dst = static_cast<uint8_t*>(out.data);
  int64_t total = 1;
  for (int32_t a = 0; a < kMaxDims; ++a) total *= d.dims[a];
  int32_t idx[kMaxDims] = {0, 0, 0, 0, 0};
  int64_t off[3] = {0, 0, 0};
  for (int64_t o = 0; o < total; ++o) {
    const uint8_t* src = c[off[0]] != 0 ? xs + off[1] * size : ys + off[2] * size;
    std::memcpy(dst + o * size, src, size);
    for (int32_t a = kMaxDims - 1; a >= 0; --a) {
      for (int k = 0; k < 3; ++k) off[k] += d.stride[k][a];
      if (++idx[a] < d.dims[a]) break;
      for (int k = 0; k < 3; ++k) off[k] -= static_cast<int64_t>(d.stride[k][a]) * d.dims[a];
      idx[a] = 0;
    }
  }
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_KERNEL(SELECT_V2, &Prepare, &Eval)

}  // namespace arenaplan::rt
