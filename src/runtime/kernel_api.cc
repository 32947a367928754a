#include "runtime/kernel_api.h"

namespace arenaplan::rt {

StatusCode KernelContext::Fail(StatusCode code, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  ReportV(fmt, args);
  va_end(args);
  return code == StatusCode::kOk ? StatusCode::kKernelError : code;
}

StatusCode RequireInput(KernelContext& ctx, uint32_t k, TensorView* out) {
  if (ctx.GetInput(k, out)) return StatusCode::kOk;
  return ctx.Fail(StatusCode::kInvalidModel, "input %u is missing (op has %u inputs)", k, ctx.num_inputs());
}

StatusCode RequireOutput(KernelContext& ctx, uint32_t k, TensorView* out) {
  if (ctx.GetOutput(k, out)) return StatusCode::kOk;
  return ctx.Fail(StatusCode::kInvalidModel, "output %u is missing (op has %u outputs)", k, ctx.num_outputs());
}

StatusCode RequireCounts(KernelContext& ctx, uint32_t inputs, uint32_t outputs) {
  if (ctx.num_inputs() != inputs || ctx.num_outputs() != outputs) {
    return ctx.Fail(StatusCode::kInvalidModel, "expected %u inputs and %u outputs, got %u and %u", inputs, outputs,
                    ctx.num_inputs(), ctx.num_outputs());
  }
  return StatusCode::kOk;
}

StatusCode RequireType(KernelContext& ctx, const TensorView& t, TensorType type, const char* which) {
  if (t.type == type) return StatusCode::kOk;
  return ctx.Fail(StatusCode::kUnsupported, "%s has type %s, expected %s", which, TypeName(t.type), TypeName(type));
}

StatusCode RequireSameShape(KernelContext& ctx, const TensorView& a, const TensorView& b, const char* what) {
  if (SameShape(a, b)) return StatusCode::kOk;
  return ctx.Fail(StatusCode::kInvalidModel, "%s: shapes differ (rank %d vs %d)", what, a.rank, b.rank);
}

}  // namespace arenaplan::rt
