// SignalStacker (TFLM Signal library; int16 [channels] -> [channels x (left + right + 1)] + bool
// valid), as TFLM (stacker.cc): each Invoke appends one frame of num_channels to a FIFO of
// num_channels x (left + right + 1); the very first frame is repeated left_context more times;
// once the FIFO is full the whole window is output and stacker_step frames are dropped, else
// output_valid is false and the output is left as it was. State survives Invoke; Reset clears
// it. O(window) per Invoke.
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/kernels/signal_util.h"

namespace arenaplan::rt {

namespace {

struct StackerData {
  int32_t channels, left, right, step;
  uint32_t buffer_size, step_size;
  bool has_first_frame;
  Int16Fifo* fifo;
};

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 2));
  TensorView in, out, valid;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 1, &valid));
  RT_RETURN_IF_ERROR(RequireType(ctx, in, TensorType::INT16, "input"));
  RT_RETURN_IF_ERROR(RequireType(ctx, out, TensorType::INT16, "output"));
  RT_RETURN_IF_ERROR(RequireType(ctx, valid, TensorType::BOOL, "output_valid"));
  if (in.rank != 1 || out.rank != 1 || valid.rank != 0) {
    return ctx.Fail(StatusCode::kInvalidModel, "input and output must be 1-D and output_valid a scalar");
  }
  StackerData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "num_channels", &d->channels));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "stacker_left_context", &d->left));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "stacker_right_context", &d->right));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "stacker_step", &d->step));
  if (d->channels <= 0 || d->left < 0 || d->right < 0 || d->step <= 0 || d->left > 4096 || d->right > 4096 ||
      d->step > d->left + d->right + 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "stacker options out of range");
  }
  d->buffer_size = static_cast<uint32_t>(d->channels) * static_cast<uint32_t>(d->left + d->right + 1);
  d->step_size = static_cast<uint32_t>(d->channels) * static_cast<uint32_t>(d->step);
  if (in.dims[0] != d->channels || static_cast<uint32_t>(out.dims[0]) != d->buffer_size) {
    return ctx.Fail(StatusCode::kInvalidModel, "input must hold %d channels and output %u values", d->channels,
                    d->buffer_size);
  }
  RT_RETURN_IF_ERROR(AllocateFifos(ctx, 1, d->buffer_size, &d->fifo));
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, out, valid;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 1, &valid));
  auto& d = *static_cast<StackerData*>(ctx.op_data());
  Int16Fifo& fifo = *d.fifo;
  const uint32_t channels = static_cast<uint32_t>(d.channels);
  if (!fifo.Write(in.As<int16_t>(), channels)) return ctx.Fail(StatusCode::kKernelError, "stacker buffer overflow");
  if (!d.has_first_frame) {  // the first frame pads the left context
    if (!fifo.Extend(channels, static_cast<uint32_t>(d.left))) {
      return ctx.Fail(StatusCode::kKernelError, "stacker buffer overflow");
    }
    d.has_first_frame = true;
  }
  const bool ready = fifo.size >= d.buffer_size;
  if (ready) {
    fifo.Get(d.buffer_size, out.As<int16_t>());
    fifo.Discard(d.step_size);
  }
  *valid.As<uint8_t>() = ready ? 1 : 0;
  return StatusCode::kOk;
}

StatusCode Reset(KernelContext& ctx) {
  auto& d = *static_cast<StackerData*>(ctx.op_data());
  d.fifo->Reset();
  d.has_first_frame = false;
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_NAMED_KERNEL(SIGNAL_STACKER, "SignalStacker", &Prepare, &Eval, &Reset)

}  // namespace arenaplan::rt
