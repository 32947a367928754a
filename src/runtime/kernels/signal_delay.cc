// SignalDelay (TFLM Signal library; int16 [.., frame] -> same shape), as TFLM (delay.cc): each
// row's samples come out delay_length samples late; a FIFO of frame + delay_length samples per
// row starts with delay_length zeros. State survives Invoke; Reset (and Prepare) restore the
// zeros. O(rows x frame) per Invoke.
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/kernels/signal_util.h"

namespace arenaplan::rt {

namespace {

struct DelayData {
  int32_t frame_size, delay_length, rows;
  Int16Fifo* fifos;
};

void ResetState(DelayData& d) {
  for (int32_t r = 0; r < d.rows; ++r) {
    d.fifos[r].Reset();
    d.fifos[r].WriteZeros(static_cast<uint32_t>(d.delay_length));
  }
}

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  RT_RETURN_IF_ERROR(RequireType(ctx, in, TensorType::INT16, "input"));
  RT_RETURN_IF_ERROR(RequireType(ctx, out, TensorType::INT16, "output"));
  if (in.rank < 1 || ElementCount(out) != ElementCount(in)) {
    return ctx.Fail(StatusCode::kInvalidModel, "output must have the input's size");
  }
  DelayData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "delay_length", &d->delay_length));
  d->frame_size = in.dims[in.rank - 1];
  if (d->delay_length < 0 || d->frame_size <= 0) {
    return ctx.Fail(StatusCode::kInvalidModel, "delay_length %d / frame %d invalid", d->delay_length, d->frame_size);
  }
  d->rows = static_cast<int32_t>(ElementCount(in) / d->frame_size);
  RT_RETURN_IF_ERROR(AllocateFifos(ctx, static_cast<uint32_t>(d->rows),
                                   static_cast<uint32_t>(d->frame_size) + static_cast<uint32_t>(d->delay_length),
                                   &d->fifos));
  ResetState(*d);
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  auto& d = *static_cast<DelayData*>(ctx.op_data());
  const uint32_t n = static_cast<uint32_t>(d.frame_size);
  for (int32_t r = 0; r < d.rows; ++r) {
    Int16Fifo& fifo = d.fifos[r];
    const int64_t at = static_cast<int64_t>(r) * d.frame_size;
    if (!fifo.Write(in.As<int16_t>() + at, n) || !fifo.Get(n, out.As<int16_t>() + at) || !fifo.Discard(n)) {
      return ctx.Fail(StatusCode::kKernelError, "delay buffer overflow");
    }
  }
  return StatusCode::kOk;
}

StatusCode Reset(KernelContext& ctx) {
  ResetState(*static_cast<DelayData*>(ctx.op_data()));
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_NAMED_KERNEL(SIGNAL_DELAY, "SignalDelay", &Prepare, &Eval, &Reset)

}  // namespace arenaplan::rt
