// MEAN, SUM, REDUCE_MAX, REDUCE_MIN and REDUCE_ALL over the axes given by a constant int32
// tensor, bit-exact with TFLM
// (reference/reduce.h, micro/kernels/reduce_common.cc). Input elements are visited in row-major
// order and folded into the output element they reduce to (so float sums have TFLM's order):
//   MEAN float:  sum / float(count); TFLM's 4-D axes {1, 2} keep_dims special case adds the same
//                values in the same order and divides by the same count, so it needs no own path;
//   MEAN int8/int16: MultiplyByQuantizedMultiplier(sum - zp_in * count, M', s') + zp_out, where
//                M = s_in / s_out and (M', s') fold in 1 / count with shift = min(floor(log2 count),
//                32, 31 + s): M' = (M << shift) / count, s' = s - shift. Current TFLM takes this path
//                even when input and output share quantization (older releases divided the raw sum
//                or special-cased 4-D axes {1, 2}; the golden outputs of tflm_mobilenet_v2_pt_int8
//                only match this one);
//   SUM:         the same without 1 / count (float adds in input order);
//   REDUCE_MAX / REDUCE_MIN: float32 / int8 (int8 needs identical in/out quantization);
//   REDUCE_ALL:  bool (logical and; an empty reduction gives true).
// As on TFLM, types a kernel cannot run (and REDUCE_MAX/MIN's mismatched int8 quantization) pass
// Prepare and fail at eval.
// Scratch requests match TFLM's exactly (they appear in its memory plans): int8/int16 MEAN/SUM ask
// for an int32 sum per output element, then every variant asks for rank x int (index) and
// num_axis x int (resolved axes). O(input elements) time.
#include <limits>

#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

enum class ReduceKind : uint8_t { kMean, kSum, kMax, kMin, kAll };

bool IsMinMax(ReduceKind k) { return k == ReduceKind::kMax || k == ReduceKind::kMin; }

struct ReduceData {
  ReduceKind kind;
  bool same_quantization;
  int32_t multiplier, shift;
  int32_t input_zp, output_zp;
  int32_t num_axis;
  int32_t sum_scratch;  // -1 when not requested
  int32_t index_scratch;
  int32_t axis_scratch;
};

constexpr int32_t kMaxRank = 8;

