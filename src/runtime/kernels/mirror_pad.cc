// MIRROR_PAD (REFLECT or SYMMETRIC), as TFLM (mirror_pad.cc): every output element copies the
// input element its index mirrors to, dim by dim; REFLECT does not repeat the edge (offset 1),
// SYMMETRIC does (offset 0). Paddings (int32 / int64, [rank, 2]) are read at eval. float32 and
// int8 run; other types pass Prepare and fail at eval, as on TFLM. Like TFLM it asks for two
// int[rank] scratch buffers (the per-dim strides). O(output elements x rank).
#include <cstdint>

#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

struct MirrorPadData {
  int32_t offset;  // 1 = REFLECT, 0 = SYMMETRIC
  int32_t out_strides_scratch, in_strides_scratch;
};

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView in, paddings, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &paddings));
  RT_RETURN_IF_ERROR(RequireSameTypeIo(ctx, &in, &out));
  if (paddings.rank != 2 || paddings.dims[0] != in.rank || paddings.dims[1] != 2) {
    return ctx.Fail(StatusCode::kInvalidModel, "paddings must be [%d, 2]", in.rank);
  }
  if (paddings.type != TensorType::INT32 && paddings.type != TensorType::INT64) {
    return ctx.Fail(StatusCode::kUnsupported, "paddings type %s not supported (int32, int64)", TypeName(paddings.type));
  }
  if (out.rank != in.rank || in.rank < 1)
    return ctx.Fail(StatusCode::kInvalidModel, "output rank must equal input rank");
  const auto* o = Options<tfl::MirrorPadOptions>(ctx);
  if (o == nullptr) return ctx.Fail(StatusCode::kInvalidModel, "MirrorPadOptions missing");
  MirrorPadData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  d->offset = o->mode() == tfl::MirrorPadMode::REFLECT ? 1 : 0;
  const uint32_t bytes = static_cast<uint32_t>(in.rank) * 4u;
  RT_RETURN_IF_ERROR(ctx.RequestScratch(bytes, &d->out_strides_scratch));
  RT_RETURN_IF_ERROR(ctx.RequestScratch(bytes, &d->in_strides_scratch));
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

// TFLM GetInputDimension: the input index a padded index mirrors to.
int64_t InputIndex(int64_t padded, int64_t left, int64_t in_size, int64_t offset) {
  if (padded < left) {
    const int64_t original = left + offset - 1;
    const int64_t limit = original - offset;
    return original - (padded < limit ? padded : limit);
  }
  padded -= left;
  if (padded >= in_size) {
    padded -= in_size;
    const int64_t original = in_size - (1 + offset);
    return original - (padded < original ? padded : original);
  }
  return padded;
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, paddings, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &paddings));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (out.type != TensorType::FLOAT32 && out.type != TensorType::INT8) {
    return ctx.Fail(StatusCode::kUnsupported, "type %s not supported (FLOAT32, INT8)", TypeName(out.type));
  }
  const auto& d = *static_cast<const MirrorPadData*>(ctx.op_data());
  auto* out_strides = static_cast<int32_t*>(ctx.GetScratch(d.out_strides_scratch));
  auto* in_strides = static_cast<int32_t*>(ctx.GetScratch(d.in_strides_scratch));
  if (out_strides == nullptr || in_strides == nullptr)
    return ctx.Fail(StatusCode::kKernelError, "scratch buffers missing");
  const int32_t rank = in.rank;
  out_strides[rank - 1] = in_strides[rank - 1] = 1;
  for (int32_t i = rank - 2; i >= 0; --i) {
    out_strides[i] = out_strides[i + 1] * out.dims[i + 1];
    in_strides[i] = in_strides[i + 1] * in.dims[i + 1];
  }
  const int64_t n = ElementCount(out);
  const uint32_t size = TypeSize(out.type);
  const auto* src = static_cast<const uint8_t*>(in.data);
  auto* dst = static_cast<uint8_t*>(out.data);
  for (int64_t o = 0; o < n; ++o) {
    int64_t index = o, flat = 0;
    for (int32_t i = 0; i < rank; ++i) {
      const int64_t left = paddings.type == TensorType::INT64 ? LoadUnaligned<int64_t>(paddings.data, 2 * i)
                                                              : LoadUnaligned<int32_t>(paddings.data, 2 * i);
      flat += InputIndex(index / out_strides[i], static_cast<int32_t>(left), in.dims[i], d.offset) * in_strides[i];
      index %= out_strides[i];
    }
    if (flat < 0 || flat >= ElementCount(in)) return ctx.Fail(StatusCode::kKernelError, "paddings exceed the input");
    for (uint32_t b = 0; b < size; ++b) dst[o * size + b] = src[flat * size + b];
  }
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_KERNEL(MIRROR_PAD, &Prepare, &Eval)

}  // namespace arenaplan::rt
