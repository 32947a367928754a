// EMBEDDING_LOOKUP, as TFLM (embedding_lookup.cc): output row i is row ids[i] of the table (its
// first dim indexes rows, the rest is flattened into columns), copied as bytes (float32 table, or
// int8 table into an int8 output), or dequantized with the table's scale (int8 table into a
// float32 output; zero point 0). ids are int32 and read at eval: one out of range fails the
// Invoke. TFLM rewrites the output's leading dims to [ids, table dims 1..]; here the model's
// output must already start with them. O(ids x columns).
#include <cstring>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

struct LookupData {
  float scale;
  int32_t columns;
};

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView ids, table, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &ids));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &table));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (ids.rank != 1) return ctx.Fail(StatusCode::kInvalidModel, "ids must be 1-D, have rank %d", ids.rank);
  RT_RETURN_IF_ERROR(RequireType(ctx, ids, TensorType::INT32, "ids"));
  if (table.rank < 2) return ctx.Fail(StatusCode::kInvalidModel, "table must have rank >= 2, has %d", table.rank);
  const bool hybrid = table.type == TensorType::INT8 && out.type == TensorType::FLOAT32;
  const bool plain = (table.type == TensorType::FLOAT32 || table.type == TensorType::INT8) && out.type == table.type;
  if (!hybrid && !plain) {
    return ctx.Fail(StatusCode::kUnsupported, "table %s with output %s not supported", TypeName(table.type),
                    TypeName(out.type));
  }
  if (out.rank < table.rank || out.dims[0] != ids.dims[0]) {
    return ctx.Fail(StatusCode::kInvalidModel, "output must have rank >= %d and %d rows", table.rank, ids.dims[0]);
  }
  for (int32_t i = 1; i < table.rank; ++i) {
    if (out.dims[i] != table.dims[i]) {
      return ctx.Fail(StatusCode::kInvalidModel, "output dim %d is %d, the table's is %d", i, out.dims[i],
                      table.dims[i]);
    }
  }
  if (hybrid && table.zero_point != 0) return ctx.Fail(StatusCode::kInvalidModel, "int8 table needs zero point 0");
  LookupData d{table.scale, table.dims[0] > 0 ? static_cast<int32_t>(ElementCount(table) / table.dims[0]) : 0};
  return SetOpData(ctx, d);
}

StatusCode Eval(KernelContext& ctx) {
  TensorView ids, table, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &ids));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &table));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const auto& d = *static_cast<const LookupData*>(ctx.op_data());
  const int32_t rows = table.dims[0];
  if (rows == 0 && table.type == out.type) return StatusCode::kOk;  // TFLM propagates an empty table
  const int32_t* id = ids.As<int32_t>();
  const bool hybrid = table.type != out.type;
  const size_t row_bytes = static_cast<size_t>(d.columns) * TypeSize(table.type);
  for (int32_t i = 0; i < ids.dims[0]; ++i) {
    const int32_t r = id[i];
    if (r < 0 || r >= rows) {
      return ctx.Fail(StatusCode::kKernelError, "EMBEDDING_LOOKUP: index out of bounds. Got %d, and bounds are [0, %d]",
                      r, rows - 1);
    }
    if (!hybrid) {
      std::memcpy(out.As<uint8_t>() + i * row_bytes, table.As<const uint8_t>() + r * row_bytes, row_bytes);
      continue;
    }
    const int8_t* src = table.As<const int8_t>() + static_cast<size_t>(r) * d.columns;
    float* dst = out.As<float>() + static_cast<size_t>(i) * d.columns;
    for (int32_t c = 0; c < d.columns; ++c) dst[c] = static_cast<float>(src[c]) * d.scale;
  }
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_KERNEL(EMBEDDING_LOOKUP, &Prepare, &Eval)

}  // namespace arenaplan::rt
