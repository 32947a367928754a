// Shape-only and data-movement ops, all bytewise (exact for every type):
//   EXPAND_DIMS, SQUEEZE: the data is unchanged (copied unless the planner made it in place).
//   SHAPE: writes the input's dims as int32 (or int64).
//   PACK / UNPACK: stack N same-shaped tensors along a new axis / split one along an axis.
//   SPLIT (axis tensor first) / SPLIT_V (input, size_splits, axis): the output sizes come from the
//   output tensors' static shapes, checked against the input in prepare.
// Every PACK/UNPACK/SPLIT is the same movement: for each "outer" index (product of dims before the
// axis), one contiguous block per piece. O(elements).
#include <cstring>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

constexpr uint32_t kMaxPieces = 64;  // PACK inputs / split outputs we accept

// ---- EXPAND_DIMS / SQUEEZE -------------------------------------------------------------------
StatusCode PrepareSameData(KernelContext& ctx) {
  if (ctx.num_inputs() < 1 || ctx.num_inputs() > 2 || ctx.num_outputs() != 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "expected 1 or 2 inputs and 1 output, got %u and %u", ctx.num_inputs(),
                    ctx.num_outputs());
  }
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireSameTypeIo(ctx, &in, &out));
  if (in.bytes != out.bytes)
    return ctx.Fail(StatusCode::kInvalidModel, "input has %u bytes, output %u", in.bytes, out.bytes);
  return StatusCode::kOk;
}

StatusCode EvalSameData(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (in.data != out.data && out.bytes > 0) std::memmove(out.data, in.data, out.bytes);
  return StatusCode::kOk;
}

// ---- SHAPE ----------------------------------------------------------------------------------
StatusCode PrepareShape(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (out.type != TensorType::INT32 && out.type != TensorType::INT64) {
    return ctx.Fail(StatusCode::kUnsupported, "output type %s not supported", TypeName(out.type));
  }
  if (ElementCount(out) != in.rank) {
    return ctx.Fail(StatusCode::kInvalidModel, "output has %d elements for input rank %d",
                    static_cast<int>(ElementCount(out)), in.rank);
  }
  return StatusCode::kOk;
}

StatusCode EvalShape(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  for (int32_t i = 0; i < in.rank; ++i) {
    if (out.type == TensorType::INT32) {
      out.As<int32_t>()[i] = in.dims[i];
    } else {
      out.As<int64_t>()[i] = in.dims[i];
    }
  }
  return StatusCode::kOk;
}

// ---- common piece movement ------------------------------------------------------------------
// `whole` is split along `axis` into pieces; piece_axis[k] is piece k's extent along the axis.
struct Pieces {
  int64_t outer;
  int64_t inner_bytes;  // product of dims after the axis x element size
  uint32_t count;
  int32_t piece_axis[kMaxPieces];
};

// Gather (join=true: pieces -> whole) or scatter (join=false: whole -> pieces).
void MovePieces(const Pieces& p, uint8_t* whole, uint8_t* const* pieces, bool join) {
  uint8_t* w = whole;
  for (int64_t o = 0; o < p.outer; ++o) {
    for (uint32_t k = 0; k < p.count; ++k) {
      const int64_t b = p.piece_axis[k] * p.inner_bytes;
      if (b == 0) continue;
      uint8_t* q = pieces[k] + o * b;
      if (join) {
        std::memcpy(w, q, static_cast<size_t>(b));
      } else {
        std::memcpy(q, w, static_cast<size_t>(b));
      }
      w += b;
    }
  }
}

// Fills outer/inner of `whole` around `axis`.
void OuterInner(const TensorView& whole, int32_t axis, Pieces* p) {
  p->outer = 1;
  for (int32_t a = 0; a < axis; ++a) p->outer *= whole.dims[a];
  p->inner_bytes = TypeSize(whole.type);
  for (int32_t a = axis + 1; a < whole.rank; ++a) p->inner_bytes *= whole.dims[a];
}

StatusCode AllocPieces(KernelContext& ctx, Pieces** p) {
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(Pieces), &mem));
  *p = static_cast<Pieces*>(mem);
  ctx.set_op_data(*p);
  return StatusCode::kOk;
}

