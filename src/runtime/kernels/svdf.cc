// SVDF (rank-r singular value decomposition filter), TFLM's micro reference (svdf_common.cc):
//   1. shift the activation state (variable input 4, [batch, memory x filters]) left by one;
//   2. feature matmul: state[b][f][memory-1] = input[b] . weights_feature[f]   (int: rescaled by
//      effective_scale_1 = s_in * s_wf / s_state, plus the state zero point, clamped to the
//      state type);
//   3. time matmul: scratch[b][f] = weights_time[f] . (state[b][f] - state_zp);
//   4. output[b][u] = bias[u] + sum of the rank filters of unit u, then (int) rescaled by
//      effective_scale_2 = s_state * s_wt / s_out + out_zp, clamped to int8; (float) the fused
//      activation. TFLM's integer path applies no fused activation (the int8 clamp stands in).
// Variants: int8 input/output with int16 or int8 weights_time and state, int32 bias; float32.
// Scratch: batch x filters (int32/float), and batch x units int32 for the integer path.
// Cost: O(batch x filters x (input + memory)).
#include <cmath>

#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

struct SvdfData {
  int32_t batch, n_input, n_filter, n_unit, n_memory, rank;
  TensorType type;        // FLOAT32 or INT8 (input / output)
  TensorType state_type;  // INT16 or INT8 for the integer path
  tfl::ActivationFunctionType activation;
  int32_t scale_1_a, scale_1_b, scale_2_a, scale_2_b;
  int32_t input_zp, output_zp, state_zp;
  int32_t scratch_index, scratch_output_index;
};

float ActivationFloat(tfl::ActivationFunctionType a, float x) {
  using A = tfl::ActivationFunctionType;
  switch (a) {
    case A::RELU: return x < 0.0f ? 0.0f : x;
    case A::RELU_N1_TO_1: return x > 1.0f ? 1.0f : (x < -1.0f ? -1.0f : x);
    case A::RELU6: return x < 0.0f ? 0.0f : (x > 6.0f ? 6.0f : x);
    case A::TANH: return std::tanh(x);
    case A::SIGN_BIT: return std::signbit(x) ? 1.0f : 0.0f;
    default: return x;
  }
}

