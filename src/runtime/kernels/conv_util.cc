#include "runtime/kernels/conv_util.h"

#include <cstring>

#include "rules/int4.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

int32_t ComputePaddingForDim(tfl::Padding padding, int32_t stride, int32_t dilation, int32_t in_size,
                             int32_t filter_size) {
  if (stride < 1 || dilation < 1) return 0;
  const int64_t effective = static_cast<int64_t>(filter_size - 1) * dilation + 1;
  int64_t out = 0;
  if (padding == tfl::Padding::SAME) {
    out = (static_cast<int64_t>(in_size) + stride - 1) / stride;
  } else {
    out = (static_cast<int64_t>(in_size) + stride - effective) / stride;
  }
  const int64_t total = (out - 1) * stride + effective - in_size;
  return total > 0 ? static_cast<int32_t>(total / 2) : 0;
}

Padding2D ComputePadding2D(tfl::Padding padding, int32_t stride_h, int32_t stride_w, int32_t dilation_h,
                           int32_t dilation_w, int32_t in_h, int32_t in_w, int32_t filter_h, int32_t filter_w) {
  Padding2D p;
  p.height = ComputePaddingForDim(padding, stride_h, dilation_h, in_h, filter_h);
  p.width = ComputePaddingForDim(padding, stride_w, dilation_w, in_w, filter_w);
  return p;
}

float ChannelScale(const TensorView& t, int32_t c) {
  return (t.scales != nullptr && t.num_channels > 1) ? t.scales[c] : t.scale;
}

StatusCode PopulatePerChannelMultipliers(KernelContext& ctx, const TensorView& input, const TensorView& filter,
                                         const TensorView& output, int32_t channels, int32_t* multipliers,
                                         int32_t* shifts) {
  if (input.scale <= 0.0f || output.scale <= 0.0f || filter.num_channels < 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "quantized input, filter and output need positive scales");
  }
  if (filter.num_channels > 1 && filter.num_channels != channels) {
    return ctx.Fail(StatusCode::kInvalidModel, "filter has %d per-channel scales for %d output channels",
                    filter.num_channels, channels);
  }
  for (int32_t c = 0; c < channels; ++c) {
    const float s = ChannelScale(filter, c);
    if (!(s > 0.0f)) { return ctx.Fail(StatusCode::kInvalidModel, "filter scale of channel %d is not positive", c); }
    const double effective = static_cast<double>(input.scale) * static_cast<double>(s) /
                             static_cast<double>(output.scale);
    int shift = 0;
    QuantizeMultiplier(effective, &multipliers[c], &shift);
    shifts[c] = shift;
  }
  return StatusCode::kOk;
}

StatusCode GetConvTensors(KernelContext& ctx, uint32_t input_index, uint32_t filter_index, ConvTensors* t) {
  // Required inputs in index order, so a missing one is reported as before.
  if (input_index < filter_index) {
    RT_RETURN_IF_ERROR(RequireInput(ctx, input_index, &t->in));
    RT_RETURN_IF_ERROR(RequireInput(ctx, filter_index, &t->filter));
  } else {
    RT_RETURN_IF_ERROR(RequireInput(ctx, filter_index, &t->filter));
    RT_RETURN_IF_ERROR(RequireInput(ctx, input_index, &t->in));
  }
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &t->out));
  const uint32_t bias_index = (input_index > filter_index ? input_index : filter_index) + 1;
  t->has_bias = ctx.GetInput(bias_index, &t->bias);
  return StatusCode::kOk;
}

StatusCode PrepareConvTensors(KernelContext& ctx, uint32_t input_index, uint32_t filter_index, ConvTensors* t) {
  const uint32_t required = (input_index > filter_index ? input_index : filter_index) + 1;
  const uint32_t n_in = ctx.num_inputs();
  if ((n_in != required && n_in != required + 1) || ctx.num_outputs() != 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "expects %u or %u inputs and 1 output, got %u and %u", required,
                    required + 1, n_in, ctx.num_outputs());
  }
  RT_RETURN_IF_ERROR(GetConvTensors(ctx, input_index, filter_index, t));
  if (t->in.type != t->out.type) {
    return ctx.Fail(StatusCode::kInvalidModel, "input type %s differs from output type %s", TypeName(t->in.type),
                    TypeName(t->out.type));
  }
  return StatusCode::kOk;
}

bool SupportedConvTypes(TensorType input, TensorType filter) {
  return (input == TensorType::FLOAT32 && filter == TensorType::FLOAT32) ||
         (input == TensorType::INT8 && (filter == TensorType::INT8 || filter == TensorType::INT4)) ||
         (input == TensorType::INT16 && filter == TensorType::INT8);
}

