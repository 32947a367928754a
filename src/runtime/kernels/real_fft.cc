#include "runtime/kernels/real_fft.h"

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/signal_util.h"

namespace arenaplan::rt {

StatusCode ReadRealFftOptions(KernelContext& ctx, const char* op, TensorView* in, TensorView* out, TensorType* type,
                              int32_t* fft_length) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, out));
  int32_t t = 0;
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "T", &t));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "fft_length", fft_length));
  *type = static_cast<TensorType>(t);
  if (*type != TensorType::INT16 && *type != TensorType::INT32 && *type != TensorType::FLOAT32) {
    return ctx.Fail(StatusCode::kUnsupported, "%s type T = %d not supported (int16, int32, float32)", op, t);
  }
  RT_RETURN_IF_ERROR(RequireType(ctx, *in, *type, "input"));
  RT_RETURN_IF_ERROR(RequireType(ctx, *out, *type, "output"));
  if (in->rank < 1 || in->rank != out->rank) {
    return ctx.Fail(StatusCode::kInvalidModel, "input and output ranks differ");
  }
  if (*fft_length < 4 || *fft_length > (1 << 16) || *fft_length % 2 != 0) {
    return ctx.Fail(StatusCode::kInvalidModel, "fft_length %d invalid", *fft_length);
  }
  return StatusCode::kOk;
}

}  // namespace arenaplan::rt