// ---- PACK / UNPACK --------------------------------------------------------------------------
// `whole` has rank r + 1; every piece has `whole`'s dims without `axis`.
StatusCode CheckStackShapes(KernelContext& ctx, const TensorView& whole, const TensorView& piece, int32_t axis,
                            uint32_t k) {
  if (piece.type != whole.type) {
    return ctx.Fail(StatusCode::kInvalidModel, "tensor %u has type %s, expected %s", k, TypeName(piece.type),
                    TypeName(whole.type));
  }
  if (piece.rank + 1 != whole.rank) {
    return ctx.Fail(StatusCode::kInvalidModel, "tensor %u has rank %d, expected %d", k, piece.rank, whole.rank - 1);
  }
  for (int32_t a = 0; a < piece.rank; ++a) {
    if (piece.dims[a] != whole.dims[a < axis ? a : a + 1]) {
      return ctx.Fail(StatusCode::kInvalidModel, "tensor %u dim %d is %d, does not match", k, a, piece.dims[a]);
    }
  }
  return StatusCode::kOk;
}

template <bool pack>  // PACK, else UNPACK
StatusCode PrepareStack(KernelContext& ctx) {
  const uint32_t n = pack ? ctx.num_inputs() : ctx.num_outputs();
  if (n < 1 || n > kMaxPieces || (pack ? ctx.num_outputs() : ctx.num_inputs()) != 1) {
    return ctx.Fail(StatusCode::kUnsupported, "expected 1..%u pieces and one whole tensor", kMaxPieces);
  }
  TensorView whole;
  RT_RETURN_IF_ERROR(pack ? RequireOutput(ctx, 0, &whole) : RequireInput(ctx, 0, &whole));
  if (TypeSize(whole.type) == 0)
    return ctx.Fail(StatusCode::kUnsupported, "type %s not supported", TypeName(whole.type));
  int32_t axis = 0;
  if (pack) {
    const auto* o = Options<tfl::PackOptions>(ctx);
    axis = o != nullptr ? o->axis() : 0;
  } else {
    const auto* o = Options<tfl::UnpackOptions>(ctx);
    axis = o != nullptr ? o->axis() : 0;
  }
  if (axis < 0) axis += whole.rank;
  if (axis < 0 || axis >= whole.rank)
    return ctx.Fail(StatusCode::kInvalidModel, "axis out of range for rank %d", whole.rank);
  if (whole.dims[axis] != static_cast<int32_t>(n)) {
    return ctx.Fail(StatusCode::kInvalidModel, "axis %d has %d entries for %u pieces", axis, whole.dims[axis], n);
  }
  for (uint32_t k = 0; k < n; ++k) {
    TensorView piece;
    RT_RETURN_IF_ERROR(pack ? RequireInput(ctx, k, &piece) : RequireOutput(ctx, k, &piece));
    RT_RETURN_IF_ERROR(CheckStackShapes(ctx, whole, piece, axis, k));
  }
  Pieces* p = nullptr;
  RT_RETURN_IF_ERROR(AllocPieces(ctx, &p));
  OuterInner(whole, axis, p);
  p->count = n;
  for (uint32_t k = 0; k < n; ++k) p->piece_axis[k] = 1;
  return StatusCode::kOk;
}

template <bool pack>
StatusCode EvalStack(KernelContext& ctx) {
  const auto* p = static_cast<const Pieces*>(ctx.op_data());
  TensorView whole;
  RT_RETURN_IF_ERROR(pack ? RequireOutput(ctx, 0, &whole) : RequireInput(ctx, 0, &whole));
  uint8_t* pieces[kMaxPieces];
  for (uint32_t k = 0; k < p->count; ++k) {
    TensorView piece;
    RT_RETURN_IF_ERROR(pack ? RequireInput(ctx, k, &piece) : RequireOutput(ctx, k, &piece));
    pieces[k] = static_cast<uint8_t*>(piece.data);
  }
  MovePieces(*p, static_cast<uint8_t*>(whole.data), pieces, pack);
  return StatusCode::kOk;
}

