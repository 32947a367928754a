// SLICE (ranks 1-5), as TFLM (slice.cc, reference/slice.h): output = input[begin : begin + size]
// per dim, size -1 meaning "to the end". begin and size are int32 or int64 (both read with
// begin's type, as TFLM does) and read at eval; a window outside the input, or one whose element
// count differs from the output's, fails the Invoke (TFLM would read out of bounds). float32,
// int32, int8, int16 and bool run; other types pass Prepare and fail at eval. O(output elements).
#include <cstring>

#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

constexpr int32_t kMaxDims = 5;

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 3, 1));
  TensorView in, begin, size, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &begin));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 2, &size));
  RT_RETURN_IF_ERROR(RequireSameTypeIo(ctx, &in, &out));
  for (const TensorView* t : {&begin, &size}) {
    if (t->type != TensorType::INT32 && t->type != TensorType::INT64) {
      return ctx.Fail(StatusCode::kUnsupported, "begin / size type %s not supported (int32, int64)", TypeName(t->type));
    }
  }
  if (begin.rank != 1 || size.rank != 1 || begin.dims[0] != size.dims[0]) {
    return ctx.Fail(StatusCode::kInvalidModel, "begin and size must be 1-D with equal lengths");
  }
  if (in.rank > kMaxDims) return ctx.Fail(StatusCode::kUnsupported, "Slice op only supports 1D-5D input arrays.");
  if (begin.dims[0] != in.rank)
    return ctx.Fail(StatusCode::kInvalidModel, "begin must hold one value per input dim (%d)", in.rank);
  return StatusCode::kOk;
}

int64_t Value(const TensorView& t, TensorType type, int32_t i) {
  return type == TensorType::INT64 ? LoadUnaligned<int64_t>(t.data, i) : LoadUnaligned<int32_t>(t.data, i);
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, begin, size, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &begin));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 2, &size));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const TensorType t = in.type;
  if (t != TensorType::FLOAT32 && t != TensorType::INT32 && t != TensorType::INT8 && t != TensorType::INT16 &&
      t != TensorType::BOOL) {
    return ctx.Fail(StatusCode::kUnsupported, "Input tensor type %s not supported.", TypeName(t));
  }
  int32_t dims[kMaxDims], start[kMaxDims], stop[kMaxDims];
  int64_t count = 1;
  for (int32_t a = 0; a < kMaxDims; ++a) {
    const int32_t i = a - (kMaxDims - in.rank);
    dims[a] = i >= 0 ? in.dims[i] : 1;
    const int64_t b = i >= 0 ? static_cast<int32_t>(Value(begin, begin.type, i)) : 0;
    const int64_t s = i >= 0 ? static_cast<int32_t>(Value(size, begin.type, i)) : 1;
    const int64_t e = s == -1 ? dims[a] : b + s;
    if (b < 0 || e < b || e > dims[a]) {
      return ctx.Fail(StatusCode::kKernelError, "slice [%d, %d) is outside dim %d of size %d", static_cast<int32_t>(b),
                      static_cast<int32_t>(e), i, dims[a]);
    }
    start[a] = static_cast<int32_t>(b);
    stop[a] = static_cast<int32_t>(e);
    count *= e - b;
  }
  if (count != ElementCount(out)) {
    return ctx.Fail(StatusCode::kKernelError, "slice has %d elements, the output %d", static_cast<int32_t>(count),
                    static_cast<int32_t>(ElementCount(out)));
  }
  if (count == 0) return StatusCode::kOk;
  // Copy runs along the last dim.
  const uint32_t esize = TypeSize(t);
  const size_t run = static_cast<size_t>(stop[4] - start[4]) * esize;
  const auto* src = static_cast<const uint8_t*>(in.data);
  auto* dst = static_cast<uint8_t*>(out.data);
  for (int32_t i0 = start[0]; i0 < stop[0]; ++i0) {
    for (int32_t i1 = start[1]; i1 < stop[1]; ++i1) {
      for (int32_t i2 = start[2]; i2 < stop[2]; ++i2) {
        for (int32_t i3 = start[3]; i3 < stop[3]; ++i3) {
          const size_t off = ((((static_cast<size_t>(i0) * dims[1] + i1) * dims[2] + i2) * dims[3] + i3) * dims[4] +
                              start[4]);
          std::memcpy(dst, src + off * esize, run);
          dst += run;
        }
      }
    }
  }
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_KERNEL(SLICE, &Prepare, &Eval)

}  // namespace arenaplan::rt