StatusCode RequestInt4FilterScratch(KernelContext& ctx, const TensorView& filter, int32_t* index) {
  if (filter.type != TensorType::INT4) return StatusCode::kOk;
  uint32_t count = 0;
  if (filter.data == nullptr || !CheckedElementCount(filter.dims, filter.rank, &count)) {
    return ctx.Fail(StatusCode::kInvalidModel, "INT4 filter needs constant data and a valid shape");
  }
  const uint64_t bytes = rules::Int4UnpackScratchBytes(count);
  if (bytes > UINT32_MAX) return ctx.Fail(StatusCode::kInvalidModel, "INT4 filter too large");
  return ctx.RequestScratch(static_cast<uint32_t>(bytes), index);
}

const int8_t* FilterInt8(KernelContext& ctx, const TensorView& filter, int32_t index) {
  if (filter.type != TensorType::INT4) return filter.As<int8_t>();
  auto* unpacked = static_cast<int8_t*>(ctx.GetScratch(index));
  uint32_t count = 0;
  if (unpacked == nullptr || !CheckedElementCount(filter.dims, filter.rank, &count)) return nullptr;
  rules::UnpackInt4(filter.As<uint8_t>(), count, unpacked);
  return unpacked;
}

StatusCode CheckConv2DTensors(KernelContext& ctx, const ConvTensors& t) {
  if (!SupportedConvTypes(t.in.type, t.filter.type)) {
    return ctx.Fail(StatusCode::kUnsupported, "input %s with filter %s not supported (hybrid models are not)",
                    TypeName(t.in.type), TypeName(t.filter.type));
  }
  if (!HasShape(t.in, 4) || !HasShape(t.filter, 4) || !HasShape(t.out, 4)) {
    return ctx.Fail(StatusCode::kInvalidModel, "input, filter and output must be rank-4 tensors with data");
  }
  return StatusCode::kOk;
}

StatusCode PrepareConvOutput(KernelContext& ctx, tfl::ActivationFunctionType act, const TensorView& in,
                             const TensorView& filter, const TensorView& out, int32_t channels, ConvOutputParams* p) {
  p->multipliers = nullptr;
  p->shifts = nullptr;
  if (in.type == TensorType::FLOAT32) {
    if (!CalculateActivationRangeFloat(act, &p->act_min_f, &p->act_max_f)) {
      return ctx.Fail(StatusCode::kUnsupported, "fused activation %d not supported", static_cast<int>(act));
    }
    return StatusCode::kOk;
  }
  // Multipliers and shifts are a function of these scales alone: ops with equal ones (the patch
  // copies of one convolution) may share them (KernelContext::AllocateSharedPersistent).
  struct Key {
    float in_scale, out_scale, filter_scale;
    int32_t num_channels, channels, which;  // which: 0 multipliers, 1 shifts
    const float* filter_scales;             // in the model: equal pointers, equal scales
  } key;
  std::memset(&key, 0, sizeof(key));  // padding bytes compare too
  key.in_scale = in.scale;
  key.out_scale = out.scale;
  key.filter_scale = filter.scale;
  key.num_channels = filter.num_channels;
  key.channels = channels;
  key.filter_scales = filter.scales;
  const uint32_t n = channels > 0 ? static_cast<uint32_t>(channels) : 1u;
  if (n > (1u << 28)) return ctx.Fail(StatusCode::kInvalidModel, "channel count %d too large", channels);
  void* mem[2] = {nullptr, nullptr};
  bool fresh[2] = {true, true};
  for (int32_t k = 0; k < 2; ++k) {
    key.which = k;
    RT_RETURN_IF_ERROR(ctx.AllocateSharedPersistent(&key, sizeof(key), 4u * n, &mem[k], &fresh[k]));
  }
  p->multipliers = static_cast<int32_t*>(mem[0]);
  p->shifts = static_cast<int32_t*>(mem[1]);
  if (fresh[0] || fresh[1]) {
    RT_RETURN_IF_ERROR(PopulatePerChannelMultipliers(ctx, in, filter, out, channels, p->multipliers, p->shifts));
  }
  if (!CalculateActivationRangeQuantized(act, out, &p->act_min, &p->act_max)) {
    return ctx.Fail(StatusCode::kUnsupported, "fused activation %d not supported", static_cast<int>(act));
  }
  p->input_offset = -in.zero_point;
  p->output_offset = out.zero_point;
  return StatusCode::kOk;
}

