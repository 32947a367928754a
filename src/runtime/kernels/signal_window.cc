// SignalWindow (TFLM Signal library custom op): out[i] = sat16((in[i] * w[i mod n]) >> shift),
// applied frame by frame (frame = the weights' length n). int16 in / weights / out; option
// 'shift' from the FlexBuffer custom_options. O(elements).
#include "runtime/kernels/registrations.h"
#include "runtime/kernels/signal_util.h"

namespace arenaplan::rt {

namespace {

struct WindowData {
  int32_t shift;
  int32_t input_size;
  int32_t weight_size;
};

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 2, 1));
  TensorView in, w, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &w));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  RT_RETURN_IF_ERROR(RequireType(ctx, in, TensorType::INT16, "input"));
  RT_RETURN_IF_ERROR(RequireType(ctx, w, TensorType::INT16, "weights"));
  RT_RETURN_IF_ERROR(RequireType(ctx, out, TensorType::INT16, "output"));
  if (in.rank < 1 || w.rank != 1 || in.rank != out.rank) {
    return ctx.Fail(StatusCode::kInvalidModel, "input rank %d / weights rank %d / output rank %d invalid", in.rank,
                    w.rank, out.rank);
  }
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(WindowData), &mem));
  auto* d = static_cast<WindowData*>(mem);
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "shift", &d->shift));
  if (d->shift < 0 || d->shift > 31) return ctx.Fail(StatusCode::kInvalidModel, "shift %d out of range", d->shift);
  d->input_size = static_cast<int32_t>(ElementCount(in));
  d->weight_size = w.dims[0];
  if (d->weight_size <= 0 || d->input_size % d->weight_size != 0 || ElementCount(out) != d->input_size) {
    return ctx.Fail(StatusCode::kInvalidModel, "input of %d elements is not whole frames of %d weights", d->input_size,
                    d->weight_size);
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode Eval(KernelContext& ctx) {
  const auto* d = static_cast<const WindowData*>(ctx.op_data());
  TensorView in, w, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &w));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const int16_t* x = in.As<int16_t>();
  const int16_t* win = w.As<int16_t>();
  int16_t* y = out.As<int16_t>();
  for (int32_t base = 0; base < d->input_size; base += d->weight_size) {
    for (int32_t i = 0; i < d->weight_size; ++i) {
      const int32_t raw = (static_cast<int32_t>(x[base + i]) * win[i]) >> d->shift;
      y[base + i] = static_cast<int16_t>(raw < -32768 ? -32768 : (raw > 32767 ? 32767 : raw));
    }
  }
  return StatusCode::kOk;
}

const KernelRegistration kWindow{"SignalWindow", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_SIGNAL_WINDOW() { return &kWindow; }

}  // namespace arenaplan::rt
