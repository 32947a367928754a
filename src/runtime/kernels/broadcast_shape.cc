// BROADCAST_ARGS and BROADCAST_TO, as TFLM (broadcast_args.cc, broadcast_to.cc):
//   BROADCAST_ARGS: two 1-D int32 / int64 shapes -> the broadcast shape, right-aligned, a 1 takes
//     the other's extent (values pass through int, as the reference does); unequal extents other
//     than 1 are an eval error (TFLM aborts there);
//   BROADCAST_TO: any fixed-size type, rank <= 5; the shape input must be constant and equal the
//     output shape; each output element copies the input element its index broadcasts from.
// O(output elements).
#include <cstring>

#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

int64_t ShapeValue(const TensorView& t, int32_t i) {
  return t.type == TensorType::INT64 ? LoadUnaligned<int64_t>(t.data, i) : LoadUnaligned<int32_t>(t.data, i);
}

StatusCode PrepareArgs(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &a));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &b));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (a.type != TensorType::INT32 && a.type != TensorType::INT64) {
    return ctx.Fail(StatusCode::kUnsupported, "shape type %s not supported (int32, int64)", TypeName(a.type));
  }
  if (b.type != a.type || out.type != a.type) {
    return ctx.Fail(StatusCode::kInvalidModel, "shapes and output must share one type");
  }
  if (a.rank != 1 || b.rank != 1 || out.rank != 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "shapes and output must be 1-D");
  }
  return StatusCode::kOk;
}

StatusCode EvalArgs(KernelContext& ctx) {
  TensorView a, b, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &a));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &b));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const int32_t n = out.dims[0], na = a.dims[0], nb = b.dims[0];
  for (int32_t i = 0; i < n; ++i) {  // i counts from the back
    const int32_t x = i < na ? static_cast<int32_t>(ShapeValue(a, na - 1 - i)) : 1;
    const int32_t y = i < nb ? static_cast<int32_t>(ShapeValue(b, nb - 1 - i)) : 1;
    if (x != 1 && y != 1 && x != y) {
      return ctx.Fail(StatusCode::kKernelError, "shapes do not broadcast: %d vs %d", x, y);
    }
    const int32_t v = x == 1 ? y : x;
    if (out.type == TensorType::INT64) {
      out.As<int64_t>()[n - 1 - i] = v;
    } else {
      out.As<int32_t>()[n - 1 - i] = v;
    }
  }
  return StatusCode::kOk;
}

constexpr int32_t kMaxDims = 5;

struct BroadcastToData {
  int32_t out_dims[kMaxDims];
  int32_t in_stride[kMaxDims];  // element stride of the input per output dim, 0 where broadcast
  uint32_t elem_size;
};

StatusCode PrepareTo(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView in, shape, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &shape));
  RT_RETURN_IF_ERROR(RequireSameTypeIo(ctx, &in, &out));
  if (in.rank > kMaxDims || out.rank > kMaxDims) {
    return ctx.Fail(StatusCode::kUnsupported, "BroadcastTo only supports 1-5D tensor");
  }
  if (shape.type != TensorType::INT32 && shape.type != TensorType::INT64) {
    return ctx.Fail(StatusCode::kUnsupported, "shape type %s not supported (int32, int64)", TypeName(shape.type));
  }
  if (shape.data == nullptr) return ctx.Fail(StatusCode::kUnsupported, "Non-constant >shape< tensor is not supported");
  if (TypeSize(in.type) == 0) return ctx.Fail(StatusCode::kUnsupported, "type %s not supported", TypeName(in.type));
  if (shape.rank != 1 || shape.dims[0] != out.rank || in.rank > out.rank) {
    return ctx.Fail(StatusCode::kInvalidModel, "Output shape must be broadcastable from input shape");
  }
  BroadcastToData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  d->elem_size = TypeSize(in.type);
  const int32_t lead = kMaxDims - out.rank, extend = out.rank - in.rank;
  int32_t stride = 1;
  for (int32_t a = kMaxDims - 1; a >= 0; --a) {
    const int32_t o = a - lead;  // output axis
    const int32_t i = o - extend;
    d->out_dims[a] = o >= 0 ? out.dims[o] : 1;
    if (o >= 0 && ShapeValue(shape, o) != out.dims[o]) {
      return ctx.Fail(StatusCode::kInvalidModel, "shape value %d differs from output dim %d",
                      static_cast<int32_t>(ShapeValue(shape, o)), o);
    }
    const int32_t in_dim = i >= 0 ? in.dims[i] : 1;
    if (in_dim != 1 && in_dim != d->out_dims[a]) {
      return ctx.Fail(StatusCode::kInvalidModel, "Output shape must be broadcastable from input shape");
    }
    d->in_stride[a] = in_dim == 1 ? 0 : stride;
    stride *= in_dim;
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode EvalTo(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  const auto& d = *static_cast<const BroadcastToData*>(ctx.op_data());
  const auto* src = static_cast<const uint8_t*>(in.data);
  auto* dst = static_cast<uint8_t*>(out.data);
  const int64_t total = ElementCount(out);
  int32_t idx[kMaxDims] = {0, 0, 0, 0, 0};
  int64_t off = 0;
  for (int64_t o = 0; o < total; ++o) {
    std::memcpy(dst + static_cast<size_t>(o) * d.elem_size, src + static_cast<size_t>(off) * d.elem_size, d.elem_size);
    for (int32_t a = kMaxDims - 1; a >= 0; --a) {
      off += d.in_stride[a];
      if (++idx[a] < d.out_dims[a]) break;
      off -= static_cast<int64_t>(d.in_stride[a]) * d.out_dims[a];
      idx[a] = 0;
    }
  }
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_KERNEL(BROADCAST_ARGS, &PrepareArgs, &EvalArgs)
RT_REGISTER_KERNEL(BROADCAST_TO, &PrepareTo, &EvalTo)

}  // namespace arenaplan::rt