StatusCode AllocateInt32(KernelContext& ctx, int32_t count, int32_t** out) {
  void* mem = nullptr;
  const uint32_t n = count > 0 ? static_cast<uint32_t>(count) : 1u;
  if (n > (1u << 28)) return ctx.Fail(StatusCode::kInvalidModel, "channel count %d too large", count);
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(n * 4u, &mem));
  *out = static_cast<int32_t*>(mem);
  return StatusCode::kOk;
}

bool HasShape(const TensorView& t, int32_t rank) {
  if (rank >= 0 && t.rank != rank) return false;
  uint32_t count = 0;
  if (!CheckedElementCount(t.dims, t.rank, &count)) return false;
  const uint32_t size = TypeSize(t.type);
  if (size == 0) return false;
  return static_cast<uint64_t>(count) * size <= t.bytes;
}

namespace {

// One spatial dimension of ApplyExplicitPadding; "" when it fits, else what is wrong.
const char* CheckPaddedDim(int32_t in, int32_t before, int32_t after, int32_t filter, int32_t dilation, int32_t stride,
                           int32_t out) {
  const int64_t effective = (static_cast<int64_t>(filter) - 1) * dilation + 1;
  if (before >= effective || after >= effective) return "padding reaches past a whole window";
  const int64_t padded = static_cast<int64_t>(in) + before + after;
  if (padded < effective || (padded - effective) / stride + 1 != out) return "output size does not match";
  return "";
}

}  // namespace

StatusCode CheckWindowReach(KernelContext& ctx, const TensorView& over, int32_t steps_h, int32_t steps_w,
                            int32_t filter_h, int32_t filter_w, const ConvWindow& w) {
  constexpr int64_t kMax = 0x7FFFFFFF;
  auto reach = [](int32_t steps, int32_t stride, int32_t pad, int32_t filter, int32_t dilation) {
    const int64_t moves = steps > 0 ? steps - 1 : 0;
    const int64_t taps = filter > 0 ? filter - 1 : 0;
    return moves * stride + (pad > 0 ? pad : 0) + taps * dilation + 1;  // each term < 2^62: no overflow
  };
  const int64_t depth = over.dims[3] > 0 ? over.dims[3] : 1;
  const int64_t reach_h = reach(steps_h, w.stride_h, w.pad.height, filter_h, w.dilation_h);
  const int64_t reach_w = reach(steps_w, w.stride_w, w.pad.width, filter_w, w.dilation_w);
  const int64_t widest = reach_w > w.dilation_w ? reach_w : w.dilation_w;
  if (reach_h > kMax || widest > kMax / depth) {
    return ctx.Fail(StatusCode::kInvalidModel,
                    "a %dx%d window with strides (%d, %d) and dilations (%d, %d) stepping %dx%d times over a "
                    "%dx%dx%d tensor: its indices overflow 32 bits",
                    filter_h, filter_w, w.stride_h, w.stride_w, w.dilation_h, w.dilation_w, steps_h, steps_w,
                    over.dims[1], over.dims[2], over.dims[3]);
  }
  return StatusCode::kOk;
}

StatusCode ApplyExplicitPadding(KernelContext& ctx, tfl::Padding padding, const TensorView& in,
                                const TensorView& filter, const TensorView& out, ConvWindow* w) {
  ExplicitPadding p;
  if (!ctx.GetExplicitPadding(&p)) return StatusCode::kOk;
  if (padding != tfl::Padding::VALID) return ctx.Fail(StatusCode::kInvalidModel, "explicit padding on a SAME convolution");
  const int32_t want = in.type == TensorType::INT8 ? in.zero_point : 0;
  if (p.value != want) {
    return ctx.Fail(StatusCode::kInvalidModel, "explicit padding with %d, the input's zero point is %d", p.value, want);
  }
  const char* h = CheckPaddedDim(in.dims[1], p.top, p.bottom, filter.dims[1], w->dilation_h, w->stride_h, out.dims[1]);
  const char* v = CheckPaddedDim(in.dims[2], p.left, p.right, filter.dims[2], w->dilation_w, w->stride_w, out.dims[2]);
  if (*h != '\0' || *v != '\0') {
    return ctx.Fail(StatusCode::kInvalidModel, "explicit padding (%d, %d, %d, %d) of a %dx%d input to %dx%d: %s", p.top,
                    p.bottom, p.left, p.right, in.dims[1], in.dims[2], out.dims[1], out.dims[2], *h != '\0' ? h : v);
  }
  w->pad.height = p.top;
  w->pad.width = p.left;
  return StatusCode::kOk;
}

}  // namespace arenaplan::rt
