// CUMSUM along one axis (float32, int8), bit-exact with TFLM (cumsum.cc, reference/cumsum.h):
// exclusive writes the running sum before adding the element, reverse runs each line from its
// end. The axis is read at eval (it may be computed); negative counts from the back. int8 uses
// ADD_N's fixed point: every element shifted left by 20 and rescaled by 1/2, the running sum
// starting from the rescaled input offset as the reference's does, then rescaled to the output.
// O(elements).
#include <cstdint>

#include "runtime/kernels/conv_util.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

struct CumsumData {
  bool exclusive, reverse;
  int32_t input_offset, output_offset;
  int32_t input_multiplier, input_shift;
  int32_t output_multiplier, output_shift;
  int32_t act_min, act_max;
};

constexpr int32_t kLeftShift = 20;

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView in, axis, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &axis));
  RT_RETURN_IF_ERROR(RequireSameTypeIo(ctx, &in, &out));
  if (in.type != TensorType::FLOAT32 && in.type != TensorType::INT8) {
    return ctx.Fail(StatusCode::kUnsupported, "input type %s not supported (FLOAT32, INT8)", TypeName(in.type));
  }
  RT_RETURN_IF_ERROR(RequireType(ctx, axis, TensorType::INT32, "axis"));
  if (ElementCount(axis) != 1) return ctx.Fail(StatusCode::kInvalidModel, "axis must hold one value");
  if (in.rank < 1) return ctx.Fail(StatusCode::kInvalidModel, "input must have rank >= 1");
  RT_RETURN_IF_ERROR(RequireSameShape(ctx, in, out, "input and output"));
  CumsumData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  const auto* o = Options<tfl::CumsumOptions>(ctx);
  d->exclusive = o != nullptr && o->exclusive();
  d->reverse = o != nullptr && o->reverse();
  if (in.type == TensorType::INT8) {
    if (!(in.scale > 0.0f) || !(out.scale > 0.0f))
      return ctx.Fail(StatusCode::kInvalidModel, "int8 tensors need positive scales");
    d->input_offset = -in.zero_point;
    d->output_offset = out.zero_point;
    const double twice_max_input_scale = 2 * static_cast<double>(in.scale);
    int s_in = 0, s_out = 0;
    QuantizeMultiplierSmallerThanOneExp(static_cast<double>(in.scale) / twice_max_input_scale, &d->input_multiplier,
                                        &s_in);
    QuantizeMultiplierSmallerThanOneExp(twice_max_input_scale / ((1 << kLeftShift) * static_cast<double>(out.scale)),
                                        &d->output_multiplier, &s_out);
    d->input_shift = s_in;
    d->output_shift = s_out;
    CalculateActivationRangeQuantized(tfl::ActivationFunctionType::NONE, out, &d->act_min, &d->act_max);
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

int32_t ScaledInput(const CumsumData& d, int32_t x) {
  const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(d.input_offset + x) << kLeftShift);
  return MultiplyByQuantizedMultiplierSmallerThanOneExp(shifted, d.input_multiplier, d.input_shift);
}

// Visits each line along the axis: f(first_index, stride, length) in the reference's order.
template <typename F>
void ForEachLine(const TensorView& t, int32_t axis, bool reverse, F&& f) {
  int64_t before = 1, after = 1;
  for (int32_t i = 0; i < t.rank; ++i) {
    if (i < axis) before *= t.dims[i];
    if (i > axis) after *= t.dims[i];
  }
  const int64_t depth = t.dims[axis];
  for (int64_t a = 0; a < after; ++a) {
    const int64_t aa = reverse ? after - 1 - a : a;
    for (int64_t b = 0; b < before; ++b) {
      const int64_t bb = reverse ? before - 1 - b : b;
      f(aa + bb * depth * after, after, depth);
    }
  }
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, axis_t, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &axis_t));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const auto& d = *static_cast<const CumsumData*>(ctx.op_data());
  int32_t axis = LoadUnaligned<int32_t>(axis_t.data, 0);
  if (axis < 0) axis += in.rank;
  if (axis < 0 || axis >= in.rank) return ctx.Fail(StatusCode::kKernelError, "CUMSUM Invalid axis: %d", axis);
  if (in.type == TensorType::FLOAT32) {
    const float* x = in.As<float>();
    float* y = out.As<float>();
    ForEachLine(in, axis, d.reverse, [&](int64_t first, int64_t stride, int64_t depth) {
      float acc = 0.0f;
      for (int64_t k = 0; k < depth; ++k) {
        const int64_t i = first + (d.reverse ? depth - 1 - k : k) * stride;
        if (d.exclusive) {
          y[i] = acc;
          acc += x[i];
        } else {
          acc += x[i];
          y[i] = acc;
        }
      }
    });
    return StatusCode::kOk;
  }
  const int8_t* x = in.As<int8_t>();
  int8_t* y = out.As<int8_t>();
  ForEachLine(in, axis, d.reverse, [&](int64_t first, int64_t stride, int64_t depth) {
    int32_t acc = ScaledInput(d, 0);
    for (int64_t k = 0; k < depth; ++k) {
      const int64_t i = first + (d.reverse ? depth - 1 - k : k) * stride;
      const int32_t scaled = ScaledInput(d, x[i]);
      int32_t v = acc;
      acc += scaled;
      if (!d.exclusive) v = acc;
      int32_t r = MultiplyByQuantizedMultiplierSmallerThanOneExp(v, d.output_multiplier, d.output_shift) +
                  d.output_offset;
      r = r < d.act_min ? d.act_min : (r > d.act_max ? d.act_max : r);
      y[i] = static_cast<int8_t>(r);
    }
  });
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_KERNEL(CUMSUM, &Prepare, &Eval)

}  // namespace arenaplan::rt
