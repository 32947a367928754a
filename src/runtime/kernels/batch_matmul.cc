// BATCH_MATMUL (ranks 2-5, batch dims broadcast; float32, int8, int16 with equal operand types),
// bit-exact with TFLM (batch_matmul.cc, reference/batch_matmul.h). Either operand may be computed
// at run time. TFLM runs the reference as "RHS^T x LHS" on transposed copies (RHS unless adj_y,
// LHS when adj_x) and, when the RHS's third-from-last dim is 1, first folds the LHS's last batch
// dim into its rows; this kernel reproduces exactly that computation (shapes, loop and
// accumulation order) but reads the transposed operands in place instead of copying them.
//   float32: sum over k of products, in k order, from 0;
//   int8 / int16: sum (rhs + (-zp_rhs)) * (lhs + (-zp_lhs)) in int32 / int64, requantized by
//     M = float(s_lhs * s_rhs) / s_out (QuantizeMultiplier), + zp_out, clamped to the type; int16
//     needs zero points 0.
// O(batch x rows x cols x depth).
#include <cstdint>
#include <limits>
#include <type_traits>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

constexpr int32_t kMaxRank = 5;

struct BatchMatMulData {
  bool adj_x, adj_y;
  int32_t multiplier, shift;
  int32_t lhs_offset, rhs_offset, output_offset;  // -zp_lhs, -zp_rhs, zp_out
  int32_t act_min, act_max;
};

int32_t DimOr1(const TensorView& t, int32_t rank, int32_t i) {
  const int32_t k = i - (rank - t.rank);
  return k >= 0 ? t.dims[k] : 1;
}

