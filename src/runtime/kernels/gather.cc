// GATHER (axis, batch_dims) and GATHER_ND, bytewise for every fixed-size params type, int32 or
// int64 indices, exact with TFLM's reference: an out-of-range index fails the Invoke (as TFLM)
// instead of reading outside the tensor. GATHER: for each (batch, outer, index) one memcpy of
// `inner` elements; GATHER_ND: one memcpy of a slice per index tuple. O(output elements).
#include <cstring>

#include "runtime/kernels/binary_util.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

int64_t IndexAt(const TensorView& t, int64_t i) {
  return t.type == TensorType::INT64 ? t.As<int64_t>()[i] : t.As<int32_t>()[i];
}

bool IsIndexType(TensorType t) { return t == TensorType::INT32 || t == TensorType::INT64; }

int64_t Product(const int32_t* dims, int32_t from, int32_t to) {
  int64_t p = 1;
  for (int32_t a = from; a < to; ++a) p *= dims[a];
  return p;
}

// Prepare of GATHER and GATHER_ND: two inputs, params of the output's fixed-size type, int32 or
// int64 indices.
StatusCode PrepareTensors(KernelContext& ctx, TensorView* params, TensorView* indices, TensorView* out) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  RT_RETURN_IF_ERROR(GetBinaryTensors(ctx, params, indices, out));
  if (params->type != out->type) {
    return ctx.Fail(StatusCode::kInvalidModel, "params type %s differs from output type %s", TypeName(params->type),
                    TypeName(out->type));
  }
  if (TypeSize(params->type) == 0) {
    return ctx.Fail(StatusCode::kUnsupported, "type %s not supported", TypeName(params->type));
  }
  if (!IsIndexType(indices->type)) {
    return ctx.Fail(StatusCode::kUnsupported, "indices type %s not supported", TypeName(indices->type));
  }
  return StatusCode::kOk;
}

// ---- GATHER ---------------------------------------------------------------------------------
struct GatherData {
  int32_t axis;
  int32_t batch_dims;
};

StatusCode PrepareGather(KernelContext& ctx) {
  TensorView params, indices, out;
  RT_RETURN_IF_ERROR(PrepareTensors(ctx, &params, &indices, &out));
  const auto* opts = Options<tfl::GatherOptions>(ctx);
  int32_t axis = opts != nullptr ? opts->axis() : 0;
  int32_t batch_dims = opts != nullptr ? opts->batch_dims() : 0;
  if (axis < 0) axis += params.rank;
  if (batch_dims < 0) batch_dims += indices.rank;
  if (axis < 0 || axis >= params.rank)
    return ctx.Fail(StatusCode::kInvalidModel, "axis out of range for rank %d", params.rank);
  if (batch_dims < 0 || batch_dims > axis || batch_dims > indices.rank) {
    return ctx.Fail(StatusCode::kInvalidModel, "batch_dims %d invalid (axis %d, indices rank %d)", batch_dims, axis,
                    indices.rank);
  }
  for (int32_t a = 0; a < batch_dims; ++a) {
    if (params.dims[a] != indices.dims[a]) {
      return ctx.Fail(StatusCode::kInvalidModel, "batch dim %d differs between params and indices", a);
    }
  }
  // Output shape: params[:axis] + indices[batch_dims:] + params[axis+1:].
  const int32_t expect_rank = axis + (indices.rank - batch_dims) + (params.rank - axis - 1);
  bool ok = out.rank == expect_rank;
  for (int32_t a = 0; ok && a < expect_rank; ++a) {
    int32_t want;
    if (a < axis) {
      want = params.dims[a];
    } else if (a < axis + indices.rank - batch_dims) {
      want = indices.dims[a - axis + batch_dims];
    } else {
      want = params.dims[a - (indices.rank - batch_dims) + 1];
    }
    ok = out.dims[a] == want;
  }
  if (!ok) return ctx.Fail(StatusCode::kInvalidModel, "output shape does not match params/indices/axis");
  return SetOpData(ctx, GatherData{axis, batch_dims});
}

