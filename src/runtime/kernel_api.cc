#include "runtime/kernel_api.h"

namespace arenaplan::rt {

Status KernelContext::Fail(Status code, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  ReportV(fmt, args);
  va_end(args);
  return code == Status::kOk ? Status::kKernelError : code;
}

Status RequireInput(KernelContext& ctx, uint32_t k, TensorView* out) {
  if (ctx.GetInput(k, out)) return Status::kOk;
  return ctx.Fail(Status::kInvalidModel, "input %u is missing (op has %u inputs)", k, ctx.num_inputs());
}

Status RequireOutput(KernelContext& ctx, uint32_t k, TensorView* out) {
  if (ctx.GetOutput(k, out)) return Status::kOk;
  return ctx.Fail(Status::kInvalidModel, "output %u is missing (op has %u outputs)", k,
                  ctx.num_outputs());
}

Status RequireCounts(KernelContext& ctx, uint32_t inputs, uint32_t outputs) {
  if (ctx.num_inputs() != inputs || ctx.num_outputs() != outputs) {
    return ctx.Fail(Status::kInvalidModel, "expected %u inputs and %u outputs, got %u and %u", inputs,
                    outputs, ctx.num_inputs(), ctx.num_outputs());
  }
  return Status::kOk;
}

Status RequireType(KernelContext& ctx, const TensorView& t, TensorType type, const char* which) {
  if (t.type == type) return Status::kOk;
  return ctx.Fail(Status::kUnsupported, "%s has type %s, expected %s", which, TypeName(t.type),
                  TypeName(type));
}

Status RequireSameShape(KernelContext& ctx, const TensorView& a, const TensorView& b, const char* what) {
  if (SameShape(a, b)) return Status::kOk;
  return ctx.Fail(Status::kInvalidModel, "%s: shapes differ (rank %d vs %d)", what, a.rank, b.rank);
}

}  // namespace arenaplan::rt
