// SignalFramer (TFLM Signal library; int16 [.., n * step] -> [.., n, frame_size] + bool valid), as
// TFLM (framer.cc): each row keeps a FIFO of ceil(frame_size / step) * step samples (prefilled
// with frame_size - step zeros when 'prefill'); per frame it appends `step` input samples and,
// once frame_size are buffered, outputs the oldest frame_size and drops `step`; output_valid is
// false when any frame was not ready (that frame's output is left as it was). State survives
// Invoke; Reset (and Prepare) restore the prefill. O(rows x frames x frame_size) per Invoke.
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/kernels/signal_util.h"

namespace arenaplan::rt {

namespace {

struct FramerData {
  int32_t frame_size, frame_step, rows, frames;
  bool prefill;
  Int16Fifo* fifos;
};

void ResetState(FramerData& d) {
  for (int32_t r = 0; r < d.rows; ++r) {
    d.fifos[r].Reset();
    if (d.prefill) d.fifos[r].WriteZeros(static_cast<uint32_t>(d.frame_size - d.frame_step));
  }
}

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 2));
  TensorView in, out, valid;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 1, &valid));
  RT_RETURN_IF_ERROR(RequireType(ctx, in, TensorType::INT16, "input"));
  RT_RETURN_IF_ERROR(RequireType(ctx, out, TensorType::INT16, "output"));
  RT_RETURN_IF_ERROR(RequireType(ctx, valid, TensorType::BOOL, "output_valid"));
  if (in.rank < 1 || out.rank != in.rank + 1 || valid.rank != 0) {
    return ctx.Fail(StatusCode::kInvalidModel, "output must have rank %d and output_valid be a scalar", in.rank + 1);
  }
  FramerData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  int32_t prefill = 0;
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "frame_size", &d->frame_size));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "frame_step", &d->frame_step));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "prefill", &prefill));
  d->prefill = prefill != 0;
  const int32_t inner = in.dims[in.rank - 1];
  if (d->frame_step <= 0 || d->frame_size < d->frame_step || inner < d->frame_step || inner % d->frame_step != 0) {
    return ctx.Fail(StatusCode::kInvalidModel, "frame_size %d, frame_step %d and input length %d do not fit",
                    d->frame_size, d->frame_step, inner);
  }
  d->rows = static_cast<int32_t>(ElementCount(in) / inner);
  d->frames = inner / d->frame_step;
  if (out.dims[out.rank - 1] != d->frame_size || out.dims[out.rank - 2] != d->frames ||
      ElementCount(out) != static_cast<int64_t>(d->rows) * d->frames * d->frame_size) {
    return ctx.Fail(StatusCode::kInvalidModel, "output must end with [%d, %d]", d->frames, d->frame_size);
  }
  const int32_t capacity = (d->frame_size + d->frame_step - 1) / d->frame_step * d->frame_step;
  RT_RETURN_IF_ERROR(AllocateFifos(ctx, static_cast<uint32_t>(d->rows), static_cast<uint32_t>(capacity), &d->fifos));
  ResetState(*d);
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, out, valid;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 1, &valid));
  auto& d = *static_cast<FramerData*>(ctx.op_data());
  const int16_t* x = in.As<int16_t>();
  int16_t* y = out.As<int16_t>();
  bool ok = true;
  for (int32_t r = 0; r < d.rows; ++r) {
    Int16Fifo& fifo = d.fifos[r];
    for (int32_t f = 0; f < d.frames; ++f) {
      const int64_t frame = static_cast<int64_t>(r) * d.frames + f;
      if (!fifo.Write(x + frame * d.frame_step, static_cast<uint32_t>(d.frame_step))) {
        return ctx.Fail(StatusCode::kKernelError, "frame buffer overflow");
      }
      if (fifo.size >= static_cast<uint32_t>(d.frame_size)) {
        fifo.Get(static_cast<uint32_t>(d.frame_size), y + frame * d.frame_size);
        fifo.Discard(static_cast<uint32_t>(d.frame_step));
      } else {
        ok = false;
      }
    }
  }
  *valid.As<uint8_t>() = ok ? 1 : 0;
  return StatusCode::kOk;
}

StatusCode Reset(KernelContext& ctx) {
  ResetState(*static_cast<FramerData*>(ctx.op_data()));
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_NAMED_KERNEL(SIGNAL_FRAMER, "SignalFramer", &Prepare, &Eval, &Reset)

}  // namespace arenaplan::rt
