// Shared pieces of the convolution-like kernels (CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV,
// FULLY_CONNECTED, pooling), matching TFLM's padding.h and kernel_util.cc:
//   * padding: out = SAME ? ceil(in / stride) : (in - effective_filter + stride) / stride, and the
//     leading pad is max(0, ((out - 1) * stride + effective_filter - in) / 2), where
//     effective_filter = (filter - 1) * dilation + 1 (TFLM ComputePaddingHeightWidth);
//   * per-channel requantization: M_c = double(s_in) * double(s_filter[c]) / double(s_out), split
//     by QuantizeMultiplier (TFLM PopulateConvolutionQuantizationParams).
// All O(1) per call except PopulatePerChannelMultipliers, O(channels).
#pragma once

#include <cstdint>
#include <cstring>

#include "runtime/kernel_api.h"

namespace arenaplan::rt {

struct Padding2D {
  int32_t height = 0;
  int32_t width = 0;
};

// Leading padding for one spatial dimension (TFLM ComputePaddingWithOffset on the output size
// TFLM computes itself, not the tensor's). Returns 0 for a stride < 1.
int32_t ComputePaddingForDim(tfl::Padding padding, int32_t stride, int32_t dilation, int32_t in_size,
                             int32_t filter_size);

Padding2D ComputePadding2D(tfl::Padding padding, int32_t stride_h, int32_t stride_w, int32_t dilation_h,
                           int32_t dilation_w, int32_t in_h, int32_t in_w, int32_t filter_h,
                           int32_t filter_w);

// Scale of channel c of a (possibly per-channel) quantized tensor: a per-tensor scale is broadcast
// along the channels as TFLM does.
float ChannelScale(const TensorView& t, int32_t c);

// Fills multipliers[c], shifts[c] (c < channels) from the input, filter and output scales. Fails
// (naming the problem) when a scale is not positive or a per-channel filter has a scale count
// different from `channels`.
Status PopulatePerChannelMultipliers(KernelContext& ctx, const TensorView& input, const TensorView& filter,
                                     const TensorView& output, int32_t channels, int32_t* multipliers,
                                     int32_t* shifts);

// Allocates `count` int32 values of persistent memory (prepare only).
Status AllocateInt32(KernelContext& ctx, int32_t count, int32_t** out);

// True when the view holds at least its dims' worth of elements of its type (guards kernels
// against short constant buffers), and rank == `rank` (when rank >= 0).
bool HasShape(const TensorView& t, int32_t rank);

// Taps f in [*begin, *end) land inside [0, size) at origin + dilation * f; they form one run, so
// inner loops need no per-tap bounds test (the skipped taps are exactly the ones TFLM skips).
// O(taps).
inline void ValidTaps(int32_t origin, int32_t dilation, int32_t taps, int32_t size, int32_t* begin, int32_t* end) {
  int32_t b = 0, e = taps;
  while (b < taps && origin + dilation * b < 0) ++b;
  while (e > b && origin + dilation * (e - 1) >= size) --e;
  *begin = b;
  *end = e;
}

// Element i of a constant array that may be misaligned in the flatbuffer (int64 biases often sit
// at 4-byte offsets; an int64 load from there is UB and faults on Cortex-M LDRD). Compiles to a
// plain load where the target allows it.
template <typename T>
inline T LoadUnaligned(const void* base, int32_t i) {
  T v;
  std::memcpy(&v, static_cast<const uint8_t*>(base) + static_cast<size_t>(i) * sizeof(T), sizeof(T));
  return v;
}

// Offset of (a, b, c, d) in a rank-4 NHWC view with dims d[0..3].
inline int32_t Offset4(const int32_t* d, int32_t a, int32_t b, int32_t c, int32_t e) {
  return ((a * d[1] + b) * d[2] + c) * d[3] + e;
}

}  // namespace arenaplan::rt
