// SignalEnergy (TFLM Signal library custom op): out[i] = re[i]^2 + im[i]^2 for start_index <= i <
// end_index over an int16 complex spectrum (interleaved re, im); other outputs are left untouched,
// as in TFLM. Options 'start_index', 'end_index'. O(end - start).
#include "runtime/kernels/registrations.h"
#include "runtime/kernels/signal_util.h"

namespace arenaplan::rt {

namespace {

struct EnergyData {
  int32_t start_index, end_index;
};

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  RT_RETURN_IF_ERROR(RequireType(ctx, in, TensorType::INT16, "input"));
  RT_RETURN_IF_ERROR(RequireType(ctx, out, TensorType::UINT32, "output"));
  if (in.rank != 1 || out.rank != 1) return ctx.Fail(StatusCode::kInvalidModel, "input and output must be rank 1");
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(EnergyData), &mem));
  auto* d = static_cast<EnergyData*>(mem);
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "start_index", &d->start_index));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "end_index", &d->end_index));
  // TFLM does not check; we refuse indices outside the spectrum instead of reading past it.
  if (d->start_index < 0 || d->end_index < d->start_index || d->end_index > in.dims[0] / 2 ||
      d->end_index > out.dims[0]) {
    return ctx.Fail(StatusCode::kInvalidModel, "energy range [%d, %d) outside spectrum of %d bins", d->start_index,
                    d->end_index, in.dims[0] / 2);
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode Eval(KernelContext& ctx) {
  const auto* d = static_cast<const EnergyData*>(ctx.op_data());
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const int16_t* c = in.As<int16_t>();
  uint32_t* y = out.As<uint32_t>();
  for (int32_t i = d->start_index; i < d->end_index; ++i) {
    const int32_t re = c[2 * i], im = c[2 * i + 1];
    // Each square fits int32; the sum is taken mod 2^32 like TFLM's (wrapping) int32 sum.
    y[i] = static_cast<uint32_t>(re * re) + static_cast<uint32_t>(im * im);
  }
  return StatusCode::kOk;
}

const KernelRegistration kEnergy{"SignalEnergy", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_SIGNAL_ENERGY() { return &kEnergy; }

}  // namespace arenaplan::rt
