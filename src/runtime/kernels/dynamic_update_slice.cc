// DYNAMIC_UPDATE_SLICE: the operand with `update` written at `start_indices` (int32 or int64, one
// per dim, read at eval and clamped to [0, operand dim - update dim]), as TFLM
// (dynamic_update_slice.cc): float32 / int8 / int16 / int32 run, other types pass Prepare and fail
// at eval; an update as large as the operand replaces it whole. Ranks up to 6 (TFLM's
// RuntimeShape small size); a scalar operand is replaced by the scalar update. O(operand elements).
#include <cstring>

#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

constexpr int32_t kMaxDims = 6;

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 3, 1));
  TensorView operand, update, indices, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &update));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 2, &indices));
  RT_RETURN_IF_ERROR(RequireSameTypeIo(ctx, &operand, &out));
  if (update.type != operand.type) {
    return ctx.Fail(StatusCode::kInvalidModel, "update type %s differs from operand type %s", TypeName(update.type),
                    TypeName(operand.type));
  }
  if (indices.type != TensorType::INT32 && indices.type != TensorType::INT64) {
    return ctx.Fail(StatusCode::kUnsupported, "start indices type %s not supported (int32, int64)",
                    TypeName(indices.type));
  }
  if (indices.rank != 1 || indices.dims[0] != operand.rank) {
    return ctx.Fail(StatusCode::kInvalidModel, "start indices must be 1-D with one value per operand dim (%d)",
                    operand.rank);
  }
  if (update.rank != operand.rank || operand.rank > kMaxDims) {
    return ctx.Fail(StatusCode::kInvalidModel, "update rank %d must equal operand rank %d (at most %d)", update.rank,
                    operand.rank, kMaxDims);
  }
  for (int32_t i = 0; i < operand.rank; ++i) {
    if (update.dims[i] > operand.dims[i]) {
      return ctx.Fail(StatusCode::kInvalidModel, "update dim %d (%d) exceeds the operand's (%d)", i, update.dims[i],
                      operand.dims[i]);
    }
  }
  RT_RETURN_IF_ERROR(RequireSameShape(ctx, operand, out, "operand and output"));
  return StatusCode::kOk;
}

StatusCode Eval(KernelContext& ctx) {
  TensorView operand, update, indices, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &operand));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &update));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 2, &indices));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const TensorType t = operand.type;
  if (t != TensorType::FLOAT32 && t != TensorType::INT8 && t != TensorType::INT16 && t != TensorType::INT32) {
    return ctx.Fail(StatusCode::kUnsupported, "DYNAMIC_UPDATE_SLICE: Operand type %s not supported.", TypeName(t));
  }
  const size_t size = TypeSize(t);
  auto* dst = static_cast<uint8_t*>(out.data);
  const int64_t n_operand = ElementCount(operand), n_update = ElementCount(update);
  if (n_operand == n_update) {
    std::memcpy(dst, update.data, static_cast<size_t>(n_update) * size);
    return StatusCode::kOk;
  }
  if (operand.data != out.data) std::memcpy(dst, operand.data, static_cast<size_t>(n_operand) * size);
  if (n_update == 0) return StatusCode::kOk;
  const int32_t rank = operand.rank;
  int64_t start[kMaxDims], out_stride[kMaxDims];
  for (int32_t i = 0; i < rank; ++i) {
    const int64_t raw = indices.type == TensorType::INT64 ? LoadUnaligned<int64_t>(indices.data, i)
                                                          : LoadUnaligned<int32_t>(indices.data, i);
    const int64_t hi = static_cast<int64_t>(operand.dims[i]) - update.dims[i];
    start[i] = raw < 0 ? 0 : (raw > hi ? hi : raw);
  }
  out_stride[rank - 1] = 1;
  for (int32_t i = rank - 2; i >= 0; --i) out_stride[i] = out_stride[i + 1] * operand.dims[i + 1];
  // Copy the update row by row (rows of its last dim), walking its outer index in row-major order.
  const int64_t row = update.dims[rank - 1];
  const int64_t rows = n_update / row;
  int32_t idx[kMaxDims] = {0, 0, 0, 0, 0, 0};
  const auto* src = static_cast<const uint8_t*>(update.data);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t off = start[rank - 1];
    for (int32_t i = 0; i + 1 < rank; ++i) off += (start[i] + idx[i]) * out_stride[i];
    std::memcpy(dst + static_cast<size_t>(off) * size, src + static_cast<size_t>(r * row) * size,
                static_cast<size_t>(row) * size);
    for (int32_t i = rank - 2; i >= 0; --i) {
      if (++idx[i] < update.dims[i]) break;
      idx[i] = 0;
    }
  }
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_KERNEL(DYNAMIC_UPDATE_SLICE, &Prepare, &Eval)

}  // namespace arenaplan::rt