// Input, weights_feature, weights_time, bias (optional: *has_bias), activation state, output.
StatusCode GetTensors(KernelContext& ctx, TensorView* in, TensorView* wf, TensorView* wt, TensorView* bias,
                      bool* has_bias, TensorView* state, TensorView* out) {
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, wf));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 2, wt));
  *has_bias = ctx.GetInput(3, bias);
  RT_RETURN_IF_ERROR(RequireInput(ctx, 4, state));
  return RequireOutput(ctx, 0, out);
}

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 5, 1));
  TensorView in, wf, wt, bias, state, out;
  bool has_bias = false;
  RT_RETURN_IF_ERROR(GetTensors(ctx, &in, &wf, &wt, &bias, &has_bias, &state, &out));
  const auto* opts = Options<tfl::SVDFOptions>(ctx);
  const int32_t rank = opts != nullptr ? opts->rank() : 0;
  if (rank <= 0) return ctx.Fail(StatusCode::kInvalidModel, "rank %d must be positive", rank);
  if (in.rank != 2 || wf.rank != 2 || wt.rank != 2 || state.rank != 2 || out.rank != 2) {
    return ctx.Fail(StatusCode::kInvalidModel, "input, weights, state and output must be rank 2 (ranks %d %d %d %d %d)",
                    in.rank, wf.rank, wt.rank, state.rank, out.rank);
  }
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(SvdfData), &mem));
  auto* d = static_cast<SvdfData*>(mem);
  *d = SvdfData{};
  d->rank = rank;
  d->batch = in.dims[0];
  d->n_input = in.dims[1];
  d->n_filter = wf.dims[0];
  d->n_memory = wt.dims[1];
  d->activation = opts->fused_activation_function();
  if (d->batch <= 0 || d->n_filter <= 0 || d->n_memory <= 0 || d->n_filter % rank != 0) {
    return ctx.Fail(StatusCode::kInvalidModel, "filters %d must be a positive multiple of rank %d", d->n_filter, rank);
  }
  d->n_unit = d->n_filter / rank;
  if (out.dims[0] != d->batch || out.dims[1] != d->n_unit) {
    return ctx.Fail(StatusCode::kInvalidModel, "output must have shape [%d, %d]", d->batch, d->n_unit);
  }
  if (wf.dims[1] != d->n_input) {
    return ctx.Fail(StatusCode::kInvalidModel, "weights_feature must have %d columns", d->n_input);
  }
  if (wt.dims[0] != d->n_filter) {
    return ctx.Fail(StatusCode::kInvalidModel, "weights_time must have %d rows", d->n_filter);
  }
  if (has_bias && (bias.rank < 1 || bias.dims[0] != d->n_unit)) {
    return ctx.Fail(StatusCode::kInvalidModel, "bias must have %d entries", d->n_unit);
  }
  const int64_t state_cols = static_cast<int64_t>(d->n_memory) * d->n_filter;
  if (state.dims[0] != d->batch || state.dims[1] != state_cols) {
    return ctx.Fail(StatusCode::kInvalidModel, "activation state must have shape [%d, %d]", d->batch,
                    static_cast<int32_t>(state_cols));
  }
  d->type = in.type;
  d->state_type = state.type;
  const int64_t filter_bytes = static_cast<int64_t>(d->batch) * d->n_filter * 4;
  const int64_t unit_bytes = static_cast<int64_t>(d->batch) * d->n_unit * 4;
  if (filter_bytes > 0x7fffffff) return ctx.Fail(StatusCode::kInvalidModel, "SVDF too large");
  if (in.type == TensorType::INT8) {
    if (wf.type != TensorType::INT8 || out.type != TensorType::INT8 ||
        (wt.type != TensorType::INT16 && wt.type != TensorType::INT8) || state.type != wt.type ||
        (has_bias && bias.type != TensorType::INT32)) {
      return ctx.Fail(StatusCode::kUnsupported,
                      "int8 SVDF needs int8 weights_feature/output, int16 or int8 weights_time and "
                      "state of one type, int32 bias (got %s, %s, %s, %s)",
                      TypeName(wf.type), TypeName(wt.type), TypeName(state.type), TypeName(out.type));
    }
    if (state.scale <= 0.0f || out.scale <= 0.0f) {
      return ctx.Fail(StatusCode::kInvalidModel, "state and output need positive scales");
    }
    // TFLM computes both effective scales in float, then widens.
    const double s1 = static_cast<double>(in.scale * wf.scale / state.scale);
    const double s2 = static_cast<double>(state.scale * wt.scale / out.scale);
    int b1 = 0, b2 = 0;
    QuantizeMultiplier(s1, &d->scale_1_a, &b1);
    QuantizeMultiplier(s2, &d->scale_2_a, &b2);
    d->scale_1_b = b1;
    d->scale_2_b = b2;
    d->input_zp = in.zero_point;
    d->output_zp = out.zero_point;
    d->state_zp = state.zero_point;
    RT_RETURN_IF_ERROR(ctx.RequestScratch(static_cast<uint32_t>(filter_bytes), &d->scratch_index));
    RT_RETURN_IF_ERROR(ctx.RequestScratch(static_cast<uint32_t>(unit_bytes), &d->scratch_output_index));
  } else if (in.type == TensorType::FLOAT32) {
    if (wf.type != TensorType::FLOAT32 || wt.type != TensorType::FLOAT32 || state.type != TensorType::FLOAT32 ||
        out.type != TensorType::FLOAT32 || (has_bias && bias.type != TensorType::FLOAT32)) {
      return ctx.Fail(StatusCode::kUnsupported, "float SVDF needs float32 weights, state, bias, output");
    }
    RT_RETURN_IF_ERROR(ctx.RequestScratch(static_cast<uint32_t>(filter_bytes), &d->scratch_index));
  } else {
    return ctx.Fail(StatusCode::kUnsupported, "input type %s not supported", TypeName(in.type));
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

// Steps 1 and 2: shift the state left, then state[b][f][memory-1] = store(sum of
// weights_feature[f][c] * center(input[b][c]), accumulated in Acc).
template <typename Acc, typename In, typename T, typename Center, typename Store>
void FeatureMatmul(const SvdfData& d, const In* input, const In* wf, T* state, Center center, Store store) {
  const int64_t n = static_cast<int64_t>(d.batch) * d.n_filter * d.n_memory;
  for (int64_t i = 0; i + 1 < n; ++i) state[i] = state[i + 1];
  for (int32_t b = 0; b < d.batch; ++b) {
    T* result = state + static_cast<int64_t>(b) * d.n_filter * d.n_memory + (d.n_memory - 1);
    const In* x = input + static_cast<int64_t>(b) * d.n_input;
    const In* w = wf;
    for (int32_t f = 0; f < d.n_filter; ++f) {
      Acc dot = 0;
      for (int32_t c = 0; c < d.n_input; ++c) dot += *w++ * center(x[c]);
      *result = store(dot);
      result += d.n_memory;
    }
  }
}

// Steps 3 and 4: scratch[b][f] = weights_time[f] . center(state[b][f]); then out[b][u] = bias[u]
// (or 0) plus the rank filters of unit u, summed with add.
template <typename Acc, typename T, typename Center, typename Add>
void TimeMatmulAndReduce(const SvdfData& d, const T* wt, const T* state, const Acc* bias, Acc* scratch, Acc* out,
                         Center center, Add add) {
  for (int32_t b = 0; b < d.batch; ++b) {
    Acc* sp = scratch + static_cast<int64_t>(b) * d.n_filter;
    const T* v1 = wt;
    const T* v2 = state + static_cast<int64_t>(b) * d.n_memory * d.n_filter;
    for (int32_t f = 0; f < d.n_filter; ++f) {
      Acc acc = 0;
      for (int32_t j = 0; j < d.n_memory; ++j) acc += *v1++ * center(*v2++);
      sp[f] = acc;
    }
  }
  const int64_t outputs = static_cast<int64_t>(d.batch) * d.n_unit;
  for (int64_t i = 0; i < outputs; ++i) out[i] = bias != nullptr ? bias[i % d.n_unit] : Acc{0};
  for (int32_t b = 0; b < d.batch; ++b) {
    Acc* o = out + static_cast<int64_t>(b) * d.n_unit;
    const Acc* sp = scratch + static_cast<int64_t>(b) * d.n_filter;
    for (int32_t u = 0; u < d.n_unit; ++u) {
      for (int32_t r = 0; r < d.rank; ++r) o[u] = add(o[u], *sp++);
    }
  }
}

template <typename T>
void EvalInteger(const SvdfData& d, const int8_t* input, const int8_t* wf, const T* wt, const int32_t* bias, T* state,
                 int32_t* scratch, int32_t* scratch_out, int8_t* output) {
  const int32_t smax = sizeof(T) == 2 ? 32767 : 127;
  const int32_t smin = sizeof(T) == 2 ? -32768 : -128;
  FeatureMatmul<int32_t>(
      d, input, wf, state, [&](int8_t x) { return x - d.input_zp; },
      [&](int32_t dot) {
        dot = MultiplyByQuantizedMultiplier(dot, d.scale_1_a, d.scale_1_b);
        dot = d.state_zp + dot;  // zero point before the clamp, as TFLM does
        dot = dot < smin ? smin : (dot > smax ? smax : dot);
        return static_cast<T>(dot);
      });
  // Wrapping sum: TFLM's int32 accumulation wraps on its targets, and the scrambled keyword
  // model does overflow here; unsigned arithmetic gives the same bits without UB.
  TimeMatmulAndReduce(
      d, wt, state, bias, scratch, scratch_out, [&](T v) { return v - d.state_zp; },
      [](int32_t a, int32_t b) { return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b)); });
  const int64_t outputs = static_cast<int64_t>(d.batch) * d.n_unit;
  for (int64_t i = 0; i < outputs; ++i) {
    int32_t v = MultiplyByQuantizedMultiplier(scratch_out[i], d.scale_2_a, d.scale_2_b) + d.output_zp;
    v = v < -128 ? -128 : (v > 127 ? 127 : v);
    output[i] = static_cast<int8_t>(v);
  }
}

