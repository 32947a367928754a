// TRANSPOSE for every fixed-size type, up to 6 dims (TFLM's limit); data is moved bytewise, so the
// result is exact. The permutation is an int32 tensor (read in eval, as TFLM, so it may also be
// computed at run time) and is validated before use. Output is visited in row-major order with an
// odometer over the permuted input strides: O(elements), no recursion, no scratch.
#include <cstring>

#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

constexpr int32_t kMaxDims = 6;

// Fills in_stride[k] = element stride of the input along output axis k. False on a bad perm.
bool PermutedStrides(const TensorView& in, const TensorView& perm, int64_t* in_stride) {
  if (perm.data == nullptr || ElementCount(perm) != in.rank) return false;
  int64_t stride[kMaxDims];
  int64_t s = 1;
  for (int32_t a = in.rank - 1; a >= 0; --a) {
    stride[a] = s;
    s *= in.dims[a];
  }
  bool seen[kMaxDims] = {false, false, false, false, false, false};
  for (int32_t k = 0; k < in.rank; ++k) {
    int32_t p = perm.As<int32_t>()[k];
    if (p < 0) p += in.rank;  // TFLM accepts negative axes
    if (p < 0 || p >= in.rank || seen[p]) return false;
    seen[p] = true;
    in_stride[k] = stride[p];
  }
  return true;
}

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView in, perm, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &perm));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (in.type != out.type) {
    return ctx.Fail(StatusCode::kInvalidModel, "input type %s differs from output type %s", TypeName(in.type),
                    TypeName(out.type));
  }
  if (TypeSize(in.type) == 0) return ctx.Fail(StatusCode::kUnsupported, "type %s not supported", TypeName(in.type));
  if (in.rank > kMaxDims || in.rank != out.rank) {
    return ctx.Fail(StatusCode::kUnsupported, "ranks %d -> %d not supported (equal, <= 6)", in.rank, out.rank);
  }
  RT_RETURN_IF_ERROR(RequireType(ctx, perm, TensorType::INT32, "perm"));
  if (ElementCount(perm) != in.rank) {
    return ctx.Fail(StatusCode::kInvalidModel, "perm has %d entries for rank %d", static_cast<int>(ElementCount(perm)),
                    in.rank);
  }
  if (perm.data != nullptr) {  // constant: check now, including the output shape
    int64_t st[kMaxDims];
    if (!PermutedStrides(in, perm, st)) return ctx.Fail(StatusCode::kInvalidModel, "perm is not a permutation");
    for (int32_t k = 0; k < in.rank; ++k) {
      int32_t p = perm.As<int32_t>()[k];
      if (p < 0) p += in.rank;
      if (out.dims[k] != in.dims[p]) {
        return ctx.Fail(StatusCode::kInvalidModel, "output dim %d is %d, input dim %d is %d", k, out.dims[k], p,
                        in.dims[p]);
      }
    }
  }
  if (in.bytes != out.bytes) return ctx.Fail(StatusCode::kInvalidModel, "input and output sizes differ");
  return StatusCode::kOk;
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, perm, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &perm));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  int64_t in_stride[kMaxDims];
  if (!PermutedStrides(in, perm, in_stride)) return ctx.Fail(StatusCode::kInvalidModel, "perm is not a permutation");
  const uint32_t es = TypeSize(in.type);
  const int64_t total = ElementCount(out);
  const uint8_t* src = static_cast<const uint8_t*>(in.data);
  uint8_t* dst = static_cast<uint8_t*>(out.data);
  int32_t idx[kMaxDims] = {0, 0, 0, 0, 0, 0};
  int64_t at = 0;
  const int32_t r = out.rank;
  for (int64_t o = 0; o < total; ++o) {
    std::memcpy(dst + o * es, src + at * es, es);
    for (int32_t k = r - 1; k >= 0; --k) {
      at += in_stride[k];
      if (++idx[k] < out.dims[k]) break;
      at -= in_stride[k] * out.dims[k];
      idx[k] = 0;
    }
  }
  return StatusCode::kOk;
}

const KernelRegistration kTranspose{"TRANSPOSE", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_TRANSPOSE() { return &kTranspose; }

}  // namespace arenaplan::rt
