// STRIDED_SLICE for every fixed-size type (data is copied bytewise), bit-exact with TFLM: up to 5
// dims, constant begin/end/strides (int32), begin/end/shrink masks and the `offset` option. Like
// TFLM, ellipsis_mask and new_axis_mask are ignored (the output-shape check then rejects models
// that rely on them). All index arithmetic is done once in prepare (TFLM's StartForAxis /
// EndForAxis rules on the shape padded to 5D); eval is five nested loops, the innermost a memcpy
// when its stride is 1. O(output elements).
#include <cstring>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

constexpr int32_t kDims = 5;

struct SliceData {
  int32_t start[kDims];
  int32_t stop[kDims];
  int32_t stride[kDims];
  int64_t in_stride[kDims];  // element stride of the (5D-padded) input per axis
  uint32_t elem_size;
};

int64_t Clamp(int64_t v, int64_t lo, int64_t hi) { return v > hi ? hi : (v < lo ? lo : v); }

// Number of loop iterations of `for (i = start; stride > 0 ? i < stop : i > stop; i += stride)`.
int64_t Iterations(int32_t start, int32_t stop, int32_t stride) {
  const int64_t span = stride > 0 ? static_cast<int64_t>(stop) - start : static_cast<int64_t>(start) - stop;
  if (span <= 0) return 0;
  const int64_t step = stride > 0 ? stride : -static_cast<int64_t>(stride);
  return (span + step - 1) / step;
}

