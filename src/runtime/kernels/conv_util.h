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
#include "runtime/quantization.h"

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
                           int32_t dilation_w, int32_t in_h, int32_t in_w, int32_t filter_h, int32_t filter_w);

// Scale of channel c of a (possibly per-channel) quantized tensor: a per-tensor scale is broadcast
// along the channels as TFLM does.
float ChannelScale(const TensorView& t, int32_t c);

// Fills multipliers[c], shifts[c] (c < channels) from the input, filter and output scales. Fails
// (naming the problem) when a scale is not positive or a per-channel filter has a scale count
// different from `channels`.
StatusCode PopulatePerChannelMultipliers(KernelContext& ctx, const TensorView& input, const TensorView& filter,
                                         const TensorView& output, int32_t channels, int32_t* multipliers,
                                         int32_t* shifts);

// Input, filter, optional bias and output of a convolution-like op.
struct ConvTensors {
  TensorView in, filter, bias, out;
  bool has_bias = false;
};

// Fetches the tensors (bias is the input after input and filter). Eval only: no checks.
StatusCode GetConvTensors(KernelContext& ctx, uint32_t input_index, uint32_t filter_index, ConvTensors* t);

// Prepare checks shared by CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV and FULLY_CONNECTED: the
// input count allows the optional bias, one output, input type equals output type.
StatusCode PrepareConvTensors(KernelContext& ctx, uint32_t input_index, uint32_t filter_index, ConvTensors* t);

// float x float, int8 x int8, int8 x int4 (packed), int16 x int8: the (input, filter) pairs TFLM's
// reference FULLY_CONNECTED and CONV_2D run.
bool SupportedConvTypes(TensorType input, TensorType filter);

// INT4 filters (rules/int4.h), as TFLM's FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D handle them:
// prepare requests one scratch byte per filter element into *index (left untouched for any other
// filter type: it shares its bytes with the float activation range, see ConvOutputParams); eval
// unpacks the packed constant into that scratch on every Invoke and reads the int8 copy.
StatusCode RequestInt4FilterScratch(KernelContext& ctx, const TensorView& filter, int32_t* index);
// The filter as int8 values: the tensor's own data, or (INT4: `index` is read only then) the scratch
// it was just unpacked into; nullptr when the scratch is missing.
const int8_t* FilterInt8(KernelContext& ctx, const TensorView& filter, int32_t index);

// The checks the 2D convolutions share: supported type pair (hybrid models are not), rank-4 input,
// filter and output with data, constant filter.
StatusCode CheckConv2DTensors(KernelContext& ctx, const ConvTensors& t);

// Strides, dilations and padding of a 2D convolution window (pad: the leading amounts; taps past
// the input's far edge are skipped, so the trailing amounts follow from the output size).
struct ConvWindow {
  Padding2D pad;
  int32_t stride_h, stride_w, dilation_h, dilation_w;
};

// A PAD folded into the op by arenaplan's schedule (KernelContext::GetExplicitPadding): when the
// context gives one, w->pad becomes its top / left amounts, after checking that the op pads VALID,
// that each amount is below the effective filter extent (a window is never all padding), that
// `out` has the size the padded input gives, and that the pad value is the input's zero point (0
// for float and int16). Without one: kOk, w unchanged. in, filter and out are rank 4.
StatusCode ApplyExplicitPadding(KernelContext& ctx, tfl::Padding padding, const TensorView& in,
                                const TensorView& filter, const TensorView& out, ConvWindow* w);

// Whether a window's index arithmetic stays in int32, as the kernels (and TFLM's, in int) compute
// it: a filter_h x filter_w window stepping steps_h x steps_w times over the NHWC tensor `over`
// (the input of a convolution or pooling, stepped once per output position; the output of a
// transposed convolution, once per input position). Per spatial dimension the farthest position
// reached, (steps - 1) x stride + pad + (filter - 1) x dilation + 1, and along the width that
// position and the dilation times the depth (rows are indexed (y x width + x) x depth), must fit.
// Hostile strides or dilations fail with kInvalidModel naming them.
StatusCode CheckWindowReach(KernelContext& ctx, const TensorView& over, int32_t steps_h, int32_t steps_w,
                            int32_t filter_h, int32_t filter_w, const ConvWindow& w);