StatusCode CheckShapes(KernelContext& ctx, const TensorView& lhs, const TensorView& rhs, const TensorView& out,
                       bool adj_x, bool adj_y) {
  if (lhs.rank < 2 || lhs.rank > kMaxRank || rhs.rank < 2 || rhs.rank > kMaxRank) {
    return ctx.Fail(StatusCode::kUnsupported, "operand ranks %d, %d not supported (2..5)", lhs.rank, rhs.rank);
  }
  const int32_t rank = lhs.rank > rhs.rank ? lhs.rank : rhs.rank;
  if (out.rank != rank) return ctx.Fail(StatusCode::kInvalidModel, "output rank %d must be %d", out.rank, rank);
  for (int32_t i = 0; i + 2 < rank; ++i) {
    const int32_t a = DimOr1(lhs, rank, i), b = DimOr1(rhs, rank, i);
    if (a != b && a != 1 && b != 1) return ctx.Fail(StatusCode::kInvalidModel, "batch dim %d: %d vs %d", i, a, b);
    if (out.dims[i] != (a == 1 ? b : a)) return ctx.Fail(StatusCode::kInvalidModel, "output batch dim %d is wrong", i);
  }
  const int32_t depth_l = adj_x ? Dim(lhs, -2) : Dim(lhs, -1);
  const int32_t depth_r = adj_y ? Dim(rhs, -1) : Dim(rhs, -2);
  if (depth_l != depth_r)
    return ctx.Fail(StatusCode::kInvalidModel, "accumulation dims differ: %d vs %d", depth_l, depth_r);
  const int32_t rows = adj_x ? Dim(lhs, -1) : Dim(lhs, -2), cols = adj_y ? Dim(rhs, -2) : Dim(rhs, -1);
  if (out.dims[rank - 2] != rows || out.dims[rank - 1] != cols) {
    return ctx.Fail(StatusCode::kInvalidModel, "output must end with [%d, %d]", rows, cols);
  }
  return StatusCode::kOk;
}

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView lhs, rhs, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &lhs));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &rhs));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const TensorType t = lhs.type;
  if (t != TensorType::FLOAT32 && t != TensorType::INT8 && t != TensorType::INT16) {
    return ctx.Fail(StatusCode::kUnsupported, "type %s not supported (FLOAT32, INT8, INT16)", TypeName(t));
  }
  if (rhs.type != t || out.type != t) {
    return ctx.Fail(StatusCode::kUnsupported, "operands and output must share one type (%s, %s, %s)", TypeName(t),
                    TypeName(rhs.type), TypeName(out.type));
  }
  BatchMatMulData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  const auto* o = Options<tfl::BatchMatMulOptions>(ctx);
  d->adj_x = o != nullptr && o->adj_x();
  d->adj_y = o != nullptr && o->adj_y();
  RT_RETURN_IF_ERROR(CheckShapes(ctx, lhs, rhs, out, d->adj_x, d->adj_y));
  if (t != TensorType::FLOAT32) {
    if (!(lhs.scale > 0.0f) || !(rhs.scale > 0.0f) || !(out.scale > 0.0f)) {
      return ctx.Fail(StatusCode::kInvalidModel, "quantized operands need positive scales");
    }
    if (t == TensorType::INT16 && (lhs.zero_point != 0 || rhs.zero_point != 0 || out.zero_point != 0)) {
      return ctx.Fail(StatusCode::kUnsupported, "int16 operands need zero points 0");
    }
    int shift = 0;
    QuantizeMultiplier(static_cast<double>(lhs.scale * rhs.scale) / static_cast<double>(out.scale), &d->multiplier,
                       &shift);
    d->shift = shift;
    d->lhs_offset = -lhs.zero_point;
    d->rhs_offset = -rhs.zero_point;
    d->output_offset = out.zero_point;
    QuantizedTypeRange(t, &d->act_min, &d->act_max);
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

// An operand as TFLM's reference sees it: its data, possibly TFLM's transposed copy (last two
// dims swapped), read in place through the original layout [.., m, n].
template <typename T>
struct Operand {
  const T* data;
  bool transposed;
  int64_t m, n;
  T At(int64_t f) const {
    if (!transposed) return data[f];
    const int64_t mn = m * n, in_matrix = f % mn;
    return data[f - in_matrix + (in_matrix % m) * n + in_matrix / m];
  }
};

// The shapes TFLM passes to the reference, extended to 5 dims: "lhs" = the RHS operand, "rhs" =
// the LHS operand (compressed when the RHS's third-from-last dim is 1, then row/column swapped
// where no transposed copy is read).
struct ReferenceShapes {
  int32_t lhs[kMaxRank], rhs[kMaxRank];
};

void Extend(const int32_t* dims, int32_t rank, bool swap, int32_t* out) {
  for (int32_t i = 0; i < kMaxRank; ++i) {
    const int32_t k = i - (kMaxRank - rank);
    out[i] = k >= 0 ? dims[k] : 1;
  }
  if (swap) {
    const int32_t t = out[3];
    out[3] = out[4];
    out[4] = t;
  }
}

ReferenceShapes MakeShapes(const TensorView& lhs, const TensorView& rhs, bool adj_x, bool adj_y) {
  int32_t l[kMaxRank], r[kMaxRank];
  int32_t lr = lhs.rank, rr = rhs.rank;
  for (int32_t i = 0; i < lr; ++i) l[i] = lhs.dims[i];
  for (int32_t i = 0; i < rr; ++i) r[i] = rhs.dims[i];
  if (rr > 2 && lr > 2 && r[rr - 3] == 1) {
    l[lr - 3] = l[lr - 3] * l[lr - 2];
    l[lr - 2] = l[lr - 1];
    r[rr - 3] = r[rr - 2];
    r[rr - 2] = r[rr - 1];
    --lr;
    --rr;
  }
  ReferenceShapes s;
  Extend(r, rr, !adj_y, s.lhs);
  Extend(l, lr, !adj_x, s.rhs);
  return s;
}

int64_t Extent(const int32_t* shape, int32_t x) {
  if (shape[x] == 1) return 0;
  int64_t p = 1;
  for (int32_t i = x + 1; i < kMaxRank; ++i) p *= shape[i];
  return p;
}

int32_t BroadcastDim(int32_t a, int32_t b) { return a == b ? a : (a == 1 ? b : a); }

template <typename T, typename Acc, typename Finish>
void RunReference(const ReferenceShapes& s, const Operand<T>& a, const Operand<T>& b, T* out, Finish finish) {
  const int32_t bd[3] = {BroadcastDim(s.lhs[0], s.rhs[0]), BroadcastDim(s.lhs[1], s.rhs[1]),
                         BroadcastDim(s.lhs[2], s.rhs[2])};
  const int64_t ae[3] = {Extent(s.lhs, 0), Extent(s.lhs, 1), Extent(s.lhs, 2)};
  const int64_t be[3] = {Extent(s.rhs, 0), Extent(s.rhs, 1), Extent(s.rhs, 2)};
  const int32_t rows = s.lhs[3], cols = s.rhs[4], depth = s.lhs[4];
  for (int32_t b0 = 0; b0 < bd[0]; ++b0) {
    for (int32_t b1 = 0; b1 < bd[1]; ++b1) {
      for (int32_t b2 = 0; b2 < bd[2]; ++b2) {
        const int64_t ao = b0 * ae[0] + b1 * ae[1] + b2 * ae[2];
        const int64_t bo = b0 * be[0] + b1 * be[1] + b2 * be[2];
        T* o = out + ((static_cast<int64_t>(b0) * bd[1] * bd[2]) + b1 * bd[2] + b2) * rows * cols;
        for (int32_t j = 0; j < cols; ++j) {
          for (int32_t i = 0; i < rows; ++i) {
            Acc total = 0;
            for (int32_t k = 0; k < depth; ++k) {
              total = finish.Accumulate(total, a.At(ao + static_cast<int64_t>(depth) * i + k),
                                        b.At(bo + static_cast<int64_t>(j) * depth + k));
            }
            o[static_cast<int64_t>(rows) * j + i] = finish.Output(total);
          }
        }
      }
    }
  }
}

struct FloatMath {
  float Accumulate(float total, float x, float y) const { return total + x * y; }
  float Output(float total) const { return total; }
};

template <typename T, typename Acc>
struct QuantizedMath {
  const BatchMatMulData& d;
  Acc Accumulate(Acc total, T x, T y) const {
    const Acc p = (static_cast<Acc>(x) + d.rhs_offset) * (static_cast<Acc>(y) + d.lhs_offset);
    // int32 wraps (defined) where TFLM's accumulator would overflow; int64 cannot.
    using U = std::make_unsigned_t<Acc>;
    return static_cast<Acc>(static_cast<U>(total) + static_cast<U>(p));
  }
  T Output(Acc total) const {
    int32_t v = MultiplyByQuantizedMultiplier(total, d.multiplier, d.shift) + d.output_offset;
    v = v < d.act_min ? d.act_min : (v > d.act_max ? d.act_max : v);
    return static_cast<T>(v);
  }
};

template <typename T, typename Acc, typename Math>
void Run(const BatchMatMulData& d, const TensorView& lhs, const TensorView& rhs, const TensorView& out, Math math) {
  const ReferenceShapes s = MakeShapes(lhs, rhs, d.adj_x, d.adj_y);
  // The RHS is read transposed unless adj_y, the LHS when adj_x (TFLM's copies).
  const Operand<T> a{rhs.As<const T>(), !d.adj_y, Dim(rhs, -2), Dim(rhs, -1)};
  const Operand<T> b{lhs.As<const T>(), d.adj_x, Dim(lhs, -2), Dim(lhs, -1)};
  RunReference<T, Acc>(s, a, b, out.As<T>(), math);
}

StatusCode Eval(KernelContext& ctx) {
  TensorView lhs, rhs, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &lhs));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &rhs));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const auto& d = *static_cast<const BatchMatMulData*>(ctx.op_data());
  switch (lhs.type) {
    case TensorType::FLOAT32: Run<float, float>(d, lhs, rhs, out, FloatMath{}); break;
    case TensorType::INT8: Run<int8_t, int32_t>(d, lhs, rhs, out, QuantizedMath<int8_t, int32_t>{d}); break;
    default: Run<int16_t, int64_t>(d, lhs, rhs, out, QuantizedMath<int16_t, int64_t>{d}); break;
  }
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_KERNEL(BATCH_MATMUL, &Prepare, &Eval)

}  // namespace arenaplan::rt