StatusCode ReadIndexTensor(KernelContext& ctx, uint32_t k, const char* what, int32_t n, const int32_t** out) {
  TensorView t;
  RT_RETURN_IF_ERROR(RequireInput(ctx, k, &t));
  RT_RETURN_IF_ERROR(RequireType(ctx, t, TensorType::INT32, what));
  if (t.data == nullptr) { return ctx.Fail(StatusCode::kUnsupported, "non-constant %s tensor is not supported", what); }
  if (ElementCount(t) != n) {
    return ctx.Fail(StatusCode::kInvalidModel, "%s has %d elements, input rank is %d", what,
                    static_cast<int>(ElementCount(t)), n);
  }
  *out = t.As<int32_t>();
  return StatusCode::kOk;
}

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 4, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireSameTypeIo(ctx, &in, &out));
  if (TypeSize(in.type) == 0) return ctx.Fail(StatusCode::kUnsupported, "type %s not supported", TypeName(in.type));
  if (in.rank < 1 || in.rank > kDims) {
    return ctx.Fail(StatusCode::kUnsupported, "input rank %d not supported (1..5)", in.rank);
  }
  const int32_t n = in.rank;
  const int32_t *begin = nullptr, *end = nullptr, *strides = nullptr;
  RT_RETURN_IF_ERROR(ReadIndexTensor(ctx, 1, "begin", n, &begin));
  RT_RETURN_IF_ERROR(ReadIndexTensor(ctx, 2, "end", n, &end));
  RT_RETURN_IF_ERROR(ReadIndexTensor(ctx, 3, "strides", n, &strides));
  const auto* opts = Options<tfl::StridedSliceOptions>(ctx);
  const uint32_t begin_mask = opts != nullptr ? static_cast<uint32_t>(opts->begin_mask()) : 0u;
  const uint32_t end_mask = opts != nullptr ? static_cast<uint32_t>(opts->end_mask()) : 0u;
  const uint32_t shrink_mask = opts != nullptr ? static_cast<uint32_t>(opts->shrink_axis_mask()) : 0u;
  const bool offset = opts != nullptr && opts->offset();

  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(SliceData), &mem));
  auto* d = static_cast<SliceData*>(mem);
  d->elem_size = TypeSize(in.type);
  const int32_t pad = kDims - n;
  int32_t shape[kDims];
  for (int32_t a = 0; a < kDims; ++a) shape[a] = a < pad ? 1 : in.dims[a - pad];
  int64_t s = 1;
  for (int32_t a = kDims - 1; a >= 0; --a) {
    d->in_stride[a] = s;
    s *= shape[a];
  }
  int32_t out_axis = 0;
  int64_t total = 1;
  for (int32_t a = 0; a < kDims; ++a) {
    if (a < pad) {  // padded leading axes take the whole (size 1) axis
      d->start[a] = 0;
      d->stop[a] = 1;
      d->stride[a] = 1;
      continue;
    }
    const int32_t axis = a - pad;
    const int32_t size = shape[a];
    const int32_t stride = strides[axis];
    if (stride == 0) return ctx.Fail(StatusCode::kInvalidModel, "stride of axis %d is zero", axis);
    const bool masked_begin = (begin_mask >> axis) & 1u;
    const bool masked_end = (end_mask >> axis) & 1u;
    const bool shrink = (shrink_mask >> axis) & 1u;
    // Start: negative counts from the back, clamp, then the mask overrides (TFLM order).
    int64_t start = begin[axis];
    if (start < 0) start += size;
    start = stride > 0 ? Clamp(start, 0, size) : Clamp(start, -1, size - 1);
    if (masked_begin) start = stride > 0 ? 0 : size - 1;
    int64_t stop;
    if (shrink) {
      stop = start >= size ? start : start + 1;
    } else {
      stop = end[axis];
      if (offset) stop += start;
      if (stop < 0) stop += size;
      stop = stride > 0 ? Clamp(stop, 0, size) : Clamp(stop, -1, size - 1);
      if (masked_end) stop = stride > 0 ? size : -1;
    }
    d->start[a] = static_cast<int32_t>(start);
    d->stop[a] = static_cast<int32_t>(stop);
    d->stride[a] = stride;
    const int64_t count = Iterations(d->start[a], d->stop[a], stride);
    total *= count;
    if (!shrink) {
      if (out_axis >= out.rank || out.dims[out_axis] != count) {
        return ctx.Fail(StatusCode::kInvalidModel, "output dim %d should be %d for input axis %d", out_axis,
                        static_cast<int>(count), axis);
      }
      ++out_axis;
    }
  }
  if (out_axis != out.rank) {
    return ctx.Fail(StatusCode::kInvalidModel, "output rank is %d, slice gives %d", out.rank, out_axis);
  }
  if (total * d->elem_size != out.bytes) {
    return ctx.Fail(StatusCode::kInvalidModel, "slice gives %d elements, output holds %u bytes",
                    static_cast<int>(total), out.bytes);
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

bool Continue(int64_t i, int32_t stop, int32_t stride) { return stride > 0 ? i < stop : i > stop; }

StatusCode Eval(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const auto* d = static_cast<const SliceData*>(ctx.op_data());
  const uint8_t* src = static_cast<const uint8_t*>(in.data);
  uint8_t* dst = static_cast<uint8_t*>(out.data);
  const uint32_t es = d->elem_size;
  const bool contiguous = d->stride[4] == 1;
  const int64_t run = contiguous ? static_cast<int64_t>(d->stop[4]) - d->start[4] : 0;
  for (int64_t i0 = d->start[0]; Continue(i0, d->stop[0], d->stride[0]); i0 += d->stride[0]) {
    for (int64_t i1 = d->start[1]; Continue(i1, d->stop[1], d->stride[1]); i1 += d->stride[1]) {
      for (int64_t i2 = d->start[2]; Continue(i2, d->stop[2], d->stride[2]); i2 += d->stride[2]) {
        for (int64_t i3 = d->start[3]; Continue(i3, d->stop[3], d->stride[3]); i3 += d->stride[3]) {
          const int64_t base = i0 * d->in_stride[0] + i1 * d->in_stride[1] + i2 * d->in_stride[2] +
                               i3 * d->in_stride[3];
          if (contiguous) {
            if (run > 0) {
              std::memcpy(dst, src + (base + d->start[4]) * es, static_cast<size_t>(run) * es);
              dst += run * es;
            }
            continue;
          }
          for (int64_t i4 = d->start[4]; Continue(i4, d->stop[4], d->stride[4]); i4 += d->stride[4]) {
            std::memcpy(dst, src + (base + i4) * es, es);
            dst += es;
          }
        }
      }
    }
  }
  return StatusCode::kOk;
}

const KernelRegistration kStridedSlice{"STRIDED_SLICE", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_STRIDED_SLICE() { return &kStridedSlice; }

}  // namespace arenaplan::rt