// ---- SPLIT / SPLIT_V ------------------------------------------------------------------------
StatusCode PrepareSplitCommon(KernelContext& ctx, uint32_t input_index, uint32_t axis_index) {
  TensorView in, axis_t;
  RT_RETURN_IF_ERROR(RequireInput(ctx, input_index, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, axis_index, &axis_t));
  int64_t axis = 0;
  RT_RETURN_IF_ERROR(ReadConstantAxis(ctx, axis_t, in.rank, &axis));
  const uint32_t n = ctx.num_outputs();
  if (n < 1 || n > kMaxPieces)
    return ctx.Fail(StatusCode::kUnsupported, "%u outputs not supported (1..%u)", n, kMaxPieces);
  if (TypeSize(in.type) == 0) return ctx.Fail(StatusCode::kUnsupported, "type %s not supported", TypeName(in.type));
  Pieces* p = nullptr;
  RT_RETURN_IF_ERROR(AllocPieces(ctx, &p));
  const int32_t ax = static_cast<int32_t>(axis);
  OuterInner(in, ax, p);
  p->count = n;
  int64_t sum = 0;
  for (uint32_t k = 0; k < n; ++k) {
    TensorView o;
    RT_RETURN_IF_ERROR(RequireOutput(ctx, k, &o));
    if (o.type != in.type || o.rank != in.rank) {
      return ctx.Fail(StatusCode::kInvalidModel, "output %u type/rank differs from the input", k);
    }
    for (int32_t a = 0; a < in.rank; ++a) {
      if (a != ax && o.dims[a] != in.dims[a]) {
        return ctx.Fail(StatusCode::kInvalidModel, "output %u dim %d is %d, input %d", k, a, o.dims[a], in.dims[a]);
      }
    }
    p->piece_axis[k] = o.dims[ax];
    sum += o.dims[ax];
  }
  if (sum != in.dims[ax]) {
    return ctx.Fail(StatusCode::kInvalidModel, "outputs sum to %d along axis %d, input has %d", static_cast<int>(sum),
                    ax, in.dims[ax]);
  }
  return StatusCode::kOk;
}

StatusCode PrepareSplit(KernelContext& ctx) {
  if (ctx.num_inputs() != 2) return ctx.Fail(StatusCode::kInvalidModel, "expected 2 inputs, got %u", ctx.num_inputs());
  return PrepareSplitCommon(ctx, 1, 0);
}

StatusCode PrepareSplitV(KernelContext& ctx) {
  if (ctx.num_inputs() != 3) return ctx.Fail(StatusCode::kInvalidModel, "expected 3 inputs, got %u", ctx.num_inputs());
  return PrepareSplitCommon(ctx, 0, 2);
}

template <uint32_t input_index>  // of the data: 1 for SPLIT, 0 for SPLIT_V
StatusCode EvalSplit(KernelContext& ctx) {
  const auto* p = static_cast<const Pieces*>(ctx.op_data());
  TensorView in;
  RT_RETURN_IF_ERROR(RequireInput(ctx, input_index, &in));
  uint8_t* pieces[kMaxPieces];
  for (uint32_t k = 0; k < p->count; ++k) {
    TensorView o;
    RT_RETURN_IF_ERROR(RequireOutput(ctx, k, &o));
    pieces[k] = static_cast<uint8_t*>(o.data);
  }
  MovePieces(*p, static_cast<uint8_t*>(in.data), pieces, false);
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_KERNEL(EXPAND_DIMS, &PrepareSameData, &EvalSameData)
RT_REGISTER_KERNEL(PACK, &PrepareStack<true>, &EvalStack<true>)
RT_REGISTER_KERNEL(SHAPE, &PrepareShape, &EvalShape)
RT_REGISTER_KERNEL(SPLIT, &PrepareSplit, &EvalSplit<1>)
RT_REGISTER_KERNEL(SPLIT_V, &PrepareSplitV, &EvalSplit<0>)
RT_REGISTER_KERNEL(SQUEEZE, &PrepareSameData, &EvalSameData)
RT_REGISTER_KERNEL(UNPACK, &PrepareStack<false>, &EvalStack<false>)

}  // namespace arenaplan::rt