StatusCode EvalGather(KernelContext& ctx) {
  TensorView params, indices, out;
  RT_RETURN_IF_ERROR(GetBinaryTensors(ctx, &params, &indices, &out));
  const auto* d = static_cast<const GatherData*>(ctx.op_data());
  const int64_t batch = Product(params.dims, 0, d->batch_dims);
  const int64_t outer = Product(params.dims, d->batch_dims, d->axis);
  const int64_t inner_bytes = Product(params.dims, d->axis + 1, params.rank) * TypeSize(params.type);
  const int64_t axis_size = params.dims[d->axis];
  const int64_t coords = Product(indices.dims, d->batch_dims, indices.rank);
  const uint8_t* src = static_cast<const uint8_t*>(params.data);
  uint8_t* dst = static_cast<uint8_t*>(out.data);
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t i = 0; i < outer; ++i) {
      for (int64_t j = 0; j < coords; ++j) {
        const int64_t idx = IndexAt(indices, b * coords + j);
        if (idx < 0 || idx >= axis_size) {
          return ctx.Fail(StatusCode::kKernelError, "index %d out of range [0, %d)", static_cast<int>(idx),
                          static_cast<int>(axis_size));
        }
        std::memcpy(dst + ((b * outer + i) * coords + j) * inner_bytes,
                    src + ((b * outer + i) * axis_size + idx) * inner_bytes, static_cast<size_t>(inner_bytes));
      }
    }
  }
  return StatusCode::kOk;
}

// ---- GATHER_ND ------------------------------------------------------------------------------
StatusCode PrepareGatherNd(KernelContext& ctx) {
  TensorView params, indices, out;
  RT_RETURN_IF_ERROR(PrepareTensors(ctx, &params, &indices, &out));
  if (indices.rank < 1 || params.rank < 1)
    return ctx.Fail(StatusCode::kInvalidModel, "params and indices need rank >= 1");
  const int32_t nd = indices.dims[indices.rank - 1];
  if (nd < 0 || nd > params.rank) {
    return ctx.Fail(StatusCode::kInvalidModel, "index depth %d exceeds params rank %d", nd, params.rank);
  }
  const int64_t n_slices = Product(indices.dims, 0, indices.rank - 1);
  const int64_t slice = Product(params.dims, nd, params.rank);
  if (n_slices * slice != ElementCount(out)) {
    return ctx.Fail(StatusCode::kInvalidModel, "output has %d elements, expected %d",
                    static_cast<int>(ElementCount(out)), static_cast<int>(n_slices * slice));
  }
  return StatusCode::kOk;
}

StatusCode EvalGatherNd(KernelContext& ctx) {
  TensorView params, indices, out;
  RT_RETURN_IF_ERROR(GetBinaryTensors(ctx, &params, &indices, &out));
  const int32_t nd = indices.dims[indices.rank - 1];
  const int64_t n_slices = Product(indices.dims, 0, indices.rank - 1);
  const int64_t slice = Product(params.dims, nd, params.rank);
  const int64_t total = ElementCount(params);
  const uint32_t es = TypeSize(params.type);
  const uint8_t* src = static_cast<const uint8_t*>(params.data);
  uint8_t* dst = static_cast<uint8_t*>(out.data);
  for (int64_t i = 0; i < n_slices; ++i) {
    int64_t from = 0;
    for (int32_t j = 0; j < nd; ++j) {
      const int64_t v = IndexAt(indices, i * nd + j);
      if (v < 0 || v >= params.dims[j]) {
        return ctx.Fail(StatusCode::kKernelError, "index %d out of range on axis %d", static_cast<int>(v), j);
      }
      from = from * params.dims[j] + v;
    }
    from *= slice;
    if (from + slice > total) return ctx.Fail(StatusCode::kKernelError, "slice out of range");
    std::memcpy(dst + i * slice * es, src + from * es, static_cast<size_t>(slice * es));
  }
  return StatusCode::kOk;
}

const KernelRegistration kGather{"GATHER", &PrepareGather, &EvalGather};
const KernelRegistration kGatherNd{"GATHER_ND", &PrepareGatherNd, &EvalGatherNd};

}  // namespace

const KernelRegistration* Register_GATHER() { return &kGather; }
const KernelRegistration* Register_GATHER_ND() { return &kGatherNd; }

}  // namespace arenaplan::rt