StatusCode PrepareKind(KernelContext& ctx, ReduceKind kind) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView in, axis, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &axis));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  RT_RETURN_IF_ERROR(RequireType(ctx, axis, TensorType::INT32, "axis"));
  if (axis.data == nullptr || !HasShape(axis, -1)) {
    return ctx.Fail(StatusCode::kUnsupported, "axis must be a constant tensor");
  }
  if (in.type != out.type) {
    return ctx.Fail(StatusCode::kInvalidModel, "input type %s differs from output type %s", TypeName(in.type),
                    TypeName(out.type));
  }
  if (!HasShape(in, -1) || !HasShape(out, -1) || in.rank > kMaxRank) {
    return ctx.Fail(StatusCode::kInvalidModel, "input must have rank <= %d and data", kMaxRank);
  }
  const int32_t num_axis = static_cast<int32_t>(ElementCount(axis));
  const int32_t* axes = axis.As<int32_t>();
  // Output elements must match the input with the reduced axes removed (keep_dims or not).
  int64_t expected = 1;
  for (int32_t i = 0; i < in.rank; ++i) {
    bool reduced = false;
    for (int32_t k = 0; k < num_axis; ++k) {
      const int32_t a = axes[k] < 0 ? axes[k] + in.rank : axes[k];
      if (a < 0 || a >= in.rank)
        return ctx.Fail(StatusCode::kInvalidModel, "axis %d out of range for rank %d", axes[k], in.rank);
      reduced = reduced || a == i;
    }
    if (!reduced) expected *= in.dims[i];
  }
  if (expected != ElementCount(out)) {
    return ctx.Fail(StatusCode::kInvalidModel, "output has %d elements, the reduction gives %d",
                    static_cast<int32_t>(ElementCount(out)), static_cast<int32_t>(expected));
  }
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(ReduceData), &mem));
  auto* d = static_cast<ReduceData*>(mem);
  d->kind = kind;
  d->num_axis = num_axis;
  d->sum_scratch = -1;
  d->input_zp = in.zero_point;
  d->output_zp = out.zero_point;
  d->same_quantization = in.zero_point == out.zero_point && in.scale == out.scale;
  d->multiplier = 0;
  d->shift = 0;
  const bool quantized = in.type == TensorType::INT8 || (in.type == TensorType::INT16 && !IsMinMax(kind));
  if (quantized && kind != ReduceKind::kAll) {
    if (!(in.scale > 0.0f) || !(out.scale > 0.0f)) {
      return ctx.Fail(StatusCode::kInvalidModel, "quantized input and output need positive scales");
    }
    int shift = 0;
    QuantizeMultiplier(static_cast<double>(in.scale) / static_cast<double>(out.scale), &d->multiplier, &shift);
    d->shift = shift;
    if (!IsMinMax(kind)) {
      RT_RETURN_IF_ERROR(ctx.RequestScratch(static_cast<uint32_t>(ElementCount(out)) * 4u, &d->sum_scratch));
    }
  }
  RT_RETURN_IF_ERROR(ctx.RequestScratch(static_cast<uint32_t>(in.rank) * 4u, &d->index_scratch));
  RT_RETURN_IF_ERROR(ctx.RequestScratch(static_cast<uint32_t>(num_axis) * 4u, &d->axis_scratch));
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode PrepareMean(KernelContext& ctx) { return PrepareKind(ctx, ReduceKind::kMean); }
StatusCode PrepareSum(KernelContext& ctx) { return PrepareKind(ctx, ReduceKind::kSum); }
StatusCode PrepareMax(KernelContext& ctx) { return PrepareKind(ctx, ReduceKind::kMax); }
StatusCode PrepareMin(KernelContext& ctx) { return PrepareKind(ctx, ReduceKind::kMin); }
StatusCode PrepareAll(KernelContext& ctx) { return PrepareKind(ctx, ReduceKind::kAll); }

// Walks the input in row-major order: f(input_offset, output_offset). `index` holds rank entries,
// `axes` the deduplicated, non-negative reduced axes. The output offset is kept incrementally with
// per-dim output strides (0 on reduced dims), so the walk is O(input elements) amortized.
template <typename F>
void ForEachReduced(const TensorView& in, const int32_t* axes, int32_t num_axes, int32_t* index, F&& f) {
  const int32_t rank = in.rank;
  int64_t out_stride[kMaxRank];
  int64_t stride = 1;
  for (int32_t i = rank - 1; i >= 0; --i) {
    if (in.dims[i] == 0) return;
    bool reduced = false;
    for (int32_t k = 0; k < num_axes; ++k) reduced = reduced || axes[k] == i;
    out_stride[i] = reduced ? 0 : stride;
    if (!reduced) stride *= in.dims[i];
    index[i] = 0;
  }
  const int64_t total = ElementCount(in);
  int64_t out_off = 0;
  for (int64_t in_off = 0; in_off < total; ++in_off) {
    f(static_cast<int32_t>(in_off), static_cast<int32_t>(out_off));
    for (int32_t i = rank - 1; i >= 0; --i) {
      out_off += out_stride[i];
      if (++index[i] < in.dims[i]) break;
      out_off -= out_stride[i] * in.dims[i];
      index[i] = 0;
    }
  }
}

