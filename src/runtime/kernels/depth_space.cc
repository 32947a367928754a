// DEPTH_TO_SPACE and SPACE_TO_DEPTH (NHWC, float32 / int8), as TFLM (depth_to_space.cc,
// space_to_depth.cc, reference/depth_to_space.h, space_to_depth.h): with block size b,
//   DEPTH_TO_SPACE: out[n, h, w, c] = in[n, h / b, w / b, c + ((h % b) * b + w % b) * C_out];
//   SPACE_TO_DEPTH: out[n, h / b, w / b, c + ((h % b) * b + w % b) * C_in] = in[n, h, w, c].
// TFLM rewrites the output dims in Prepare; here the model's output shape must already be that
// shape. Pure data movement, O(elements).
#include <cstring>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

// Checks shared by both ops; *block from the options, *expect the output shape TFLM computes.
template <typename Opts>
StatusCode PrepareBlock(KernelContext& ctx, bool to_space) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireSameTypeIo(ctx, &in, &out));
  if (in.rank != 4) return ctx.Fail(StatusCode::kInvalidModel, "input must be 4-D, has rank %d", in.rank);
  if (out.type != TensorType::FLOAT32 && out.type != TensorType::INT8) {
    return ctx.Fail(StatusCode::kUnsupported, "type %s not supported (FLOAT32, INT8)", TypeName(out.type));
  }
  const auto* o = Options<Opts>(ctx);
  const int32_t b = o != nullptr ? o->block_size() : 0;
  if (b <= 0) return ctx.Fail(StatusCode::kInvalidModel, "block_size %d must be positive", b);
  int32_t expect[4];
  if (to_space) {
    if (in.dims[3] % (b * b) != 0)
      return ctx.Fail(StatusCode::kInvalidModel, "depth %d is not a multiple of %d", in.dims[3], b * b);
    expect[0] = in.dims[0], expect[1] = in.dims[1] * b, expect[2] = in.dims[2] * b, expect[3] = in.dims[3] / b / b;
  } else {
    if (in.dims[1] % b != 0 || in.dims[2] % b != 0) {
      return ctx.Fail(StatusCode::kInvalidModel, "height %d / width %d are not multiples of %d", in.dims[1], in.dims[2],
                      b);
    }
    expect[0] = in.dims[0], expect[1] = in.dims[1] / b, expect[2] = in.dims[2] / b, expect[3] = in.dims[3] * b * b;
  }
  if (out.rank != 4 || std::memcmp(out.dims, expect, sizeof(expect)) != 0) {
    return ctx.Fail(StatusCode::kInvalidModel, "output shape must be [%d, %d, %d, %d]", expect[0], expect[1], expect[2],
                    expect[3]);
  }
  return SetOpData(ctx, b);
}

StatusCode PrepareDepthToSpace(KernelContext& ctx) { return PrepareBlock<tfl::DepthToSpaceOptions>(ctx, true); }
StatusCode PrepareSpaceToDepth(KernelContext& ctx) { return PrepareBlock<tfl::SpaceToDepthOptions>(ctx, false); }

// Walks the space-side tensor (the output of DEPTH_TO_SPACE, the input of SPACE_TO_DEPTH) in
// row-major order and pairs each element with its depth-side element.
StatusCode Move(KernelContext& ctx, bool to_space) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  const int32_t b = *static_cast<const int32_t*>(ctx.op_data());
  const TensorView& space = to_space ? out : in;
  const TensorView& depth = to_space ? in : out;
  const uint32_t size = TypeSize(in.type);
  const auto* src = static_cast<const uint8_t*>(in.data);
  auto* dst = static_cast<uint8_t*>(out.data);
  const int32_t* s = space.dims;
  const int32_t* dd = depth.dims;
  size_t space_index = 0;
  for (int32_t n = 0; n < s[0]; ++n) {
    for (int32_t h = 0; h < s[1]; ++h) {
      for (int32_t w = 0; w < s[2]; ++w) {
        for (int32_t c = 0; c < s[3]; ++c, ++space_index) {
          const int32_t dc = c + ((h % b) * b + w % b) * s[3];
          const size_t depth_index = ((static_cast<size_t>(n) * dd[1] + h / b) * dd[2] + w / b) * dd[3] + dc;
          if (to_space) {
            std::memcpy(dst + space_index * size, src + depth_index * size, size);
          } else {
            std::memcpy(dst + depth_index * size, src + space_index * size, size);
          }
        }
      }
    }
  }
  return StatusCode::kOk;
}

StatusCode EvalDepthToSpace(KernelContext& ctx) { return Move(ctx, true); }
StatusCode EvalSpaceToDepth(KernelContext& ctx) { return Move(ctx, false); }

}  // namespace

RT_REGISTER_KERNEL(DEPTH_TO_SPACE, &PrepareDepthToSpace, &EvalDepthToSpace)
RT_REGISTER_KERNEL(SPACE_TO_DEPTH, &PrepareSpaceToDepth, &EvalSpaceToDepth)

}  // namespace arenaplan::rt