void EvalFloat(const SvdfData& d, const float* input, const float* wf, const float* wt, const float* bias, float* state,
               float* scratch, float* output) {
  const auto same = [](float v) { return v; };
  FeatureMatmul<float>(d, input, wf, state, same, same);
  TimeMatmulAndReduce(d, wt, state, bias, scratch, output, same, [](float a, float b) { return a + b; });
  const int64_t outputs = static_cast<int64_t>(d.batch) * d.n_unit;
  for (int64_t i = 0; i < outputs; ++i) output[i] = ActivationFloat(d.activation, output[i]);
}

StatusCode Eval(KernelContext& ctx) {
  const auto* d = static_cast<const SvdfData*>(ctx.op_data());
  TensorView in, wf, wt, bias, state, out;
  bool has_bias = false;
  RT_RETURN_IF_ERROR(GetTensors(ctx, &in, &wf, &wt, &bias, &has_bias, &state, &out));
  void* scratch = ctx.GetScratch(d->scratch_index);
  if (scratch == nullptr) return ctx.Fail(StatusCode::kKernelError, "scratch buffer missing");
  if (d->type == TensorType::FLOAT32) {
    EvalFloat(*d, in.As<float>(), wf.As<float>(), wt.As<float>(), has_bias ? bias.As<float>() : nullptr,
              state.As<float>(), static_cast<float*>(scratch), out.As<float>());
    return StatusCode::kOk;
  }
  auto* scratch_out = static_cast<int32_t*>(ctx.GetScratch(d->scratch_output_index));
  if (scratch_out == nullptr) return ctx.Fail(StatusCode::kKernelError, "scratch buffer missing");
  const int32_t* b = has_bias ? bias.As<int32_t>() : nullptr;
  if (d->state_type == TensorType::INT16) {
    EvalInteger<int16_t>(*d, in.As<int8_t>(), wf.As<int8_t>(), wt.As<int16_t>(), b, state.As<int16_t>(),
                         static_cast<int32_t*>(scratch), scratch_out, out.As<int8_t>());
  } else {
    EvalInteger<int8_t>(*d, in.As<int8_t>(), wf.As<int8_t>(), wt.As<int8_t>(), b, state.As<int8_t>(),
                        static_cast<int32_t*>(scratch), scratch_out, out.As<int8_t>());
  }
  return StatusCode::kOk;
}

const KernelRegistration kSvdf{"SVDF", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_SVDF() { return &kSvdf; }

}  // namespace arenaplan::rt