template <typename T>
void QuantizedMeanOrSum(const ReduceData& d, const TensorView& in, const TensorView& out, const int32_t* axes,
                        int32_t num_axes, int32_t* index, int32_t* sum, int64_t count) {
  const T* x = in.As<T>();
  T* y = out.As<T>();
  const int64_t n_out = ElementCount(out);
  for (int64_t i = 0; i < n_out; ++i) {
    y[i] = 0;
    sum[i] = 0;
  }
  bool empty = false;
  for (int32_t i = 0; i < in.rank; ++i) empty = empty || in.dims[i] == 0;
  if (empty) return;
  ForEachReduced(in, axes, num_axes, index, [&](int32_t i, int32_t o) {
    sum[o] = static_cast<int32_t>(static_cast<uint32_t>(sum[o]) + static_cast<uint32_t>(static_cast<int32_t>(x[i])));
  });
  if (count == 0) return;
  int32_t multiplier = d.multiplier;
  int32_t shift = d.shift;
  if (d.kind == ReduceKind::kMean) {
    int s = 63 - __builtin_clzll(static_cast<uint64_t>(count));
    s = s < 32 ? s : 32;
    s = s < 31 + shift ? s : 31 + shift;
    multiplier = static_cast<int32_t>((static_cast<int64_t>(multiplier) << s) / count);
    shift -= s;
  }
  const int32_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  for (int64_t i = 0; i < n_out; ++i) {
    const int32_t shifted = static_cast<int32_t>(sum[i] - static_cast<int64_t>(d.input_zp) * count);
    int32_t v = MultiplyByQuantizedMultiplier(shifted, multiplier, shift) + d.output_zp;
    v = v < lo ? lo : (v > hi ? hi : v);
    y[i] = static_cast<T>(v);
  }
}

// ReduceGeneric: the output starts at init, then folds each input element in with f.
template <typename T, typename F>
void ReduceGeneric(const TensorView& in, const TensorView& out, const int32_t* axes, int32_t num_axes, int32_t* index,
                   T init, F f) {
  const T* x = in.As<T>();
  T* y = out.As<T>();
  const int64_t n_out = ElementCount(out);
  for (int64_t i = 0; i < n_out; ++i) y[i] = init;
  ForEachReduced(in, axes, num_axes, index, [&](int32_t i, int32_t o) { y[o] = f(y[o], x[i]); });
}

template <typename T>
void ReduceMinMax(ReduceKind kind, const TensorView& in, const TensorView& out, const int32_t* axes, int32_t num_axes,
                  int32_t* index) {
  if (kind == ReduceKind::kMax) {
    ReduceGeneric<T>(in, out, axes, num_axes, index, std::numeric_limits<T>::lowest(),
                     [](T current, T v) { return v > current ? v : current; });
  } else {
    ReduceGeneric<T>(in, out, axes, num_axes, index, std::numeric_limits<T>::max(),
                     [](T current, T v) { return v < current ? v : current; });
  }
}

