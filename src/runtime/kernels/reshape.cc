// RESHAPE (and the same data-copy for any op whose output is its input re-labelled): output bytes =
// input bytes. Dims come from the output tensor in the model, as in TFLM where shapes are static.
#include "runtime/kernels/registrations.h"

#include <cstring>

namespace arenaplan::rt {

namespace {

StatusCode Prepare(KernelContext& ctx) {
  if (ctx.num_inputs() < 1 || ctx.num_inputs() > 2 || ctx.num_outputs() != 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "expected 1 or 2 inputs and 1 output, got %u and %u", ctx.num_inputs(),
                    ctx.num_outputs());
  }
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (in.type != out.type) {
    return ctx.Fail(StatusCode::kInvalidModel, "input type %s differs from output type %s", TypeName(in.type),
                    TypeName(out.type));
  }
  if (in.bytes != out.bytes) {
    return ctx.Fail(StatusCode::kInvalidModel, "input has %u bytes, output %u", in.bytes, out.bytes);
  }
  return StatusCode::kOk;
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (in.data != out.data && out.bytes > 0) std::memmove(out.data, in.data, out.bytes);
  return StatusCode::kOk;
}

const KernelRegistration kReshape{"RESHAPE", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_RESHAPE() { return &kReshape; }

}  // namespace arenaplan::rt
