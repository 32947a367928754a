// ADD_N: the elementwise sum of two or more tensors of one shape, bit-exact with TFLM (add_n.cc,
// reference/add_n.h). float32 adds the inputs in order, starting from 0; int8 (all inputs share one
// zero point and scale) follows the reference's fixed point: every input is shifted left by 20,
// rescaled by 1/2 (a start value made of the input offset is rescaled the same way, as the
// reference does), summed, rescaled to the output and clamped. TFLM asks for a pointer per input as
// scratch; so does this kernel (it holds the input data pointers). O(inputs x elements).
#include <cstdint>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

struct AddNData {
  int32_t input_offset, output_offset;
  int32_t input_multiplier, input_shift;
  int32_t output_multiplier, output_shift;
  int32_t act_min, act_max;
  int32_t scratch;  // one data pointer per input
};

constexpr int32_t kLeftShift = 20;

StatusCode Prepare(KernelContext& ctx) {
  const uint32_t n = ctx.num_inputs();
  if (n < 2 || ctx.num_outputs() != 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "expected at least 2 inputs and 1 output, got %u and %u", n,
                    ctx.num_outputs());
  }
  TensorView first, out;
  RT_RETURN_IF_ERROR(RequireSameTypeIo(ctx, &first, &out));
  if (out.type != TensorType::FLOAT32 && out.type != TensorType::INT8) {
    return ctx.Fail(StatusCode::kUnsupported, "ADD_N only supports FLOAT32 and INT8, got %s", TypeName(out.type));
  }
  RT_RETURN_IF_ERROR(RequireSameShape(ctx, first, out, "input 0 and output"));
  for (uint32_t k = 1; k < n; ++k) {
    TensorView in;
    RT_RETURN_IF_ERROR(RequireInput(ctx, k, &in));
    if (!SameShape(first, in) || in.type != first.type) {
      return ctx.Fail(StatusCode::kInvalidModel, "input %u differs from input 0 in shape or type", k);
    }
    if (in.type == TensorType::INT8 && (in.zero_point != first.zero_point || in.scale != first.scale)) {
      return ctx.Fail(StatusCode::kInvalidModel, "int8 input %u has another scale or zero point than input 0", k);
    }
  }
  AddNData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  RT_RETURN_IF_ERROR(ctx.RequestScratch(static_cast<uint32_t>(sizeof(void*)) * n, &d->scratch));
  if (out.type == TensorType::INT8) {
    if (!(first.scale > 0.0f) || !(out.scale > 0.0f)) {
      return ctx.Fail(StatusCode::kInvalidModel, "int8 tensors need positive scales");
    }
    d->input_offset = -first.zero_point;
    d->output_offset = out.zero_point;
    const double twice_max_input_scale = 2 * static_cast<double>(first.scale);
    const double real_input = static_cast<double>(first.scale) / twice_max_input_scale;
    const double real_output = twice_max_input_scale / ((1 << kLeftShift) * static_cast<double>(out.scale));
    int s_in = 0, s_out = 0;
    QuantizeMultiplierSmallerThanOneExp(real_input, &d->input_multiplier, &s_in);
    QuantizeMultiplierSmallerThanOneExp(real_output, &d->output_multiplier, &s_out);
    d->input_shift = s_in;
    d->output_shift = s_out;
    if (!CalculateActivationRangeQuantized(tfl::ActivationFunctionType::NONE, out, &d->act_min, &d->act_max)) {
      return ctx.Fail(StatusCode::kUnsupported, "output type %s has no range", TypeName(out.type));
    }
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

// The reference's per-input term: (offset + x) << 20, rescaled by the input multiplier.
int32_t Scaled(const AddNData& d, int32_t x) {
  const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(d.input_offset + x) << kLeftShift);
  return MultiplyByQuantizedMultiplierSmallerThanOneExp(shifted, d.input_multiplier, d.input_shift);
}

StatusCode Eval(KernelContext& ctx) {
  const auto& d = *static_cast<const AddNData*>(ctx.op_data());
  const uint32_t n = ctx.num_inputs();
  auto** inputs = static_cast<const void**>(ctx.GetScratch(d.scratch));
  if (inputs == nullptr) return ctx.Fail(StatusCode::kKernelError, "scratch buffer missing");
  TensorView in, out;
  for (uint32_t k = 0; k < n; ++k) {
    RT_RETURN_IF_ERROR(RequireInput(ctx, k, &in));
    inputs[k] = in.data;
  }
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const int64_t size = ElementCount(out);
  if (out.type == TensorType::FLOAT32) {
    float* y = out.As<float>();
    for (int64_t i = 0; i < size; ++i) {
      float x = 0.0f;
      for (uint32_t k = 0; k < n; ++k) x += static_cast<const float*>(inputs[k])[i];
      y[i] = x;
    }
    return StatusCode::kOk;
  }
  int8_t* y = out.As<int8_t>();
  const int32_t start = Scaled(d, 0);
  for (int64_t i = 0; i < size; ++i) {
    int32_t sum = start;
    for (uint32_t k = 0; k < n; ++k) sum += Scaled(d, static_cast<const int8_t*>(inputs[k])[i]);
    int32_t r = MultiplyByQuantizedMultiplierSmallerThanOneExp(sum, d.output_multiplier, d.output_shift) +
                d.output_offset;
    r = r < d.act_min ? d.act_min : (r > d.act_max ? d.act_max : r);
    y[i] = static_cast<int8_t>(r);
  }
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_KERNEL(ADD_N, &Prepare, &Eval)

}  // namespace arenaplan::rt