// The eval-time type checks TFLM makes (its Prepare accepts any type).
StatusCode CheckEvalTypes(KernelContext& ctx, const ReduceData& d, const TensorView& in) {
  const TensorType t = in.type;
  if (d.kind == ReduceKind::kAll) {
    return t == TensorType::BOOL
               ? StatusCode::kOk
               : ctx.Fail(StatusCode::kUnsupported, "REDUCE_ALL supports bool only, got %s", TypeName(t));
  }
  if (IsMinMax(d.kind)) {
    if (t != TensorType::FLOAT32 && t != TensorType::INT8) {
      return ctx.Fail(StatusCode::kUnsupported, "Only float32 and int8 types are supported.");
    }
    if (t == TensorType::INT8 && !d.same_quantization) {
      return ctx.Fail(StatusCode::kUnsupported, "int8 input and output quantization must be identical");
    }
    return StatusCode::kOk;
  }
  if (t != TensorType::FLOAT32 && t != TensorType::INT8 && t != TensorType::INT16) {
    return ctx.Fail(StatusCode::kUnsupported, d.kind == ReduceKind::kSum
                                                  ? "Only float32, int8, and int16 types are supported."
                                                  : "Currently, only float32, int8 or int16 input type is supported.");
  }
  return StatusCode::kOk;
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, axis, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &axis));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const auto& d = *static_cast<const ReduceData*>(ctx.op_data());
  RT_RETURN_IF_ERROR(CheckEvalTypes(ctx, d, in));
  auto* index = static_cast<int32_t*>(ctx.GetScratch(d.index_scratch));
  auto* axes = static_cast<int32_t*>(ctx.GetScratch(d.axis_scratch));
  if ((index == nullptr && in.rank > 0) || (axes == nullptr && d.num_axis > 0)) {
    return ctx.Fail(StatusCode::kKernelError, "scratch buffers missing");
  }
  // Resolve axes: negative ones count from the back, duplicates are dropped.
  int32_t num_axes = 0;
  const int32_t* raw = axis.As<int32_t>();
  for (int32_t k = 0; k < d.num_axis && in.rank > 0; ++k) {
    const int32_t a = raw[k] < 0 ? raw[k] + in.rank : raw[k];
    bool dup = false;
    for (int32_t j = 0; j < num_axes; ++j) dup = dup || axes[j] == a;
    if (!dup) axes[num_axes++] = a;
  }
  int64_t count = 1;
  for (int32_t k = 0; k < num_axes; ++k) count *= in.dims[axes[k]];
  const int64_t n_out = ElementCount(out);
  if (IsMinMax(d.kind)) {
    if (in.type == TensorType::FLOAT32) {
      ReduceMinMax<float>(d.kind, in, out, axes, num_axes, index);
    } else {
      ReduceMinMax<int8_t>(d.kind, in, out, axes, num_axes, index);
    }
    return StatusCode::kOk;
  }
  if (d.kind == ReduceKind::kAll) {
    ReduceGeneric<uint8_t>(in, out, axes, num_axes, index, 1,
                           [](uint8_t c, uint8_t v) -> uint8_t { return c != 0 && v != 0; });
    return StatusCode::kOk;
  }
  if (in.type == TensorType::FLOAT32) {
    const float* x = in.As<float>();
    float* y = out.As<float>();
    for (int64_t i = 0; i < n_out; ++i) y[i] = 0.0f;
    ForEachReduced(in, axes, num_axes, index, [&](int32_t i, int32_t o) { y[o] = y[o] + x[i]; });
    if (d.kind == ReduceKind::kMean && count > 0) {
      for (int64_t i = 0; i < n_out; ++i) y[i] = y[i] / static_cast<float>(count);
    }
    return StatusCode::kOk;
  }
  auto* sum = static_cast<int32_t*>(ctx.GetScratch(d.sum_scratch));
  if (sum == nullptr) return ctx.Fail(StatusCode::kKernelError, "sum scratch buffer missing");
  if (in.type == TensorType::INT8) {
    QuantizedMeanOrSum<int8_t>(d, in, out, axes, num_axes, index, sum, count);
  } else {
    QuantizedMeanOrSum<int16_t>(d, in, out, axes, num_axes, index, sum, count);
  }
  return StatusCode::kOk;
}

const KernelRegistration kMean{"MEAN", &PrepareMean, &Eval};
const KernelRegistration kSum{"SUM", &PrepareSum, &Eval};
const KernelRegistration kReduceMax{"REDUCE_MAX", &PrepareMax, &Eval};

}  // namespace

RT_REGISTER_KERNEL(REDUCE_ALL, &PrepareAll, &Eval)
RT_REGISTER_KERNEL(REDUCE_MIN, &PrepareMin, &Eval)

const KernelRegistration* Register_MEAN() { return &kMean; }
const KernelRegistration* Register_REDUCE_MAX() { return &kReduceMax; }
const KernelRegistration* Register_SUM() { return &kSum; }

}  // namespace arenaplan::rt