// Reads strides and dilations from Conv2DOptions / DepthwiseConv2DOptions (nullptr: 1, 1, SAME),
// checks them and computes the padding for input `in`, filter `filter` and output `out` (TFLM's
// rule, or the schedule's explicit padding: ApplyExplicitPadding), then that the window's indices
// fit (CheckWindowReach). The three are rank 4 (CheckConv2DTensors).
template <typename Options>
StatusCode PrepareConvWindow(KernelContext& ctx, const Options* o, const TensorView& in, const TensorView& filter,
                             const TensorView& out, ConvWindow* w) {
  w->stride_h = o != nullptr ? o->stride_h() : 1;
  w->stride_w = o != nullptr ? o->stride_w() : 1;
  w->dilation_h = o != nullptr ? o->dilation_h_factor() : 1;
  w->dilation_w = o != nullptr ? o->dilation_w_factor() : 1;
  if (w->stride_h < 1 || w->stride_w < 1 || w->dilation_h < 1 || w->dilation_w < 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "strides (%d, %d) and dilations (%d, %d) must be >= 1", w->stride_h,
                    w->stride_w, w->dilation_h, w->dilation_w);
  }
  const tfl::Padding padding = o != nullptr ? o->padding() : tfl::Padding::SAME;
  w->pad = ComputePadding2D(padding, w->stride_h, w->stride_w, w->dilation_h, w->dilation_w, in.dims[1], in.dims[2],
                            filter.dims[1], filter.dims[2]);
  RT_RETURN_IF_ERROR(ApplyExplicitPadding(ctx, padding, in, filter, out, w));
  return CheckWindowReach(ctx, in, out.dims[1], out.dims[2], filter.dims[1], filter.dims[2], *w);
}

// Output stage of a convolution-like op: float clamp, or per-channel requantization and clamp.
struct ConvOutputParams {
  int32_t input_offset, output_offset;  // -zp_in, zp_out (quantized only)
  int32_t act_min, act_max;
  // float32 input: the float activation range. An INT4 filter (int8 input only): the scratch it is
  // unpacked into (RequestInt4FilterScratch). Never both, so they share bytes: the op data of every
  // other model stays as small as it was.
  union {
    float act_min_f;
    int32_t filter_scratch;
  };
  float act_max_f;
  int32_t* multipliers;  // per output channel; nullptr for float
  int32_t* shifts;
};

// Prepare: float activation range for float input; otherwise `channels` per-channel multipliers
// (PopulatePerChannelMultipliers), the quantized activation range and the zero-point offsets.
StatusCode PrepareConvOutput(KernelContext& ctx, tfl::ActivationFunctionType act, const TensorView& in,
                             const TensorView& filter, const TensorView& out, int32_t channels, ConvOutputParams* p);

// Float activation clamp, in the reference kernels' order (max first, then min).
inline float ClampConvOutput(const ConvOutputParams& p, float v) {
  const float lo = v < p.act_min_f ? p.act_min_f : v;
  return lo > p.act_max_f ? p.act_max_f : lo;
}

// Op data of CONV_2D. dsp_scratch is the im2col scratch of the fast int8 path (kernels/dsp/), -1
// when the portable kernel runs.
struct ConvData {
  ConvWindow w;
  ConvOutputParams q;
  int32_t dsp_scratch;
};

// Op data of DEPTHWISE_CONV_2D (output channel oc reads input channel oc / depth_multiplier).
// dsp_scratch: the row buffers of the fast int8 path (kernels/dsp/), -1 when the portable kernel runs.
// in_place_scratch: one output channel plane, when the schedule lets the op run in place (-1 not).
struct DepthwiseData {
  ConvWindow w;
  int32_t depth_multiplier;
  ConvOutputParams q;
  int32_t dsp_scratch;
  int32_t in_place_scratch;
};

// Op data of FULLY_CONNECTED: output row b, unit u = sum over depth of the input row and weight row u.
struct FcData {
  int32_t batches, units, depth;
  int32_t input_offset, filter_offset, output_offset;
  int32_t act_min, act_max;
  union {  // float32 input / INT4 filter (int8 input), as in ConvOutputParams
    float act_min_f;
    int32_t filter_scratch;
  };
  float act_max_f;
  int32_t multiplier, shift;  // per-tensor
  int32_t* multipliers;       // per-channel (nullptr when per-tensor)
  int32_t* shifts;
};

// Op data of AVERAGE_POOL_2D and MAX_POOL_2D.
struct PoolData {
  Padding2D pad;
  int32_t stride_h, stride_w, filter_h, filter_w;
  int32_t act_min, act_max;
  float act_min_f, act_max_f;
};

// Accumulator (int32 or int64) of channel c requantized, plus output_offset, clamped.
template <typename Acc>
inline int32_t RequantizeConvOutput(const ConvOutputParams& p, Acc acc, int32_t c, int32_t output_offset) {
  const int32_t r = MultiplyByQuantizedMultiplier(acc, p.multipliers[c], p.shifts[c]) + output_offset;
  return r < p.act_min ? p.act_min : (r > p.act_max ? p.act_max : r);
}

// Wrapping int32 add: TFLM's accumulation overflows only for absurd filters; stay defined anyway.
inline int32_t WrappingAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
// int64 accumulators overflow only with a hostile bias near the int64 limits (found by the
// runtime fuzzer); wrap as well.
inline int64_t WrappingAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

// Allocates `count` int32 values of persistent memory (prepare only).
StatusCode AllocateInt32(KernelContext& ctx, int32_t count, int32_t** out);

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
