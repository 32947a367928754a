#include "runtime/kernels/conv_util.h"

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
                           int32_t dilation_w, int32_t in_h, int32_t in_w, int32_t filter_h,
                           int32_t filter_w) {
  Padding2D p;
  p.height = ComputePaddingForDim(padding, stride_h, dilation_h, in_h, filter_h);
  p.width = ComputePaddingForDim(padding, stride_w, dilation_w, in_w, filter_w);
  return p;
}

float ChannelScale(const TensorView& t, int32_t c) {
  return (t.scales != nullptr && t.num_channels > 1) ? t.scales[c] : t.scale;
}

Status PopulatePerChannelMultipliers(KernelContext& ctx, const TensorView& input, const TensorView& filter,
                                     const TensorView& output, int32_t channels, int32_t* multipliers,
                                     int32_t* shifts) {
  if (input.scale <= 0.0f || output.scale <= 0.0f || filter.num_channels < 1) {
    return ctx.Fail(Status::kInvalidModel, "quantized input, filter and output need positive scales");
  }
  if (filter.num_channels > 1 && filter.num_channels != channels) {
    return ctx.Fail(Status::kInvalidModel, "filter has %d per-channel scales for %d output channels",
                    filter.num_channels, channels);
  }
  for (int32_t c = 0; c < channels; ++c) {
    const float s = ChannelScale(filter, c);
    if (!(s > 0.0f)) {
      return ctx.Fail(Status::kInvalidModel, "filter scale of channel %d is not positive", c);
    }
    const double effective =
        static_cast<double>(input.scale) * static_cast<double>(s) / static_cast<double>(output.scale);
    int shift = 0;
    QuantizeMultiplier(effective, &multipliers[c], &shift);
    shifts[c] = shift;
  }
  return Status::kOk;
}

Status AllocateInt32(KernelContext& ctx, int32_t count, int32_t** out) {
  void* mem = nullptr;
  const uint32_t n = count > 0 ? static_cast<uint32_t>(count) : 1u;
  if (n > (1u << 28)) return ctx.Fail(Status::kInvalidModel, "channel count %d too large", count);
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(n * 4u, &mem));
  *out = static_cast<int32_t*>(mem);
  return Status::kOk;
}

bool HasShape(const TensorView& t, int32_t rank) {
  if (rank >= 0 && t.rank != rank) return false;
  uint32_t count = 0;
  if (!CheckedElementCount(t.dims, t.rank, &count)) return false;
  const uint32_t size = TypeSize(t.type);
  if (size == 0) return false;
  return static_cast<uint64_t>(count) * size <= t.bytes;
}

}  // namespace arenaplan::rt
