// CIRCULAR_BUFFER (custom op of TFLM's streaming convolutions; int8 [1, 1, H, W] -> [1, slots, H, W]),
// as TFLM (circular_buffer.cc, circular_buffer_common.cc): each Invoke shifts the output by one
// slot towards the front and writes the input into the last slot; the output is the op's state.
// The op runs its downstream every cycles_max Invokes: in between it ends the Invoke early
// (StatusCode::kAborted, TFLM's kTfLiteAbort). cycles_max comes from the custom options; when absent
// or <= 0, TFLM guesses from the output shape (1 for 5, 13 or 25 slots, else 2; its extra rule for
// the 5th such op in a process uses a process-wide counter, which this runtime does not keep).
// The output starts at zero (TFLM starts from whatever the arena held; the golden runs used a
// zeroed arena). Reset restores the post-Prepare state. O(slots x depth) per Invoke.
#include <cstring>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/kernels/signal_util.h"

namespace arenaplan::rt {

namespace {

struct CircularBufferData {
  int32_t cycles_max;
  int32_t cycles_until_run;
  bool started;  // the output has been zeroed
};

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireSameTypeIo(ctx, &in, &out));
  RT_RETURN_IF_ERROR(RequireType(ctx, in, TensorType::INT8, "input"));
  if (in.rank != 4 || out.rank != 4 || in.dims[0] != out.dims[0] || in.dims[1] != 1 || in.dims[2] != out.dims[2] ||
      in.dims[3] != out.dims[3] || out.dims[1] < 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "input must be [N, 1, H, W] and output [N, slots, H, W]");
  }
  CircularBufferData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  int64_t cycles = 0;
  const tfl::Operator* op = ctx.op();
  FlexMap map;
  if (op != nullptr && op->custom_options() != nullptr &&
      FlexParseMap(op->custom_options()->data(), op->custom_options()->size(), &map)) {
    FlexGetInt(map, "cycles_max", &cycles);
  }
  if (cycles <= 0) {
    const int32_t slots = out.dims[1];
    cycles = (slots == 5 || slots == 13 || slots == 25) ? 1 : 2;
  }
  if (cycles > 0x7FFFFFFF) return ctx.Fail(StatusCode::kInvalidModel, "cycles_max out of range");
  d->cycles_max = static_cast<int32_t>(cycles);
  d->cycles_until_run = d->cycles_max;
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  auto& d = *static_cast<CircularBufferData*>(ctx.op_data());
  const size_t slots = static_cast<size_t>(out.dims[1]);
  const size_t depth = static_cast<size_t>(out.dims[2]) * static_cast<size_t>(out.dims[3]);
  auto* y = out.As<int8_t>();
  if (!d.started) {
    std::memset(y, 0, out.bytes);
    d.started = true;
  }
  std::memmove(y, y + depth, (slots - 1) * depth);
  std::memcpy(y + (slots - 1) * depth, in.data, depth);
  if (--d.cycles_until_run != 0) {
    return ctx.Fail(StatusCode::kAborted,
                    "runs every %d Invokes; this one ends here (%d to go), as TFLM's kTfLiteAbort", d.cycles_max,
                    d.cycles_until_run);
  }
  d.cycles_until_run = d.cycles_max;
  return StatusCode::kOk;
}

StatusCode Reset(KernelContext& ctx) {
  auto& d = *static_cast<CircularBufferData*>(ctx.op_data());
  d.cycles_until_run = d.cycles_max;
  d.started = false;
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_KERNEL(CIRCULAR_BUFFER, &Prepare, &Eval, &Reset)

}  // namespace arenaplan::rt
